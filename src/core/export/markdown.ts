// A session as Markdown to read on GitHub or in an editor: one branch (root..leaf) as a
// transcript, a heading per turn, tool calls and outputs folded in <details>, compactions
// and branch points marked, tokens and cost at the end. Works for every format through
// the neutral session API; every string passes the redactor first (./redactor.ts).

import type { SessionReader } from "../session/session-reader";
import { type BranchFigures, branchFigures } from "./export-figures";
import { type ExportBlock, type ExportEntry, exportEntry } from "./export-entries";
import { exportBranches } from "./export-branches";
import { details, escapeHtml, fenced, inlineCode, oneLine, prose } from "./markdown-text";
import type { Redactor } from "./redactor";
import { type SubagentTranscript, subagentTranscripts } from "./subagent-transcripts";
import type { HeapTrim } from "../util/heap-trim";

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp)$/;

function lines(text: string): string {
  const n = text ? text.replace(/\n$/, "").split("\n").length : 0;
  return n === 1 ? "1 line" : `${n} lines`;
}

/** Tool calls seen so far by id, to title a result with the call it answers ("Read a.ts"), as the explorer does. */
type CallTitles = Map<string, string>;

function blockMarkdown(b: ExportBlock, calls: CallTitles): string {
  const text = b.text ?? "";
  switch (b.kind) {
    case "text":
      return prose(text);
    case "thinking":
      return details("Thinking", fenced(text));
    case "toolCall":
      if (b.call?.id !== undefined && b.title !== undefined) calls.set(b.call.id, b.title);
      return details(`Tool call: ${oneLine(b.title ?? b.call?.name ?? "?")}`, fenced(text, "json"));
    case "toolResult":
    case "bash": {
      const title = (b.answers !== undefined ? calls.get(b.answers) : undefined) ?? b.title;
      return details(`${b.isError ? "Error: " : ""}${b.kind === "bash" ? "Shell" : "Result"}${title ? `: ${oneLine(title)}` : ""} (${lines(text)})`, fenced(text));
    }
    case "summary":
      return details(`Summary${b.title ? `: ${oneLine(b.title)}` : ""}`, prose(text));
    case "image": {
      const img = b.image;
      if (!img || !img.data) return "*(image dropped)*";
      // Only a known type with base64 data becomes an image; GitHub shows no data: URI, editors do.
      if (IMAGE_MIME.test(img.mimeType) && /^[A-Za-z0-9+/]+={0,2}$/.test(img.data)) return `![image](data:${img.mimeType};base64,${img.data})`;
      return `*(image of type ${inlineCode(img.mimeType)} not shown)*`;
    }
    default:
      return details(b.title ? oneLine(b.title) : "Record", fenced(text, "json"));
  }
}

function compactionMarkdown(e: ExportEntry): string {
  const c = e.compaction;
  if (!c) return "";
  const facts = [`${c.tokensBefore} tokens before`];
  if (c.tokensAfter !== undefined) facts.push(`${c.tokensAfter} after`);
  if (c.trigger) facts.push(escapeHtml(c.trigger));
  if (c.firstKeptEntryId) facts.push(`kept from ${inlineCode(c.firstKeptEntryId)}`);
  const files = [...c.readFiles.map((f) => `- read ${inlineCode(f)}`), ...c.modifiedFiles.map((f) => `- modified ${inlineCode(f)}`)];
  const parts = [`> **⟲ Compaction**: ${facts.join(", ")}`, details("Summary of the compacted part", prose(c.summary))];
  if (files.length) parts.push(details(`Files (${files.length})`, files.join("\n")));
  return parts.join("\n\n");
}

function subagentMarkdown(t: SubagentTranscript, level: number): string {
  const what = [t.description, t.agentType ? `(${t.agentType})` : undefined].filter(Boolean).join(" ") || t.agentId;
  const body = t.missing ? `*(transcript not exported: ${escapeHtml(t.missing)})*` : entriesMarkdown(t.entries, t.subagents, level + 1);
  return details(`Sub-agent: ${oneLine(what)} · ${t.entries.length} entries`, body);
}

/** One entry: a heading (and the turn's heading before a user message), its blocks, its marks. */
function entryMarkdown_(e: ExportEntry, level: number, subagents: readonly SubagentTranscript[], calls: CallTitles): string {
  const h = "#".repeat(Math.min(6, level));
  const label = e.label !== undefined ? ` · 🏷 ${oneLine(e.label)}` : "";
  const when = e.timestamp ? ` · ${escapeHtml(e.timestamp)}` : "";
  const parts = [`${h} ${oneLine(e.typeLabel)}${e.isError ? " (error)" : ""}${label}`, `<sub>${inlineCode(e.id)}${when} · line ${e.line}</sub>`];
  if (e.kind === "boundary" || e.compaction) parts.unshift("---");
  const comp = compactionMarkdown(e);
  if (comp) parts.push(comp);
  for (const b of e.blocks) parts.push(blockMarkdown(b, calls));
  for (const t of subagents) parts.push(subagentMarkdown(t, level));
  if (e.branches) parts.push(`> **⑂ Branch point**: ${e.branches.length} branches continue from here (${e.branches.map(inlineCode).join(", ")})`);
  return parts.join("\n\n");
}

/** The Markdown of entries given one by one: a `Turn N` heading before each user message. */
function turnWriter(subagents: readonly SubagentTranscript[], level: number): (e: ExportEntry) => string[] {
  const byStarter = new Map<string, SubagentTranscript[]>();
  for (const t of subagents) byStarter.set(t.startedBy, [...(byStarter.get(t.startedBy) ?? []), t]);
  const calls: CallTitles = new Map();
  let turn = 0;
  return (e) => [...(e.kind === "user" ? [`${"#".repeat(Math.min(6, level))} Turn ${++turn}`] : []), entryMarkdown_(e, level + 1, byStarter.get(e.id) ?? [], calls)];
}

