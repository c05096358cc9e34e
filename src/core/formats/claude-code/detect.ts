import type { FirstLines } from "../../session/session-format";
import { isConversationType } from "./lines";

/** Metadata line types that only Claude Code writes, each with the field that marks it. */
const METADATA_MARKS: ReadonlyArray<[string, string]> = [
  ["summary", "leafUuid"],
  ["file-history-snapshot", "snapshot"],
  ["queue-operation", "operation"],
  ["custom-title", "customTitle"],
  ["ai-title", "aiTitle"],
  ["permission-mode", "permissionMode"],
  ["last-prompt", "lastPrompt"],
];

function asObject(o: unknown): Record<string, unknown> | undefined {
  return o && typeof o === "object" && !Array.isArray(o) ? (o as Record<string, unknown>) : undefined;
}

/**
 * A conversation line in Claude Code's envelope (section 2): one of the five types, a
 * string uuid and sessionId, a parentUuid (null or a string), and the `isSidechain` flag
 * or `userType` that every Claude Code line carries and the seed "clawdcode" store's
 * lines never do.
 */
function isEnvelope(e: Record<string, unknown>): boolean {
  if (!isConversationType(e.type) || typeof e.uuid !== "string" || typeof e.sessionId !== "string") return false;
  if (!("parentUuid" in e) || (e.parentUuid !== null && typeof e.parentUuid !== "string")) return false;
  return typeof e.isSidechain === "boolean" || typeof e.userType === "string";
}

function isMetadata(e: Record<string, unknown>): boolean {
  return METADATA_MARKS.some(([type, field]) => e.type === type && field in e);
}

/**
 * Whether the first lines are a Claude Code transcript: the first conversation line among
 * them has Claude Code's envelope, and every line before it is one of Claude Code's own
 * metadata lines (files often open with a file-history-snapshot, a summary or a
 * queue-operation). A file of metadata lines only (an old titles-only file) is one too.
 */
export function detectClaudeCode(first: FirstLines): boolean {
  let sawMetadata = false;
  for (const o of first.objects) {
    // A torn or bad line is the reader's to report, not a reason to refuse the file.
    if (o === undefined) continue;
    const e = asObject(o);
    if (!e) return false;
    if (isEnvelope(e)) return true;
    if (!isMetadata(e)) return false;
    sawMetadata = true;
  }
  return sawMetadata;
}
