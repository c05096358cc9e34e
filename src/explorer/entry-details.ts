import { formatOf } from "../core/formats/registry";
import { type EntryBlock, jsonView } from "../core/formats/entry-view";
import type { SessionReader } from "../core/formats/session-reader";
import type { DetailBlock, EntryDetails } from "../protocol";

/** Text longer than this is cut for display; the webview can ask for the whole block. */
export const DISPLAY_LIMIT = 4000;

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function cut(text: string, full: boolean): Pick<DetailBlock, "text" | "fullLength"> {
  if (full || text.length <= DISPLAY_LIMIT) return { text };
  return { text: text.slice(0, DISPLAY_LIMIT), fullLength: text.length };
}

/** A data: URI only for a known image type with valid base64; anything else is shown as text. */
function imageBlock(data: unknown, mimeType: unknown): DetailBlock {
  const mime = String(mimeType ?? "");
  const b64 = typeof data === "string" ? data : "";
  if (IMAGE_MIME.test(mime) && b64.length > 0 && b64.length < 20_000_000 && BASE64.test(b64.slice(0, 4096)) && BASE64.test(b64.slice(-4096))) {
    return { kind: "image", mimeType: mime, dataUri: `data:${mime};base64,${b64}` };
  }
  return { kind: "image", mimeType: mime, text: `(image of type "${mime}" not shown: not a known image type or not base64)` };
}

function displayBlock(b: EntryBlock, full: boolean): DetailBlock {
  if (b.kind === "image" && b.image) return imageBlock(b.image.data, b.image.mimeType);
  const out: DetailBlock = { kind: b.kind, ...cut(b.text ?? "", full) };
  if (b.title !== undefined) out.title = b.title;
  if (b.isError) out.isError = true;
  return out;
}

/**
 * What the detail pane shows for entry i of any format: the format's view of it (its
 * record as JSON when the format has none), long text cut unless `fullBlock` names it.
 */
export function entryDetails(session: SessionReader, i: number, fullBlock?: number): EntryDetails {
  const format = formatOf(session);
  const meta = session.metas[i];
  const record = session.entryAt(i);
  const d = format.describe(session, i);
  const view = format.details ? format.details(session, i) : jsonView(record, []);
  const out: EntryDetails = {
    id: meta.id,
    kind: d.kind,
    typeLabel: d.label,
    timestamp: typeof record.timestamp === "string" || typeof record.timestamp === "number" ? String(record.timestamp) : "",
    line: meta.line,
    label: session.tree.labels.get(meta.id),
    meta: view.meta,
    // A format may know an entry failed without its blocks saying so (seed-000's "Error:" results).
    blocks: view.blocks.map((b, k) => displayBlock(d.isError && b.kind === "toolResult" ? { ...b, isError: true } : b, fullBlock === k)),
  };
  if (view.compaction) out.compaction = view.compaction;
  if (view.subagents) out.subagents = view.subagents.map(({ path, ...rest }) => ({ ...rest, found: path !== undefined || rest.inlineEntryId !== undefined }));
  return out;
}
