import type { SessionReader } from "../session/session-reader";
import { MemorySession } from "../session/memory-session";
import { type ContextDiff, type ContextSide, diffContexts } from "./diff-contexts";

/** The two leaves a compaction is judged by, before comparing their contexts. */
export interface CompactionSides {
  /** The compaction entry. */
  entryId: string;
  /** The last entry before it (-1: none, or one its record names that is not in the file). */
  before: number;
  /** The first leaf whose context holds the summary: the boundary, or the summary line under it. */
  after: number;
  /** The entry the boundary names as the one before it, when that is not in the file. */
  missingParent?: string;
}

export interface CompactionChange extends CompactionSides {
  diff: ContextDiff;
}

/** The leaves before and after the compaction at i; an error naming the file when i is none. */
export function compactionSides(session: SessionReader, i: number): CompactionSides {
  const f = session.format;
  const id = session.metas[i]?.id;
  const d = f.describe(session, i);
  if (d.kind !== "boundary") throw new Error(`${session.path}: entry "${id}" is not a compaction (it is ${d.label.toLowerCase()})`);
  const before = f.compactionParent ? f.compactionParent(session, i) : session.tree.parent[i];
  // Where the agent writes its summary as a line under the boundary, the context holds it from that line on.
  const summary = session.tree.children(i).find((c) => f.describe(session, c).kind === "summary");
  const facts = f.details?.(session, i).compaction;
  const missing = before < 0 ? facts?.missingParent : undefined;
  // Messages it kept verbatim after the summary (a partial compaction) are part of what it left.
  const kept = facts?.lastKeptEntryId === undefined ? undefined : session.tree.indexOf(facts.lastKeptEntryId);
  return { entryId: id, before, after: kept ?? summary ?? i, ...(missing ? { missingParent: missing } : {}) };
}

/**
 * What a compaction changed: the context just before it (at the entry it followed, for
 * Claude Code its logical parent) against the context just after it (the first leaf
 * that holds its summary).
 */
export function compactionChange(session: SessionReader, i: number): CompactionChange {
  const sides = compactionSides(session, i);
  return { ...sides, diff: diffContexts(beforeSide(session, i, sides.before), { session, leaf: sides.after }) };
}

/**
 * The "before" side: the context at the entry the compaction followed, as it was before
 * the compaction was written. A format whose compaction moves earlier lines under its
 * summary (Claude Code's preserved messages) would show the summary there already: then
 * the context is built on the file as it was, its lines before the compaction.
 */
function beforeSide(session: SessionReader, i: number, before: number): ContextSide {
  if (before < 0) return { session, leaf: before };
  const f = session.format;
  const later = f.context(session, before).messages.some((m) => (session.tree.indexOf(m.entryId) ?? -1) >= i);
  if (!later) return { session, leaf: before };
  const lines: Array<Record<string, unknown>> = [];
  for (let k = 0; k < i; k++) lines.push(session.entryAt(k));
  const prefix = new MemorySession(session.formatId, f.index, lines, session.path);
  return { session: prefix, leaf: prefix.tree.indexOf(session.metas[before].id) ?? -1 };
}
