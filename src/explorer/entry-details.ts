import { type EntryBlock, jsonView, type SubagentRef } from "../core/session/entry-view";
import type { SessionReader } from "../core/session/session-reader";
import { summarizeToolCall, toolEdits } from "../core/session/tool-summary";
import type { DetailBlock, EntryDetails, SubagentView } from "../protocol";

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

/** Old or new text of an edit longer than this is cut for the diff (the block's JSON holds it whole). */
export const EDIT_LIMIT = 20_000;

/** A tool call's block: titled with what it does ("Edit src/a.ts (-1 +2)"), an edit's texts for the diff. */
function callBlock(out: DetailBlock, call: NonNullable<EntryBlock["call"]>, cwd: string, full: boolean): void {
  out.title = summarizeToolCall(call.name, call.input, cwd, 300);
  const edits = toolEdits(call.name, call.input, cwd);
  if (!edits) return;
  const limit = full ? Infinity : EDIT_LIMIT;
  out.edits = edits.map((e) => {
    const cutOff = e.oldText.length > limit || e.newText.length > limit;
    return { ...e, oldText: e.oldText.slice(0, limit), newText: e.newText.slice(0, limit), ...(cutOff ? { cut: true } : {}) };
  });
}

/** What titling blocks needs of the session, looked up only when a block asks. */
interface BlockContext {
  cwd(): string;
  /** The call with this id in the entry or the entries just above it. */
  callFor(id: string): EntryBlock["call"];
}

function displayBlock(b: EntryBlock, full: boolean, ctx: BlockContext): DetailBlock {
  if (b.kind === "image" && b.image) return imageBlock(b.image.data, b.image.mimeType);
  const out: DetailBlock = { kind: b.kind, ...cut(b.text ?? "", full) };
  if (b.title !== undefined) out.title = b.title;
  if (b.call) callBlock(out, b.call, ctx.cwd(), full);
  // A result is titled by the call it answers ("Read b.txt"), not by that call's id.
  const call = b.answers !== undefined ? ctx.callFor(b.answers) : undefined;
  if (call) out.title = summarizeToolCall(call.name, call.input, ctx.cwd(), 300);
  if (b.isError) out.isError = true;
  return out;
}

/** How far above a result its call is looked for (results follow their calls within a few lines). */
const CALL_SEARCH_DEPTH = 20;

function blockContext(session: SessionReader, i: number, own: readonly EntryBlock[]): BlockContext {
  const format = session.format;
  let cwd: string | undefined;
  return {
    cwd: () => (cwd ??= format.info(session).cwd),
    callFor(id) {
      let blocks = own;
      for (let p = i, k = 0; k <= CALL_SEARCH_DEPTH; k++) {
        const hit = blocks.find((b) => b.call?.id === id);
        if (hit) return hit.call;
        p = session.tree.parent[p];
        if (p === undefined || p < 0 || !format.details) return undefined;
        blocks = format.details(session, p).blocks;
      }
      return undefined;
    },
  };
}

/** A sub-agent as the webview sees it: whether its transcript (or inline lines) was found, never its path. */
export function subagentView({ path, ...rest }: SubagentRef): SubagentView {
  return { ...rest, found: path !== undefined || rest.inlineEntryId !== undefined };
}

/**
 * What the detail pane shows for entry i of any format: the format's view of it (its
 * record as JSON when the format has none), long text cut unless `fullBlock` names it.
 */
export function entryDetails(session: SessionReader, i: number, fullBlock?: number): EntryDetails {
  const format = session.format;
  const meta = session.metas[i];
  const record = session.entryAt(i);
  const d = format.describe(session, i);
  const view = format.details ? format.details(session, i) : jsonView(record, []);
  // A compaction's summary is shown with its facts (webview compaction box): its summary block would print it again.
  const summary = view.compaction?.summary.trim();
  const blocks = summary ? view.blocks.filter((b) => !(b.kind === "summary" && (b.text ?? "").trim() === summary)) : view.blocks;
  const ctx = blockContext(session, i, blocks);
  const out: EntryDetails = {
    id: meta.id,
    kind: d.kind,
    typeLabel: d.label,
    ...(d.typeName && d.typeName !== d.label ? { typeName: d.typeName } : {}),
    timestamp: typeof record.timestamp === "string" || typeof record.timestamp === "number" ? String(record.timestamp) : "",
    line: meta.line,
    label: session.tree.labels.get(meta.id),
    meta: view.meta,
    // A format may know an entry failed without its blocks saying so (seed-000's "Error:" results).
    blocks: blocks.map((b, k) => displayBlock(d.isError && b.kind === "toolResult" ? { ...b, isError: true } : b, fullBlock === k, ctx)),
  };
  if (view.compaction) out.compaction = view.compaction;
  if (view.subagents) out.subagents = view.subagents.map(subagentView);
  return out;
}
