import type { EntryMeta } from "../../store/entry-meta";
import { addPair, contentBlocks, type EntryView, jsonView } from "../../session/entry-view";

function fmtUsage(u: Record<string, unknown>): string {
  const n = (k: string) => Number(u[k] ?? 0).toLocaleString("en-US");
  return `input ${n("input")}, output ${n("output")}, cache read ${n("cacheRead")}, cache write ${n("cacheWrite")}`;
}

function messageView(view: EntryView, meta: EntryMeta, m: Record<string, unknown>): void {
  addPair(view, "role", meta.role);
  switch (meta.role) {
    case "assistant": {
      addPair(view, "model", [m.provider, m.model].filter(Boolean).join("/"));
      addPair(view, "stop reason", m.stopReason);
      addPair(view, "error", m.errorMessage);
      if (m.usage && typeof m.usage === "object") addPair(view, "usage", fmtUsage(m.usage as Record<string, unknown>));
      const blocks = Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [];
      for (const b of blocks) {
        if (b?.type === "thinking") view.blocks.push({ kind: "thinking", text: String(b.thinking ?? "") });
        else if (b?.type === "toolCall") view.blocks.push({ kind: "toolCall", title: `${String(b.name)} (${String(b.id)})`, text: JSON.stringify(b.arguments ?? {}, null, 2), call: { name: b.name, input: b.arguments, id: b.id } });
        else view.blocks.push({ kind: "text", text: String(b?.text ?? "") });
      }
      break;
    }
    case "toolResult":
      addPair(view, "tool", m.toolName);
      addPair(view, "call id", m.toolCallId);
      view.blocks = contentBlocks(m.content, "toolResult").map((b) => ({ ...b, isError: !!m.isError, ...(typeof m.toolCallId === "string" ? { answers: m.toolCallId } : {}) }));
      break;
    case "bashExecution":
      addPair(view, "exit code", m.exitCode);
      addPair(view, "sent to the model", m.excludeFromContext ? "no (!! command)" : "yes");
      view.blocks = [{ kind: "bash", title: `$ ${String(m.command ?? "")}`, text: String(m.output ?? "") }];
      break;
    default:
      view.blocks = contentBlocks(m.content, "text");
  }
}

const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** A pi entry for the detail pane: its blocks, metadata, and for compactions the summary and file lists. */
export function piEntryView(e: Record<string, unknown>, meta: EntryMeta): EntryView {
  const view: EntryView = { meta: [], blocks: [] };
  addPair(view, "line", meta.line);
  addPair(view, "time", e.timestamp);
  addPair(view, "parent", e.parentId);
  if (meta.type === "message") {
    messageView(view, meta, (e.message ?? {}) as Record<string, unknown>);
  } else if (meta.type === "compaction" || meta.type === "branch_summary") {
    const d = (e.details ?? {}) as { readFiles?: unknown; modifiedFiles?: unknown };
    addPair(view, "tokens before", e.tokensBefore);
    addPair(view, "first kept entry", e.firstKeptEntryId);
    addPair(view, "from", e.fromId);
    view.blocks = [{ kind: "summary", text: String(e.summary ?? "") }];
    if (meta.type === "compaction") {
      view.compaction = { summary: String(e.summary ?? ""), readFiles: list(d.readFiles), modifiedFiles: list(d.modifiedFiles), tokensBefore: Number(e.tokensBefore ?? 0), firstKeptEntryId: typeof e.firstKeptEntryId === "string" ? e.firstKeptEntryId : undefined };
    }
  } else if (meta.type === "custom_message") {
    addPair(view, "custom type", e.customType);
    view.blocks = contentBlocks(e.content, "text");
  } else {
    view.blocks = jsonView(e, ["id", "parentId", "timestamp", "type"]).blocks;
  }
  return view;
}

/** An assistant message's calls as piEntryView's call blocks name them; undefined for any other entry (its view says). */
export function piToolCalls(e: Record<string, unknown>, meta: EntryMeta): Array<{ name: unknown; input: unknown }> | undefined {
  if (meta.type !== "message" || meta.role !== "assistant") return undefined;
  const m = (e.message ?? {}) as Record<string, unknown>;
  const blocks = Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [];
  const out: Array<{ name: unknown; input: unknown }> = [];
  for (const b of blocks) if (b?.type === "toolCall") out.push({ name: b.name, input: b.arguments });
  return out;
}
