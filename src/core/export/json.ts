// A session as JSON: the neutral entries (what the explorer shows of each) of one branch
// or of the whole file, the exact context the agent builds for the chosen leaf, the
// sub-agents' transcripts and the figures, every string redacted. The schema is
// documented in docs/export-json-schema.md; fields are only ever added.

import type { PartKind } from "../session/session-format";
import type { SessionReader } from "../session/session-reader";
import type { CostSum } from "../usage/session-cost";
import { type ExportEntry, exportEntry } from "./export-entries";
import { branchPositions } from "./export-branches";
import { branchFigures } from "./export-figures";
import { redactValue } from "./redact-value";
import type { RedactionReport, Redactor } from "./redactor";
import { type SubagentTranscript, subagentTranscripts } from "./subagent-transcripts";

export const EXPORT_SCHEMA = "ase-export/1";

export interface JsonExport {
  schema: typeof EXPORT_SCHEMA;
  session: { path: string; format: string; agent: string; id: string; cwd: string; name?: string; version?: number; agentVersion?: string; created?: string };
  /** "branch": root..leaf; "all": every entry in file order. */
  scope: "branch" | "all";
  /** The chosen leaf (the agent's default unless one was given); null for an empty session. */
  leafId: string | null;
  entries: ExportEntry[];
  /** The messages the agent sends for the leaf, in its own shape, root first. */
  context: { leafId: string | null; messages: Array<{ entryId: string; kind: PartKind; message: unknown }> };
  subagents: SubagentTranscript[];
  figures: { branch: CostSum; session: CostSum };
  /** Lines the reader skipped (their messages are in `ase tree --json`). */
  problemCount: number;
  redacted: boolean;
  redaction: RedactionReport;
}

/** Receives the JSON export piece by piece (a file, stdout, or a list joined into a string). */
export type JsonSink = (piece: string) => void | Promise<void>;

/** A value as JSON.stringify(value, null, 2) writes it `depth` levels down. */
const nested = (value: unknown, depth: number) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${"  ".repeat(depth)}`);

/**
 * Writes the JSON export of a session (see JsonExport) to `sink` as it is made: the very
 * text of JSON.stringify(export, null, 2) and a newline, but each entry serialized and
 * written, then dropped, so a 100 MB session's export is never one object or one string.
 * `redacted` says whether the redactor scans (false: --no-redact).
 */
export async function writeSessionJson(session: SessionReader, redactor: Redactor, opts: { leaf?: number; all?: boolean; redacted: boolean }, sink: JsonSink): Promise<void> {
  const f = session.format;
  const leaf = opts.leaf ?? f.defaultLeaf(session);
  const positions = opts.all ? session.metas.map((_, i) => i) : branchPositions(session, leaf);
  const r = (t: string, field: string, entryId?: string) => redactor.redact(t, { entryId, field });
  const info = f.info(session);
  const head: JsonExport["session"] = { path: r(session.path, "path"), format: f.id, agent: f.agent, id: r(info.id, "id"), cwd: r(info.cwd, "path") };
  const name = session.tree.name ?? info.name;
  if (name !== undefined) head.name = r(name, "label");
  if (info.version !== undefined) head.version = info.version;
  if (info.agentVersion !== undefined) head.agentVersion = r(info.agentVersion, "meta");
  if (info.created !== undefined) head.created = r(info.created, "meta");
  const field = (key: keyof JsonExport, value: unknown, last = false) => `  ${JSON.stringify(key)}: ${nested(value, 1)}${last ? "\n" : ",\n"}`;
  await sink(`{\n${field("schema", EXPORT_SCHEMA)}${field("session", head)}${field("scope", opts.all ? "all" : "branch")}`);
  await sink(field("leafId", leaf < 0 ? null : r(session.metas[leaf].id, "id")));
  // The entries in the order the whole object would hold them, one piece each.
  if (!positions.length) await sink(field("entries", []));
  else {
    await sink(`  "entries": [\n`);
    for (const [k, p] of positions.entries()) await sink(`    ${nested(exportEntry(session, p, redactor), 2)}${k + 1 < positions.length ? "," : ""}\n`);
    await sink("  ],\n");
  }
  const ctx = f.context(session, leaf);
  const context: JsonExport["context"] = {
    leafId: ctx.leafId === null ? null : r(ctx.leafId, "id"),
    messages: ctx.messages.map((m) => ({ entryId: r(m.entryId, "id", m.entryId), kind: m.kind, message: redactValue(m.message, redactor, { entryId: m.entryId, field: "context" }) })),
  };
  await sink(field("context", context));
  await sink(field("subagents", await subagentTranscripts(session, positions, redactor)));
  await sink(`${field("figures", branchFigures(session, leaf))}${field("problemCount", session.problemCount)}${field("redacted", opts.redacted)}`);
  await sink(`${field("redaction", redactor.report(), true)}}\n`);
}

/** The JSON export of a session as an object (a small session; writeSessionJson streams a large one). */
export async function sessionJson(session: SessionReader, redactor: Redactor, opts: { leaf?: number; all?: boolean; redacted: boolean }): Promise<JsonExport> {
  const pieces: string[] = [];
  await writeSessionJson(session, redactor, opts, (p) => void pieces.push(p));
  return JSON.parse(pieces.join("")) as JsonExport;
}
