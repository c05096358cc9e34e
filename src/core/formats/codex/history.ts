import type { ContextMessage, PartKind } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { asObj, type CodexLine, COMPACTION_ITEM, contentText, isGeneratedUserText, payloadOf, sentItem } from "./lines";

/** What a history item counts as in the token bars. */
export function itemKind(item: unknown): PartKind {
  const p = asObj(item) ?? {};
  switch (p.type) {
    case "message":
      if (p.role === "assistant") return "assistant";
      // Developer instructions and Codex's own context messages (<environment_context>,
      // <turn_aborted>) are injected text, not the system prompt (that is sent apart).
      if (p.role !== "user" || isGeneratedUserText(contentText(p.content))) return "custom";
      return "user";
    case "reasoning":
      return "thinking";
    case "function_call":
    case "custom_tool_call":
    case "local_shell_call":
    case "web_search_call":
      return "toolCall";
    case "function_call_output":
    case "custom_tool_call_output":
      return "toolResult";
    default:
      return COMPACTION_ITEM.test(String(p.type)) ? "summary" : "custom";
  }
}

/**
 * The history Codex rebuilds when it resumes, over the entries of a path in order
 * (docs/codex-format.md section 5): each `response_item` appends its payload minus the
 * passthrough key; a `compacted` line with a `replacement_history` replaces everything so
 * far by it; every other line (event_msg, turn_context, world_state, token_usage_record)
 * adds nothing, event_msg never (it duplicates the items). A rollback is already in the
 * path: the turns it dropped hang on a branch of their own (index-hooks.ts).
 * `base` is what a fork inherits from its parent, before its own lines.
 */
export function rebuildHistory(session: SessionReader, positions: readonly number[], base: readonly ContextMessage[] = []): ContextMessage[] {
  let history: ContextMessage[] = [...base];
  const t = session.table;
  for (const i of positions) {
    const type = t.typeAt(i);
    if (type !== "response_item" && type !== "compacted") continue;
    const l = session.entryAt(i) as CodexLine;
    const entryId = t.idAt(i);
    if (type === "response_item") {
      const item = sentItem(l.payload);
      history.push({ entryId, kind: itemKind(item), message: item });
      continue;
    }
    const replacement = payloadOf(l).replacement_history;
    if (Array.isArray(replacement)) history = replacement.map((r) => ({ entryId, kind: itemKind(r), message: sentItem(r) }));
  }
  return history;
}
