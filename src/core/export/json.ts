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

/** The JSON export of a session (see JsonExport); `redacted` says whether the redactor scans (false: --no-redact). */
export async function sessionJson(session: SessionReader, redactor: Redactor, opts: { leaf?: number; all?: boolean; redacted: boolean }): Promise<JsonExport> {
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
  const entries = positions.map((p) => exportEntry(session, p, redactor));
  const ctx = f.context(session, leaf);
  const context = {
    leafId: ctx.leafId === null ? null : r(ctx.leafId, "id"),
    messages: ctx.messages.map((m) => ({ entryId: r(m.entryId, "id", m.entryId), kind: m.kind, message: redactValue(m.message, redactor, { entryId: m.entryId, field: "context" }) })),
  };
  const subagents = await subagentTranscripts(session, positions, redactor);
  const leafId = leaf < 0 ? null : r(session.metas[leaf].id, "id");
  const out = { schema: EXPORT_SCHEMA, session: head, scope: opts.all ? "all" : "branch", leafId, entries, context, subagents, figures: branchFigures(session, leaf), problemCount: session.problemCount, redacted: opts.redacted } as const;
  return { ...out, redaction: redactor.report() };
}
