import type { FirstLines } from "../../session/session-format";
import { CLAWDCODE_TYPES } from "./lines";

const TYPES = new Set<string>(CLAWDCODE_TYPES);

/** A path inside a clawdcode store: `.../.clawdcode/projects/<folder>/<file>.jsonl`. */
export function inClawdcodeStore(path: string): boolean {
  return /[\\/]\.clawdcode[\\/]projects[\\/][^\\/]+[\\/][^\\/]+\.jsonl$/.test(path);
}

/**
 * Whether the first parsed line is a clawdcode line: a string uuid and sessionId, a
 * parentUuid (null or a string), one of 15.2's types and a message object with a role.
 * Claude Code's lines share that envelope but always carry `isSidechain` and `userType`,
 * which the seed's lines never do. Inside a `.clawdcode/projects/` folder the message
 * may be missing (a store line of a type we do not know yet still belongs there).
 */
export function detectClawdcode(first: FirstLines): boolean {
  const o = first.objects.find((x) => x !== undefined);
  if (!o || typeof o !== "object" || Array.isArray(o)) return false;
  const e = o as Record<string, unknown>;
  if (typeof e.uuid !== "string" || typeof e.sessionId !== "string") return false;
  if (!("parentUuid" in e) || (e.parentUuid !== null && typeof e.parentUuid !== "string")) return false;
  if ("isSidechain" in e || "userType" in e) return false;
  const m = e.message as Record<string, unknown> | undefined;
  const hasMessage = !!m && typeof m === "object" && typeof m.role === "string";
  if (inClawdcodeStore(first.path)) return typeof e.type === "string";
  return hasMessage && typeof e.type === "string" && TYPES.has(e.type);
}
