import type { DetailBlock, EntryDetails } from "../protocol";
import type { SessionEntry } from "../core/model/entries";
import type { EntryMeta } from "../core/store/entry-meta";

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

function contentBlocks(content: unknown, kind: DetailBlock["kind"], full: number | undefined, start: number): DetailBlock[] {
  const blocks = typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content : [];
  return (blocks as Array<Record<string, unknown>>).map((b, k) =>
    b?.type === "image" ? imageBlock(b.data, b.mimeType) : { kind, ...cut(String(b?.text ?? JSON.stringify(b)), full === start + k) },
  );
}

function fmtUsage(u: Record<string, unknown>): string {
  const n = (k: string) => Number(u[k] ?? 0).toLocaleString("en-US");
  return `input ${n("input")}, output ${n("output")}, cache read ${n("cacheRead")}, cache write ${n("cacheWrite")}`;
}

/**
 * What the detail pane shows for one entry: its blocks (long text cut unless `fullBlock`
 * names it), metadata pairs, and for compactions the summary and file lists.
 */
export function entryDetails(entry: SessionEntry, meta: EntryMeta, label: string | undefined, fullBlock?: number): EntryDetails {
  const e = entry as Record<string, unknown>;
  const out: EntryDetails = { id: meta.id, type: meta.type, role: meta.role, timestamp: String(e.timestamp ?? ""), line: meta.line, label, meta: [], blocks: [] };
  const pair = (k: string, v: unknown) => {
    if (v !== undefined && v !== null && v !== "") out.meta.push([k, String(v)]);
  };
  pair("line", meta.line);
  pair("time", e.timestamp);
  pair("parent", e.parentId);
  if (meta.type === "message") {
    const m = (e.message ?? {}) as Record<string, unknown>;
    pair("role", meta.role);
    switch (meta.role) {
      case "assistant": {
        pair("model", [m.provider, m.model].filter(Boolean).join("/"));
        pair("stop reason", m.stopReason);
        pair("error", m.errorMessage);
        if (m.usage && typeof m.usage === "object") pair("usage", fmtUsage(m.usage as Record<string, unknown>));
        const blocks = Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [];
        blocks.forEach((b, k) => {
          if (b?.type === "thinking") out.blocks.push({ kind: "thinking", ...cut(String(b.thinking ?? ""), fullBlock === k) });
          else if (b?.type === "toolCall") out.blocks.push({ kind: "toolCall", title: `${String(b.name)} (${String(b.id)})`, ...cut(JSON.stringify(b.arguments ?? {}, null, 2), fullBlock === k) });
          else out.blocks.push({ kind: "text", ...cut(String(b?.text ?? ""), fullBlock === k) });
        });
        break;
      }
      case "toolResult":
        pair("tool", m.toolName);
        pair("call id", m.toolCallId);
        out.blocks = contentBlocks(m.content, "toolResult", fullBlock, 0).map((b) => ({ ...b, isError: !!m.isError }));
        break;
      case "bashExecution":
        pair("exit code", m.exitCode);
        pair("sent to the model", m.excludeFromContext ? "no (!! command)" : "yes");
        out.blocks = [{ kind: "bash", title: `$ ${String(m.command ?? "")}`, ...cut(String(m.output ?? ""), fullBlock === 0) }];
        break;
      default:
        out.blocks = contentBlocks(m.content, "text", fullBlock, 0);
    }
  } else if (meta.type === "compaction" || meta.type === "branch_summary") {
    const d = (e.details ?? {}) as { readFiles?: unknown; modifiedFiles?: unknown };
    const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
    pair("tokens before", e.tokensBefore);
    pair("first kept entry", e.firstKeptEntryId);
    pair("from", e.fromId);
    out.blocks = [{ kind: "summary", ...cut(String(e.summary ?? ""), fullBlock === 0) }];
    if (meta.type === "compaction") {
      out.compaction = { summary: String(e.summary ?? ""), readFiles: list(d.readFiles), modifiedFiles: list(d.modifiedFiles), tokensBefore: Number(e.tokensBefore ?? 0), firstKeptEntryId: typeof e.firstKeptEntryId === "string" ? e.firstKeptEntryId : undefined };
    }
  } else if (meta.type === "custom_message") {
    pair("custom type", e.customType);
    out.blocks = contentBlocks(e.content, "text", fullBlock, 0);
  } else {
    const { id: _i, parentId: _p, timestamp: _t, type: _ty, ...rest } = e;
    out.blocks = [{ kind: "json", ...cut(JSON.stringify(rest, null, 2), fullBlock === 0) }];
  }
  return out;
}
