// Preloaded (node --require) into a benchmarked process: on exit it writes the process's
// peak RSS and CPU time (user + system, all threads) to stderr as one marked line, so
// the bench reads them whatever the program is.
// Peak RSS is VmHWM from /proc where there is one: getrusage's maxRSS (resourceUsage)
// starts from the RSS of the parent at fork on Linux, so a child of a large process
// would report at least the parent's size.
const { readFileSync, writeSync } = require("node:fs");

function peakRssBytes() {
  try {
    const m = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (m) return Number(m[1]) * 1024;
  } catch {
    // no /proc (macOS, Windows): getrusage it is
  }
  return process.resourceUsage().maxRSS * 1024;
}

process.on("exit", () => {
  const u = process.resourceUsage();
  writeSync(2, `\nASE_BENCH_MAXRSS ${peakRssBytes()} ${u.userCPUTime + u.systemCPUTime}\n`);
});
