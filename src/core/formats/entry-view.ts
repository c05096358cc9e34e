/** What one block of an entry shows (uncut; the explorer cuts long text for display). */
export interface EntryBlock {
  kind: "text" | "thinking" | "toolCall" | "toolResult" | "image" | "summary" | "bash" | "json";
  title?: string;
  text?: string;
  isError?: boolean;
  /** image blocks: base64 data and its type, checked by the explorer before it is shown. */
  image?: { data: unknown; mimeType: unknown };
}

/** One entry as a format shows it: metadata pairs, blocks, and for a compaction what it did. */
export interface EntryView {
  meta: Array<[string, string]>;
  blocks: EntryBlock[];
  compaction?: { summary: string; readFiles: string[]; modifiedFiles: string[]; tokensBefore: number; firstKeptEntryId?: string };
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
