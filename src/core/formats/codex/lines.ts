/** Shapes of Codex CLI rollout lines (docs/codex-format.md sections 2-4), read defensively: every line is untrusted. */

/** One rollout line: `{timestamp, ordinal?, type, payload, metadata?}`. */
export interface CodexLine {
  timestamp?: unknown;
  ordinal?: unknown;
  type?: unknown;
  payload?: unknown;
  metadata?: unknown;
}

/** The Responses-API item type of a message (Codex's, not pi's entry type of the same name). */
export const MESSAGE_ITEM = "message";

/** Codex's compaction item types (`compaction`, `context_compaction`): a summary item sent back as is. */
export const COMPACTION_ITEM = /^(context_)?compaction$/;

/** The key Codex keeps beside every history item and never sends to the model (section 4). */
export const PASSTHROUGH_KEY = "internal_chat_message_metadata_passthrough";

export function asObj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" && v ? v : undefined;
}

/** The payload of a line as an object (empty when it is none). */
export function payloadOf(l: CodexLine): Record<string, unknown> {
  return asObj(l.payload) ?? {};
}

/** The payload's own `type` (item type of a response_item, event type of an event_msg). */
export function payloadType(l: CodexLine): string | undefined {
  return str(payloadOf(l).type);
}

/** Text of a message's content items (input_text / output_text / anything with a text). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((c) => asObj(c))
    .filter((c): c is Record<string, unknown> => !!c && typeof c.text === "string")
    .map((c) => c.text as string)
    .join("\n");
}

/** The texts contentText joins, read in place (no array built): each is handed to `each` in order until it returns false. */
function eachText(content: unknown, each: (text: string) => boolean): void {
  if (typeof content === "string") {
    each(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const item of content) {
    const c = asObj(item);
    if (c && typeof c.text === "string" && !each(c.text)) return;
  }
}

/** contentText(content).length, without joining the texts (the index's estimate of a message needs only its size). */
export function contentTextLength(content: unknown): number {
  let length = -1;
  eachText(content, (t) => {
    length += t.length + 1;
    return true;
  });
  return Math.max(length, 0);
}

/** contentText(content).slice(0, max), joining no more of the texts than that (a row's preview reads only a head). */
export function contentTextHead(content: unknown, max: number): string {
  let head = "";
  let first = true;
  eachText(content, (t) => {
    head = first ? t.slice(0, max) : `${head}\n${t.slice(0, max - head.length - 1)}`;
    first = false;
    return head.length < max;
  });
  return head;
}

/**
 * Whether a user message is one Codex wrote itself (environment context, a turn-aborted
 * note, instructions): those open with a tag (section 4), a prompt typed by a person does not.
 */
export function isGeneratedUserText(text: string): boolean {
  return /^\s*<[a-z_]+[\s>]/i.test(text);
}

/** A real prompt: a `response_item` user message not written by Codex itself. */
export function promptOf(l: CodexLine): string | undefined {
  if (l.type !== "response_item") return undefined;
  const p = payloadOf(l);
  if (p.type !== MESSAGE_ITEM || p.role !== "user") return undefined;
  const text = contentText(p.content);
  return text && !isGeneratedUserText(text) ? text : undefined;
}

/** A history item as Codex sends it: the payload without the passthrough key, key order kept. */
export function sentItem(item: unknown): unknown {
  const o = asObj(item);
  if (!o || !(PASSTHROUGH_KEY in o)) return item;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (k !== PASSTHROUGH_KEY) out[k] = v;
  return out;
}

/** The session id of a rollout file name (`rollout-<time>-<uuid>.jsonl[.zst]`), if it has one. */
export function idFromFileName(name: string): string | undefined {
  return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl(?:\.zst)?$/i.exec(name)?.[1];
}

/** Whether a file name is a Codex rollout (plain or zstd-compressed). */
export function isRolloutName(name: string): boolean {
  return /^rollout-.*\.jsonl(?:\.zst)?$/.test(name);
}
