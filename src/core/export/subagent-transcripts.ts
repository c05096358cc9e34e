import { openSession } from "../formats/registry";
import type { SessionReader } from "../session/session-reader";
import { type ExportEntry, exportEntry } from "./export-entries";
import type { Redactor } from "./redactor";

/** A sub-agent's own entries, redacted, under the entry whose call started it. */
export interface SubagentTranscript {
  agentId: string;
  description?: string;
  agentType?: string;
  /** The entry (id) whose tool call started it. */
  startedBy: string;
  entries: ExportEntry[];
  /** Its own sub-agents. */
  subagents: SubagentTranscript[];
  /** Why its transcript is missing (not found, unreadable). */
  missing?: string;
}

/** Sub-agents of sub-agents are followed this deep; deeper ones are named, not read. */
const MAX_DEPTH = 3;

/** Entries of a sub-agent file: the branch the agent ended on. */
function ownBranch(s: SessionReader): number[] {
  const leaf = s.format.defaultLeaf(s);
  return leaf < 0 ? [] : s.tree.path(leaf);
}

/**
 * The transcripts of the sub-agents the entries at `positions` started, in call order:
 * read from their own files, or from the lines written inline in this session (every
 * line under the first, in file order). A transcript that cannot be read is reported as
 * missing, never fatal: the export goes on without it.
 */
export async function subagentTranscripts(session: SessionReader, positions: readonly number[], redactor: Redactor, depth = 1, seen = new Set<string>()): Promise<SubagentTranscript[]> {
  const format = session.format;
  if (!format.subagents || !format.details) return [];
  const out: SubagentTranscript[] = [];
  for (const i of positions) {
    const starter = session.metas[i].id;
    // The entry's view names the sub-agents of its call and of its result (a branch may hold only one of them).
    for (const ref of format.details(session, i).subagents ?? []) {
      const key = ref.path ?? `${session.path}#${ref.inlineEntryId ?? ref.agentId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const r = (text: string, field: string) => redactor.redact(text, { entryId: starter, field });
      const t: SubagentTranscript = { agentId: r(ref.agentId, "id"), startedBy: r(starter, "id"), entries: [], subagents: [] };
      if (ref.description !== undefined) t.description = r(ref.description, "label");
      if (ref.agentType !== undefined) t.agentType = r(ref.agentType, "label");
      out.push(t);
      try {
        let sub: SessionReader;
        let subPositions: number[];
        const inline = ref.inlineEntryId !== undefined ? session.tree.indexOf(ref.inlineEntryId) : undefined;
        if (inline !== undefined) {
          sub = session;
          subPositions = session.tree.subtree(inline).sort((a, b) => a - b);
        } else if (ref.path !== undefined) {
          sub = await openSession(ref.path);
          subPositions = ownBranch(sub);
        } else {
          t.missing = "its transcript was not found";
          continue;
        }
        t.entries = subPositions.map((p) => exportEntry(sub, p, redactor));
        if (depth < MAX_DEPTH) t.subagents = await subagentTranscripts(sub, subPositions, redactor, depth + 1, seen);
      } catch (err) {
        t.missing = r((err as Error).message.split("\n")[0], "path");
      }
    }
  }
  return out;
}
