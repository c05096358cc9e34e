import { readFileSync } from "node:fs";

/**
 * This process's peak RSS: VmHWM where /proc has it, since getrusage's maxRSS starts from
 * the parent's RSS at fork on Linux (a child of the bench would report the bench's size).
 */
export function peakRssBytes(): number {
  try {
    const m = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // no /proc: getrusage it is
  }
  return process.resourceUsage().maxRSS * 1024;
}
