import type { ContextMessage } from "../../session/session-format";
import { type Json, isCompactionType, isObject } from "./records";

/**
 * What OpenCode 1.18 sends for its stored messages when a session is continued
 * (docs/opencode-format.md section 4): `filterCompacted`, then `toModelMessages`, then the
 * OpenAI-compatible chat-completions wire shape of `@ai-sdk/openai-compatible` (the shape
 * a fake server receives: the system message and the new prompt left out).
 */

/** One stored message with the parts a leaf reaches, and the entry id each part's row has. */
export interface CtxMessage {
  id: string;
  data: Json;
  parts: Array<{ id: string; data: Json }>;
}

const COMPACTION_PROMPT = "What did we do so far?";
const SUBTASK_PROMPT = "The following tool was executed by the user";
export const CLEARED_OUTPUT = "[Old tool result content cleared]";
const INTERRUPTED = "[Tool execution was interrupted]";

const role = (m: CtxMessage): string => (typeof m.data.role === "string" ? m.data.role : "");
const hasCompaction = (m: CtxMessage) => m.parts.some((p) => isCompactionType(p.data.type));

/**
 * `MessageV2.filterCompacted`: newest to oldest, keeping each message, until the user
 * message whose compaction a finished summary answered (and, with `tail_start_id`, on to
 * that kept message, reordered as [request, summary, kept tail, the rest]).
 */
export function filterCompacted(messages: readonly CtxMessage[]): CtxMessage[] {
  const kept: CtxMessage[] = [];
  const summarized = new Set<string>();
  let tailStart: string | undefined;
  let request: CtxMessage | undefined;
  for (let k = messages.length - 1; k >= 0; k--) {
    const m = messages[k];
    kept.push(m);
    if (tailStart !== undefined) {
      if (m.id === tailStart) break;
      continue;
    }
    if (role(m) === "user" && summarized.has(m.id) && hasCompaction(m)) {
      const part = m.parts.find((p) => isCompactionType(p.data.type));
      request = m;
      if (typeof part?.data.tail_start_id === "string") {
        tailStart = part.data.tail_start_id;
        continue;
      }
      break;
    }
    const d = m.data;
    if (role(m) === "assistant" && d.summary === true && d.finish && !d.error && typeof d.parentID === "string") summarized.add(d.parentID);
  }
  kept.reverse();
  if (tailStart === undefined || !request) return kept;
  const at = kept.indexOf(request);
  const summary = kept.find((m) => role(m) === "assistant" && m.data.summary === true && m.data.parentID === request?.id);
  const tail = kept.slice(0, at);
  const rest = kept.slice(at + 1).filter((m) => m !== summary);
  return [request, ...(summary ? [summary] : []), ...tail, ...rest];
}

/** A wire message with the entry it came from and what the bars count it as. */
type Out = ContextMessage;

function userMessage(m: CtxMessage): Out | undefined {
  const content: Json[] = [];
  for (const p of m.parts) {
    const d = p.data;
    if (d.type === "text" && !d.ignored && typeof d.text === "string" && d.text !== "") content.push({ type: "text", text: d.text });
    else if (isCompactionType(d.type)) content.push({ type: "text", text: COMPACTION_PROMPT });
    else if (d.type === "subtask") content.push({ type: "text", text: SUBTASK_PROMPT });
    else if (d.type === "file" && typeof d.mime === "string" && d.mime !== "text/plain" && d.mime !== "application/x-directory") {
      content.push(d.mime.startsWith("image/") ? { type: "image_url", image_url: { url: String(d.url ?? "") } } : { type: "file", file: { filename: d.filename, file_data: d.url } });
    }
  }
  if (!content.length) return undefined;
  const message = content.length === 1 && content[0].type === "text" ? { role: "user", content: content[0].text } : { role: "user", content };
  return { entryId: m.parts[0]?.id ?? m.id, kind: hasCompaction(m) ? "summary" : "user", message };
}

/** Whether an assistant message is sent: not when it failed, unless aborted after real work. */
function assistantSent(m: CtxMessage): boolean {
  const err = m.data.error;
  if (!err) return true;
  const aborted = isObject(err) && err.name === "MessageAbortedError";
  return aborted && m.parts.some((p) => p.data.type !== "step-start" && p.data.type !== "reasoning");
}

function toolOutput(state: Json): string {
  const status = state.status;
  if (status === "completed") {
    if (isObject(state.time) && state.time.compacted) return CLEARED_OUTPUT;
    return typeof state.output === "string" ? state.output : JSON.stringify(state.output ?? "");
  }
  if (status === "error") return typeof state.error === "string" ? state.error : JSON.stringify(state.error ?? "");
  return INTERRUPTED;
}

/** One assistant message as wire messages: per step (split at step-start), the assistant turn then its tool results. */
function assistantMessages(m: CtxMessage, current: { providerID?: unknown; modelID?: unknown } | undefined): Out[] {
  const sameModel = !current || (current.providerID === m.data.providerID && current.modelID === m.data.modelID);
  const out: Out[] = [];
  let block: Array<{ id: string; data: Json }> = [];
  const flush = () => {
    const parts = block;
    block = [];
    let text = "";
    let reasoning = "";
    const calls: Json[] = [];
    const results: Out[] = [];
    for (const p of parts) {
      const d = p.data;
      if (d.type === "text" && typeof d.text === "string") text += d.text;
      else if (d.type === "reasoning" && typeof d.text === "string") {
        if (sameModel) reasoning += d.text;
        else text += d.text;
      } else if (d.type === "tool" && isObject(d.state)) {
        const callId = String(d.callID ?? p.id);
        calls.push({ id: callId, type: "function", function: { name: String(d.tool ?? ""), arguments: JSON.stringify(d.state.input ?? {}) } });
        results.push({ entryId: `${p.id}:result`, kind: "toolResult", message: { role: "tool", tool_call_id: callId, content: toolOutput(d.state) } });
      }
    }
    if (!text && !reasoning && !calls.length) return;
    const first = parts.find((p) => ["text", "reasoning", "tool"].includes(String(p.data.type)));
    const kind = m.data.summary === true ? "summary" : calls.length && !text ? "toolCall" : "assistant";
    out.push({ entryId: first?.id ?? m.id, kind, message: { role: "assistant", content: text, ...(reasoning ? { reasoning_content: reasoning } : {}), ...(calls.length ? { tool_calls: calls } : {}) } });
    out.push(...results);
  };
  for (const p of m.parts) {
    if (p.data.type === "step-start" && block.length) flush();
    block.push(p);
  }
  flush();
  return out;
}

/** The wire messages for the stored messages a leaf reaches (revert already applied by the caller). */
export function toWireMessages(messages: readonly CtxMessage[]): Out[] {
  const visible = filterCompacted(messages);
  const lastUser = [...visible].reverse().find((m) => role(m) === "user");
  const current = lastUser && isObject(lastUser.data.model) ? lastUser.data.model : undefined;
  const out: Out[] = [];
  for (const m of visible) {
    if (role(m) === "user") {
      const u = userMessage(m);
      if (u) out.push(u);
    } else if (role(m) === "assistant" && assistantSent(m)) out.push(...assistantMessages(m, current));
  }
  return out;
}
