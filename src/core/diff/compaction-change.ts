import { formatOf } from "../formats/registry";
import type { SessionReader } from "../formats/session-reader";
import { type ContextDiff, diffContexts } from "./diff-contexts";

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
  const f = formatOf(session);
  const id = session.metas[i]?.id;
  const d = f.describe(session, i);
  if (d.kind !== "boundary") throw new Error(`${session.path}: entry "${id}" is not a compaction (it is ${d.label.toLowerCase()})`);
  const before = f.compactionParent ? f.compactionParent(session, i) : session.tree.parent[i];
  // Where the agent writes its summary as a line under the boundary, the context holds it from that line on.
  const summary = session.tree.children(i).find((c) => f.describe(session, c).kind === "summary");
  const missing = before < 0 ? f.details?.(session, i).compaction?.missingParent : undefined;
  return { entryId: id, before, after: summary ?? i, ...(missing ? { missingParent: missing } : {}) };
}

/**
 * What a compaction changed: the context just before it (at the entry it followed, for
 * Claude Code its logical parent) against the context just after it (the first leaf
 * that holds its summary).
 */
export function compactionChange(session: SessionReader, i: number): CompactionChange {
  const sides = compactionSides(session, i);
  return { ...sides, diff: diffContexts({ session, leaf: sides.before }, { session, leaf: sides.after }) };
}
