import type { EntryDescription } from "../entry-kinds";
import type { SessionReader } from "../session-reader";

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

const BY_ROLE: Record<string, EntryDescription["kind"]> = {
  user: "user",
  assistant: "assistant",
  toolResult: "tool-result",
  bashExecution: "shell",
  custom: "injected",
  branchSummary: "branch-summary",
  compactionSummary: "summary",
};

/** pi's entry types and message roles in the neutral vocabulary; the label is pi's own name. */
export function describePiEntry(session: SessionReader, i: number): EntryDescription {
  const t = session.table;
  const type = t.typeAt(i);
  if (type === "message") {
    const role = t.roleAt(i) ?? "(none)";
    const kind = BY_ROLE[role] ?? "other";
    return { kind, label: role, visibility: role === "user" ? "user" : "conversation", ...(t.stopReasonAt(i) === "error" ? { isError: true } : {}) };
  }
  return { kind: BY_TYPE[type] ?? "other", label: type, visibility: QUIET.has(type) ? "all" : "conversation" };
}
