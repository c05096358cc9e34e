/** What one block of an entry shows (uncut; the explorer cuts long text for display). */
export interface EntryBlock {
  kind: "text" | "thinking" | "toolCall" | "toolResult" | "image" | "summary" | "bash" | "json";
  title?: string;
  text?: string;
  isError?: boolean;
  /** image blocks: base64 data and its type, checked by the explorer before it is shown. */
  image?: { data: unknown; mimeType: unknown };
  /** toolCall blocks: the call's tool, input and id (the explorer titles the block with what it does, an edit as a diff). */
  call?: { name: unknown; input: unknown; id?: unknown };
  /** toolResult blocks: the id of the call they answer (the explorer titles them with that call). */
  answers?: string;
}

/** What a compaction did, as its entry records it (or, where it does not, as the session shows it). */
export interface CompactionFacts {
  summary: string;
  readFiles: string[];
  modifiedFiles: string[];
  tokensBefore: number;
  /** Context size right after it, where the agent recorded one. */
  tokensAfter?: number;
  /** "manual" or "auto", where the agent recorded it. */
  trigger?: string;
  /** How many messages it summarized, where that is known. */
  summarizedEntries?: number;
  /** The entry it names as its logical parent, when that is not in the file. */
  missingParent?: string;
  firstKeptEntryId?: string;
  /**
   * The last message it kept verbatim after its summary (Claude Code's preserved messages):
   * where the compacted conversation goes on from, so the first leaf whose context shows
   * everything the compaction left.
   */
  lastKeptEntryId?: string;
}

/** A sub-agent an entry started or reported on, and its own transcript when that file was found. */
export interface SubagentRef {
  /** Its agentId; for a sub-agent written inline (1.0.x sidechain lines), the uuid of its first line. */
  agentId: string;
  /** Written inline in this very file: the first of its lines (no transcript of its own). */
  inlineEntryId?: string;
  description?: string;
  agentType?: string;
  path?: string;
}

/** One entry as a format shows it: metadata pairs, blocks, for a compaction what it did, for a sub-agent call the sub-agent. */
export interface EntryView {
  meta: Array<[string, string]>;
  blocks: EntryBlock[];
  compaction?: CompactionFacts;
  /** The sub-agents its tool calls started (or its tool result reported on). */
  subagents?: SubagentRef[];
}

/** Adds a metadata pair when the value says something. */
export function addPair(view: EntryView, key: string, value: unknown): void {
  if (value !== undefined && value !== null && value !== "") view.meta.push([key, String(value)]);
}

/** Blocks of a content value: a string, or an array of {type: text|image|...} blocks. */
export function contentBlocks(content: unknown, kind: EntryBlock["kind"]): EntryBlock[] {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  return (blocks as Array<Record<string, unknown>>).map((b) => (b?.type === "image" ? { kind: "image", image: { data: b.data ?? (b.source as Record<string, unknown> | undefined)?.data, mimeType: b.mimeType ?? (b.source as Record<string, unknown> | undefined)?.media_type } } : { kind, text: String(b?.text ?? JSON.stringify(b)) }));
}

/** Any record as one JSON block, its tree fields left out: what a format without its own view shows. */
export function jsonView(record: Record<string, unknown>, omit: readonly string[]): EntryView {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (!omit.includes(k)) rest[k] = v;
  return { meta: [], blocks: [{ kind: "json", text: JSON.stringify(rest, null, 2) }] };
}

/** The blocks of a message in the Anthropic API's shape (text, thinking, tool_use, tool_result, image). */
export function anthropicBlocks(content: unknown): EntryBlock[] {
  if (typeof content === "string") return [{ kind: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return (content as Array<Record<string, unknown>>).map((b): EntryBlock => {
    switch (b?.type) {
      case "text":
        return { kind: "text", text: String(b.text ?? "") };
      case "thinking":
        return { kind: "thinking", text: String(b.thinking ?? "") };
      case "tool_use":
        return { kind: "toolCall", title: `${String(b.name ?? "?")} (${String(b.id ?? "")})`, text: JSON.stringify(b.input ?? {}, null, 2), call: { name: b.name, input: b.input, id: b.id } };
      case "tool_result": {
        const body = typeof b.content === "string" ? b.content : Array.isArray(b.content) ? (b.content as Array<Record<string, unknown>>).map((c) => (typeof c?.text === "string" ? c.text : JSON.stringify(c))).join("\n") : JSON.stringify(b.content ?? "");
        return { kind: "toolResult", title: `result of ${String(b.tool_use_id ?? "?")}`, text: body, ...(typeof b.tool_use_id === "string" ? { answers: b.tool_use_id } : {}), ...(b.is_error ? { isError: true } : {}) };
      }
      case "image": {
        const src = (b.source ?? {}) as Record<string, unknown>;
        return { kind: "image", image: { data: src.data ?? b.data, mimeType: src.media_type ?? b.mimeType } };
      }
      default:
        return { kind: "json", text: JSON.stringify(b, null, 2) };
    }
  });
}

/**
 * An entry that stands for one Anthropic-shaped message: the message's blocks, then the
 * rest of its record (metadata, usage) as pairs where short and as JSON otherwise.
 */
export function messageEntryView(record: Record<string, unknown>, message: { role?: unknown; content?: unknown } | undefined, meta: Array<[string, unknown]>): EntryView {
  const view: EntryView = { meta: [], blocks: message ? anthropicBlocks(message.content) : [] };
  for (const [k, v] of meta) addPair(view, k, v);
  if (!message) view.blocks = jsonView(record, []).blocks;
  return view;
}
