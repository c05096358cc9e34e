import { type EntryDescription, KIND_LABELS } from "../../session/entry-kinds";
import type { SessionReader } from "../../session/session-reader";
import { isStateSnapshot } from "./replay";
import type { GeminiEntry } from "./records";
import { callsOf, contentText, responsesOf } from "./text-of";

/** Neutral kind and label of a Gemini CLI message. */
export function describeGemini(session: SessionReader, i: number): EntryDescription {
  const e = session.entryAt(i) as GeminiEntry;
  const m = e.message;
  const typeName = e.type;
  if (e.sessionContext) return { kind: "injected", label: "Session context", typeName, visibility: "all" };
  switch (m.type) {
    case "user": {
      if (isStateSnapshot(m)) return { kind: "boundary", label: "Compression (state snapshot)", typeName, visibility: "user" };
      if (responsesOf(m).length && !contentText(m.content).trim()) {
        const failed = responsesOf(m).some((r) => typeof r.response === "object" && r.response !== null && "error" in r.response);
        return { kind: "tool-result", label: KIND_LABELS["tool-result"], typeName, visibility: "conversation", ...(failed ? { isError: true } : {}) };
      }
      return { kind: "user", label: KIND_LABELS.user, typeName, visibility: "user" };
    }
    case "gemini": {
      const calls = callsOf(m);
      const failed = calls.some((c) => c.status === "error" || c.status === "cancelled");
      if (calls.length && !contentText(m.content).trim()) return { kind: "tool-call", label: calls.length > 1 ? `${calls.length} tool calls` : KIND_LABELS["tool-call"], typeName, visibility: "conversation", ...(failed ? { isError: true } : {}) };
      return { kind: "assistant", label: KIND_LABELS.assistant, typeName, visibility: "conversation", ...(failed ? { isError: true } : {}) };
    }
    case "info":
    case "warning":
    case "error":
      return { kind: "info", label: `${m.type[0].toUpperCase()}${m.type.slice(1)} (shown, never sent)`, typeName, visibility: "all", ...(m.type === "error" ? { isError: true } : {}) };
    default:
      return { kind: "other", label: KIND_LABELS.other, typeName, visibility: "all" };
  }
}
