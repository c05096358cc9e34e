// The neutral, redacted picture of a session's entries that the Markdown and JSON
// exports render: what the explorer's detail pane shows (the format's EntryView), every
// string passed through the redactor with the entry it belongs to. Nothing here knows a
// format: it reads the session through SessionReader and its SessionFormat.

import type { EntryKind } from "../session/entry-kinds";
import { type CompactionFacts, type EntryBlock, jsonView } from "../session/entry-view";
import type { SessionReader } from "../session/session-reader";
import { summarizeToolCall } from "../session/tool-summary";
import type { RedactionPlace, Redactor } from "./redactor";
import { redactValue } from "./redact-value";

export interface ExportBlock {
  kind: EntryBlock["kind"];
  title?: string;
  text?: string;
  isError?: boolean;
  /** image blocks: the base64 data ("" when dropped) and its type. */
  image?: { data: string; mimeType: string };
  /** toolCall blocks: the tool and its input. */
  call?: { name: string; input: unknown; id?: string };
  /** toolResult blocks: the id of the call they answer. */
  answers?: string;
}

export interface ExportSubagent {
  agentId: string;
  description?: string;
  agentType?: string;
  /** Its transcript was found (its own file, or lines written inline in this one). */
  found: boolean;
}

export interface ExportEntry {
  id: string;
  parentId: string | null;
  /** 1-based line in the file. */
  line: number;
  kind: EntryKind;
  /** What a person calls it ("User", "Tool result", "Compaction"). */
  typeLabel: string;
  /** The format's own name for it, when that differs. */
  typeName?: string;
  timestamp?: string;
  /** The label the user gave the entry. */
  label?: string;
  isError?: boolean;
  /** Metadata pairs the format shows (model, usage, ...). */
  meta: Array<[string, string]>;
  blocks: ExportBlock[];
  compaction?: CompactionFacts;
  subagents?: ExportSubagent[];
  /** Ids of the entry's children when there are several: a branch point. */
  branches?: string[];
}

/** What each block's text is, for the report's places. */
const FIELD: Record<EntryBlock["kind"], string> = {
  text: "message",
  thinking: "thinking",
  toolCall: "tool input",
  toolResult: "tool output",
  image: "image",
  summary: "summary",
  bash: "tool output",
  json: "message",
};

/** A redactor bound to one entry: `r(text, field)`. */
function bound(redactor: Redactor, entryId: string | undefined): (text: string, field: string) => string {
  return (text, field) => redactor.redact(text, { entryId, field } satisfies RedactionPlace);
}

function exportBlock(b: EntryBlock, r: ReturnType<typeof bound>, redactor: Redactor, entryId: string, cwd: () => string): ExportBlock {
  const field = FIELD[b.kind];
  const out: ExportBlock = { kind: b.kind };
  const input = b.call ? redactValue(b.call.input ?? {}, redactor, { entryId, field }) : undefined;
  // A call is titled with what it does ("Read src/a.ts"), as the explorer titles it, from
  // its redacted input: the title is cut at 300 characters, and a key cut short would
  // no longer match its rule.
  if (b.call) out.title = r(summarizeToolCall(b.call.name, input, cwd(), 300), "title");
  else if (b.title !== undefined) out.title = r(b.title, field);
  if (b.text !== undefined) out.text = r(b.text, field);
  if (b.isError) out.isError = true;
  if (b.image) out.image = { data: typeof b.image.data === "string" ? r(b.image.data, "image") : "", mimeType: r(String(b.image.mimeType ?? ""), "image type") };
  if (b.call) {
    out.call = { name: r(String(b.call.name ?? ""), field), input };
    if (b.call.id !== undefined) out.call.id = r(String(b.call.id), "id");
  }
  if (b.answers !== undefined) out.answers = r(b.answers, "id");
  return out;
}

/** Entry i as the export shows it, every string redacted. */
export function exportEntry(session: SessionReader, i: number, redactor: Redactor): ExportEntry {
  const format = session.format;
  const meta = session.metas[i];
  const rawId = meta.id;
  const r = bound(redactor, rawId);
  const record = session.entryAt(i);
  const d = format.describe(session, i);
  let cwd: string | undefined;
  const cwdOf = () => (cwd ??= format.info(session).cwd);
  const view = format.details ? format.details(session, i) : jsonView(record, []);
  // A compaction's summary is shown with its facts; its summary block would repeat it.
  const summary = view.compaction?.summary.trim();
  const blocks = summary ? view.blocks.filter((b) => !(b.kind === "summary" && (b.text ?? "").trim() === summary)) : view.blocks;
  const out: ExportEntry = {
    id: r(rawId, "id"),
    parentId: meta.parentId === null ? null : r(meta.parentId, "id"),
    line: meta.line,
    kind: d.kind,
    typeLabel: r(d.label, "type"),
    meta: view.meta.map(([k, v]) => [r(k, "meta"), r(v, "meta")]),
    blocks: blocks.map((b) => exportBlock(d.isError && b.kind === "toolResult" ? { ...b, isError: true } : b, r, redactor, rawId, cwdOf)),
  };
  if (d.typeName && d.typeName !== d.label) out.typeName = r(d.typeName, "type");
  if (typeof record.timestamp === "string" || typeof record.timestamp === "number") out.timestamp = r(String(record.timestamp), "timestamp");
  const label = session.tree.labels.get(rawId);
  if (label !== undefined) out.label = r(label, "label");
  if (d.isError) out.isError = true;
  if (view.compaction) out.compaction = redactValue(view.compaction, redactor, { entryId: rawId, field: "summary" }) as CompactionFacts;
  if (view.subagents?.length) {
    out.subagents = view.subagents.map((a) => ({
      agentId: r(a.agentId, "id"),
      ...(a.description !== undefined ? { description: r(a.description, "label") } : {}),
      ...(a.agentType !== undefined ? { agentType: r(a.agentType, "label") } : {}),
      found: a.path !== undefined || a.inlineEntryId !== undefined,
    }));
  }
  const kids = session.tree.children(i);
  if (kids.length > 1) out.branches = [...kids].map((k) => r(session.metas[k].id, "id"));
  return out;
}
