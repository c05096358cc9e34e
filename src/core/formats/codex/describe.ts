import { type EntryDescription, KIND_LABELS } from "../../session/entry-kinds";
import type { SessionReader } from "../../session/session-reader";
import { COMPACTION_ITEM } from "./lines";

/** Line types of 0.169.0 and older builds (docs/codex-format.md section 3); any other is shown as unknown. */
const KNOWN_LINES = new Set(["session_meta", "response_item", "compacted", "turn_context", "world_state", "token_usage_record", "event_msg", "inter_agent_communication", "inter_agent_communication_metadata", "dynamic_tools_updated", "realtime_item", "retained_context", "security_risk_score"]);

/** Item types Codex defines (section 4) that have no row shape of their own here. */
const OTHER_ITEMS = new Set(["web_search_call", "image_generation_call", "tool_search_call", "tool_search_output", "compaction_trigger", "configuration_update", "agent_message", "ghost_snapshot"]);

/** A tool output that reports a failure: a command's non-zero exit, an unknown tool, a rejected patch. */
export function looksFailed(preview: string): boolean {
  return /Process exited with code [1-9]|^unsupported (custom tool )?call|^patch rejected|^apply_patch verification failed|^Exit code: [1-9]/.test(preview);
}

function words(name: string): string {
  return name.replace(/_/g, " ");
}

function describeItem(session: SessionReader, i: number, role: string): EntryDescription {
  const preview = session.table.preview(i);
  switch (role) {
    case "user":
      if (preview.startsWith("<turn_aborted>")) return { kind: "injected", label: "Turn interrupted", typeName: "user (turn_aborted)", visibility: "conversation" };
      if (preview.startsWith("<")) return { kind: "injected", label: KIND_LABELS.injected, typeName: "user (context)", visibility: "all" };
      return { kind: "user", label: KIND_LABELS.user, typeName: "message (user)", visibility: "user" };
    case "developer":
    case "system":
      return { kind: "injected", label: "Developer instructions", typeName: `message (${role})`, visibility: "all" };
    case "assistant":
      return { kind: "assistant", label: KIND_LABELS.assistant, typeName: "message (assistant)", visibility: "conversation" };
    case "reasoning":
      return { kind: "assistant", label: "Reasoning", typeName: "reasoning", visibility: "conversation" };
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call":
      return { kind: "tool-call", label: KIND_LABELS["tool-call"], typeName: role, visibility: "conversation" };
    case "function_call_output":
    case "custom_tool_call_output":
      return { kind: "tool-result", label: KIND_LABELS["tool-result"], typeName: role, visibility: "conversation", ...(looksFailed(preview) ? { isError: true } : {}) };
    default:
      if (OTHER_ITEMS.has(role) || COMPACTION_ITEM.test(role)) return { kind: "other", label: words(role), typeName: role, visibility: "conversation" };
      return { kind: "other", label: `Unknown item (${role})`, typeName: role, visibility: "conversation" };
  }
}

function describeEvent(session: SessionReader, i: number, event: string): EntryDescription {
  const preview = session.table.preview(i);
  if (event === "task_complete" && preview.startsWith("turn failed")) return { kind: "system", label: "Turn failed", typeName: "event_msg/task_complete (error)", visibility: "conversation", isError: true };
  if (event === "turn_aborted") return { kind: "info", label: "Turn aborted", typeName: "event_msg/turn_aborted", visibility: "conversation" };
  if (event === "thread_rolled_back") return { kind: "info", label: "Rollback", typeName: "event_msg/thread_rolled_back", visibility: "conversation" };
  return { kind: "info", label: `Event: ${words(event)}`, typeName: `event_msg/${event}`, visibility: "all" };
}

/**
 * Neutral kind and label of line i, from the index alone (type, role, preview): history
 * items as conversation rows; event_msg lines as events (never messages: they repeat the
 * items); bookkeeping lines under the "all" filter; unknown line and item types kept and
 * shown as unknown.
 */
export function describeCodex(session: SessionReader, i: number): EntryDescription {
  const t = session.table;
  const type = t.typeAt(i);
  const role = t.roleAt(i) ?? "";
  switch (type) {
    case "response_item":
      return describeItem(session, i, role);
    case "compacted":
      return { kind: "boundary", label: KIND_LABELS.boundary, typeName: "compacted", visibility: "conversation" };
    case "event_msg":
      return describeEvent(session, i, role);
    case "turn_context":
      return { kind: "setting", label: "Turn context", typeName: type, visibility: "all" };
    case "world_state":
      return { kind: "setting", label: "World state", typeName: type, visibility: "all" };
    case "token_usage_record":
      return { kind: "info", label: "Usage", typeName: type, visibility: "all" };
    default:
      if (KNOWN_LINES.has(type)) return { kind: "info", label: words(type), typeName: type, visibility: "all" };
      return { kind: "other", label: `Unknown line (${type})`, typeName: type, visibility: "conversation" };
  }
}
