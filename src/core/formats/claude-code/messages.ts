import type { PartKind } from "../../session/session-format";
import { blocksOf, type ClaudeLine, isToolResultLine, str } from "./lines";
import { SYNTHETIC_MODEL } from "./index-hooks";
import { pushAll } from "../../util/push-all";

/** A message of the API request, Anthropic's shape, with the chain line it starts at. */
export interface ClaudeContextMessage {
  entryId: string;
  kind: PartKind;
  message: { role: "user" | "assistant"; content: string | Array<Record<string, unknown>> };
}

/** Texts Claude Code puts where its pairing repair changes a message (section 11). */
export const MISSING_RESULT = "[Tool result missing due to internal error]";
export const ORPHAN_REMOVED = "[Orphaned tool result removed due to conversation resume]";
export const TOOL_USE_INTERRUPTED = "[Tool use interrupted]";

function isApiError(l: ClaudeLine): boolean {
  return l.isApiErrorMessage === true || l.message?.model === SYNTHETIC_MODEL;
}

function userKind(l: ClaudeLine): PartKind {
  if (l.isCompactSummary === true) return "summary";
  return isToolResultLine(l) ? "toolResult" : "user";
}

/**
 * Section 5 and 11, first half: user lines as they are (an empty content array is no
 * message); assistant fragments appended to the message their response (message.id)
 * already has, even across the tool results written between them, until a user line that
 * is not a tool result; API-error turns, system, attachment and progress lines dropped.
 */
function collect(lines: ReadonlyArray<ClaudeLine>): ClaudeContextMessage[] {
  const out: ClaudeContextMessage[] = [];
  const openResponses = new Map<string, ClaudeContextMessage>();
  for (const l of lines) {
    const id = str(l.uuid) ?? "";
    if (l.type === "user") {
      const content = l.message?.content;
      if (Array.isArray(content) && content.length === 0) continue;
      if (typeof content !== "string" && !Array.isArray(content)) continue;
      if (!isToolResultLine(l)) openResponses.clear();
      out.push({ entryId: id, kind: userKind(l), message: { role: "user", content: typeof content === "string" ? content : blocksOf(content) } });
    } else if (l.type === "assistant") {
      if (isApiError(l)) continue;
      const blocks = blocksOf(l.message?.content);
      const r = str(l.message?.id);
      const open = r ? openResponses.get(r) : undefined;
      if (open) {
        pushAll(open.message.content as Array<Record<string, unknown>>, blocks);
        continue;
      }
      const m: ClaudeContextMessage = { entryId: id, kind: "assistant", message: { role: "assistant", content: [...blocks] } };
      out.push(m);
      if (r) openResponses.set(r, m);
    }
  }
  return out;
}

/** Consecutive user messages become one (content as blocks); it keeps the first one's line and kind. */
function mergeUsers(messages: ClaudeContextMessage[]): ClaudeContextMessage[] {
  const out: ClaudeContextMessage[] = [];
  for (const m of messages) {
    const prev = out[out.length - 1];
    if (prev && prev.message.role === "user" && m.message.role === "user") {
      prev.message.content = [...blocksOf(prev.message.content), ...blocksOf(m.message.content)];
      if (prev.kind === "toolResult" && m.kind !== "toolResult") prev.kind = m.kind === "summary" ? "summary" : "user";
    } else out.push({ ...m, message: { ...m.message } });
  }
  return out;
}

const toolUseIds = (m: ClaudeContextMessage) => (Array.isArray(m.message.content) ? m.message.content.filter((b) => b.type === "tool_use").map((b) => String(b.id)) : []);
const isResult = (b: Record<string, unknown>) => b.type === "tool_result";

/**
 * Section 11's pairing repair: a tool_use called before is dropped (an assistant message
 * left empty says the tool use was interrupted); a leading tool_result with no call is
 * removed (a first message left empty says so); a tool_use with no result gets a
 * synthetic error result, in the user message that follows or a new one.
 */
function repairPairing(messages: ClaudeContextMessage[]): ClaudeContextMessage[] {
  const out = messages;
  const called = new Set<string>();
  for (const m of out) {
    if (m.message.role !== "assistant" || !Array.isArray(m.message.content)) continue;
    const kept = m.message.content.filter((b) => b.type !== "tool_use" || !called.has(String(b.id)));
    if (kept.length !== m.message.content.length) m.message.content = kept.length ? kept : [{ type: "text", text: TOOL_USE_INTERRUPTED }];
    for (const id of toolUseIds(m)) called.add(id);
  }
  const first = out[0];
  if (first && first.message.role === "user" && Array.isArray(first.message.content) && first.message.content.some(isResult)) {
    const kept = first.message.content.filter((b) => !isResult(b));
    first.message.content = kept.length ? kept : ORPHAN_REMOVED;
  }
  for (let k = 0; k < out.length; k++) {
    const m = out[k];
    if (m.message.role !== "assistant") continue;
    const next = out[k + 1];
    const answered = new Set<string>();
    if (next && next.message.role === "user" && Array.isArray(next.message.content)) for (const b of next.message.content) if (isResult(b)) answered.add(String(b.tool_use_id));
    const missing = toolUseIds(m).filter((id) => !answered.has(id));
    if (!missing.length) continue;
    const synthetic = missing.map((id) => ({ type: "tool_result", tool_use_id: id, content: MISSING_RESULT, is_error: true }));
    if (next && next.message.role === "user") next.message.content = [...blocksOf(next.message.content), ...synthetic];
    else out.splice(k + 1, 0, { entryId: m.entryId, kind: "toolResult", message: { role: "user", content: synthetic } });
  }
  return out;
}

/** The transcript part of the API messages for a chain (system prompt, tools and CLAUDE.md are not in the file). */
export function chainMessages(lines: ReadonlyArray<ClaudeLine>): ClaudeContextMessage[] {
  return repairPairing(mergeUsers(collect(lines)));
}
