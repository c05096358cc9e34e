import type { EntryDescription } from "../entry-kinds";
import type { SessionReader } from "../session-reader";
import { type ClawdcodeLine, toolResultFailed } from "./lines";

/**
 * Neutral kind and label of line i. Assistant and tool_use lines are told from the index
 * alone; user, tool_result and system lines are read (a summary flag, an error, a
 * boundary subtype decide their kind) from the reader's cache.
 */
export function describeClawdcode(session: SessionReader, i: number): EntryDescription {
  const type = session.table.typeAt(i);
  switch (type) {
    case "assistant":
      return { kind: "assistant", label: "assistant", visibility: "conversation" };
    case "tool_use":
      return { kind: "tool-call", label: "tool_use", visibility: "conversation" };
    case "user": {
      const line = session.entryAt(i) as unknown as ClawdcodeLine;
      if (line.isCompactSummary) return { kind: "summary", label: "compact summary", visibility: "conversation" };
      return { kind: "user", label: "user", visibility: "user" };
    }
    case "tool_result": {
      const line = session.entryAt(i) as unknown as ClawdcodeLine;
      const d: EntryDescription = { kind: "tool-result", label: "tool_result", visibility: "conversation" };
      if (toolResultFailed(line)) d.isError = true;
      return d;
    }
    case "system":
      // The index marks boundaries with tokensBefore (compactMetadata.preTokens).
      if (session.table.rare.get(i)?.tokensBefore !== undefined) return { kind: "compaction", label: "compact_boundary", visibility: "conversation" };
      return { kind: "info", label: "system", visibility: "all" };
    default:
      return { kind: "other", label: type, visibility: "all" };
  }
}
