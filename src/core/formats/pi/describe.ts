import { type EntryDescription, KIND_LABELS } from "../../session/entry-kinds";
import type { SessionReader } from "../../session/session-reader";

/** Entry types shown only when everything is: they carry no conversation. */
const QUIET = new Set(["label", "custom", "model_change", "thinking_level_change", "session_info"]);

const BY_TYPE: Record<string, EntryDescription["kind"]> = {
  compaction: "boundary",
  branch_summary: "branch-summary",
  custom_message: "injected",
  label: "label",
  model_change: "model",
  thinking_level_change: "setting",
  session_info: "info",
  custom: "other",
};

/** pi's entry types a person reads differently from their kind's label. */
const TYPE_LABELS: Record<string, string> = {
  session_info: "Session name",
  thinking_level_change: "Thinking level",
  custom: "Extension data",
  custom_message: "Extension message",
};

const BY_ROLE: Record<string, EntryDescription["kind"]> = {
  user: "user",
  assistant: "assistant",
  toolResult: "tool-result",
  bashExecution: "shell",
  custom: "injected",
  branchSummary: "branch-summary",
  compactionSummary: "summary",
};

/** pi's entry types and message roles in the neutral vocabulary; the label is for a person, pi's own name goes second. */
export function describePiEntry(session: SessionReader, i: number): EntryDescription {
  const t = session.table;
  const type = t.typeAt(i);
  if (type === "message") {
    const role = t.roleAt(i) ?? "(none)";
    const kind = BY_ROLE[role] ?? "other";
    const calls = role === "assistant" ? t.toolCalls[i] : 0;
    const label = calls > 1 ? "Tool calls" : calls === 1 ? KIND_LABELS["tool-call"] : role === "custom" ? "Extension message" : KIND_LABELS[kind];
    return { kind, label, typeName: role, visibility: role === "user" ? "user" : "conversation", ...(t.stopReasonAt(i) === "error" ? { isError: true } : {}) };
  }
  const kind = BY_TYPE[type] ?? "other";
  return { kind, label: TYPE_LABELS[type] ?? KIND_LABELS[kind], typeName: type, visibility: QUIET.has(type) ? "all" : "conversation" };
}