/** Entries in order, a `Turn N` heading before each user message. */
function entriesMarkdown(entries: readonly ExportEntry[], subagents: readonly SubagentTranscript[], level: number): string {
  return entries.flatMap(turnWriter(subagents, level)).join("\n\n");
}

function figuresMarkdown(f: BranchFigures): string {
  const row = (name: string, s: BranchFigures["branch"]) => `| ${name} | ${s.steps} | ${s.tokens.input} | ${s.tokens.output} | ${s.tokens.cacheRead} | ${s.tokens.cacheWrite} | ${s.usd.toFixed(4)} |`;
  const lines = ["## Tokens and cost", "", "| | Steps | Input | Output | Cache read | Cache write | Cost (USD) |", "|---|---:|---:|---:|---:|---:|---:|", row("This branch", f.branch), row("Whole session", f.session)];
  if (f.session.unpricedSteps) lines.push("", `${f.session.unpricedSteps} step(s) had no recorded cost and no price: left out of the cost.`);
  return lines.join("\n");
}

/** The heading and facts of the document. */
function headMarkdown(session: SessionReader, redactor: Redactor, leafId: string | undefined, count: number): string {
  const info = session.format.info(session);
  const r = (t: string, field: string) => redactor.redact(t, { field });
  const title = r(session.tree.name ?? info.name ?? `Session ${info.id}`, "label");
  const rows = [["Agent", escapeHtml(session.format.agent)], ["File", inlineCode(r(session.path, "path"))], ["Folder", inlineCode(r(info.cwd, "path"))]];
  if (leafId !== undefined) rows.push(["Branch", `ends at ${inlineCode(r(leafId, "id"))}, ${count} entries`]);
  else rows.push(["Entries", String(count)]);
  return [`# ${oneLine(title)}`, "", "| | |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, "\\|")} |`)].join("\n");
}

function reportMarkdown(redactor: Redactor): string {
  const rep = redactor.report();
  if (!rep.total) return "";
  return `<sub>Redacted before export: ${rep.rules.map((x) => `${escapeHtml(x.rule)} ×${x.count}`).join(", ")}.</sub>`;
}

/** Markdown of one entry (Copy as Markdown): its heading, blocks and marks, no sub-agent transcript. */
export function entryMarkdown(session: SessionReader, entryId: string, redactor: Redactor): string {
  return `${entryMarkdown_(exportEntry(session, session.requireIndex(entryId), redactor), 3, [], new Map())}\n`;
}

/** Markdown of one branch, root..leaf, with its sub-agents' transcripts, tokens and cost. */
export async function branchMarkdown(session: SessionReader, leafId: string, redactor: Redactor): Promise<string> {
  return sessionMarkdown(session, redactor, { leaf: session.requireIndex(leafId) });
}

/** Receives the Markdown export piece by piece (a file, stdout). */
export type MarkdownSink = (piece: string) => void | Promise<void>;

/**
 * sessionMarkdown's text given to `sink` as it is made, an entry at a time: each entry is
 * read, redacted, written and dropped, so a 100 MB session's transcript is never one
 * string nor its entries all at once (the redaction note at the end counts them all).
 */
export async function writeSessionMarkdown(session: SessionReader, redactor: Redactor, opts: { leaf?: number; all?: boolean; heapTrim?: HeapTrim }, sink: MarkdownSink): Promise<void> {
  const trim = opts.heapTrim;
  const leaf = opts.leaf ?? session.format.defaultLeaf(session);
  const branches = exportBranches(session, leaf, opts.all ?? false);
  const count = branches.reduce((n, b) => n + b.positions.length, 0);
  // Pieces joined by blank lines, empty ones left out.
  let started = false;
  const part = async (text: string) => {
    if (!text) return;
    await sink(started ? `\n\n${text}` : text);
    started = true;
  };
  await part(headMarkdown(session, redactor, opts.all ? undefined : session.metas[leaf]?.id, count));
  for (const [k, b] of branches.entries()) {
    const subs = await subagentTranscripts(session, b.positions, redactor);
    const from = b.from !== undefined ? ` (leaves the branch above at ${inlineCode(redactor.redact(b.from, { entryId: b.from, field: "id" }))})` : "";
    if (branches.length > 1) await part(`## Branch ${k + 1}${k === 0 ? " (the one the agent continues)" : ""}${from}`);
    const next = turnWriter(subs, branches.length > 1 ? 3 : 2);
    for (const p of b.positions) {
      for (const piece of next(exportEntry(session, p, redactor))) await part(piece);
      trim?.maybe();
    }
  }
  // The transcript's garbage collected before the figures read the branch again.
  trim?.now();
  await part(figuresMarkdown(branchFigures(session, leaf)));
  await part(reportMarkdown(redactor));
  await sink("\n");
}

/**
 * The whole export: one branch (the given leaf, else the agent's default), or with `all`
 * every branch, the default first and each other from where it leaves those shown
 * (writeSessionMarkdown's pieces joined: a small session; a large one is streamed).
 */
export async function sessionMarkdown(session: SessionReader, redactor: Redactor, opts: { leaf?: number; all?: boolean } = {}): Promise<string> {
  const pieces: string[] = [];
  await writeSessionMarkdown(session, redactor, opts, (p) => void pieces.push(p));
  return pieces.join("");
}
