import { CLEARED_OUTPUT } from "./model-messages";
import { COMPACTION_ROW, isCompactionType, type Json, type OcEntry, isObject } from "./records";

/** Plain text of an entry, for rows, search and estimates. */
export function entryText(e: OcEntry): string {
  const p = e.part;
  if (!p) return e.message.error ? `error: ${JSON.stringify(e.message.error)}` : "";
  const state = isObject(p.state) ? p.state : {};
  switch (isCompactionType(e.type) ? COMPACTION_ROW : e.type) {
    case "text":
    case "reasoning":
      return typeof p.text === "string" ? p.text : "";
    case "tool":
      return `${String(p.tool ?? "tool")} ${JSON.stringify(state.input ?? {})}`;
    case "tool-result":
      return resultText(state);
    case "step-finish":
      return `step finished (${String(p.reason ?? "")})`;
    case "patch":
      return Array.isArray(p.files) ? p.files.map(String).join(", ") : "";
    case COMPACTION_ROW:
      return `compaction requested${p.auto ? " (auto)" : ""}${p.overflow ? " (overflow)" : ""}`;
    case "file":
      return String(p.filename ?? p.url ?? "");
    case "subtask":
      return String(p.prompt ?? p.description ?? "");
    default:
      return "";
  }
}

export function resultText(state: Json): string {
  if (state.status === "completed") return isObject(state.time) && state.time.compacted ? CLEARED_OUTPUT : typeof state.output === "string" ? state.output : JSON.stringify(state.output ?? "");
  if (state.status === "error") return String(state.error ?? "");
  return `(${String(state.status)}: interrupted)`;
}
