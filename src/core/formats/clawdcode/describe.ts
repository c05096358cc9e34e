import { type EntryDescription, KIND_LABELS } from "../../session/entry-kinds";
import type { SessionReader } from "../../session/session-reader";
import { ERROR_PREVIEW } from "./index-hooks";
import { type ClawdcodeLine, toolResultFailed } from "./lines";

/** The index marks compact boundaries with tokensBefore (compactMetadata.preTokens). */
function isBoundary(session: SessionReader, i: number): boolean {
  return session.table.typeAt(i) === "system" && session.table.rare.get(i)?.tokensBefore !== undefined;
}

/**
 * Neutral kind and label of line i, from the index: row filters describe every line of
 * a session that may hold 10^6 of them, so a line is read only to confirm what the index
 * already points to (a user line right under a boundary may be its summary; a result
 * whose preview starts "error:" may be a failure).
 */
export function describeClawdcode(session: SessionReader, i: number): EntryDescription {
  const type = session.table.typeAt(i);
  switch (type) {
    case "assistant":
      return { kind: "assistant", label: KIND_LABELS.assistant, typeName: "assistant", visibility: "conversation" };
    case "tool_use":
      return { kind: "tool-call", label: KIND_LABELS["tool-call"], typeName: "tool_use", visibility: "conversation" };
    case "user": {
      const p = session.tree.parent[i];
      if (p >= 0 && isBoundary(session, p) && (session.entryAt(i) as unknown as ClawdcodeLine).isCompactSummary) {
        return { kind: "summary", label: KIND_LABELS.summary, typeName: "compact summary", visibility: "conversation" };
      }
      return { kind: "user", label: KIND_LABELS.user, typeName: "user", visibility: "user" };
    }
    case "tool_result": {
      const d: EntryDescription = { kind: "tool-result", label: KIND_LABELS["tool-result"], typeName: "tool_result", visibility: "conversation" };
      if (session.table.preview(i).startsWith(ERROR_PREVIEW) && toolResultFailed(session.entryAt(i) as unknown as ClawdcodeLine)) d.isError = true;
      return d;
    }
    case "system":
      if (isBoundary(session, i)) return { kind: "boundary", label: KIND_LABELS.boundary, typeName: "compact_boundary", visibility: "conversation" };
      return { kind: "info", label: KIND_LABELS.system, typeName: "system", visibility: "all" };
    default:
      return { kind: "other", label: KIND_LABELS.other, typeName: type, visibility: "all" };
  }
}
