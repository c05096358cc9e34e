import type { SessionReader } from "../session/session-reader";

/** One branch of an export: its positions, and the entry (id) it leaves an earlier branch at. */
export interface ExportBranch {
  leaf: number;
  positions: number[];
  from?: string;
}

/**
 * The positions of a branch, root..leaf, as the agent's user lived it: the tree's path,
 * and across a compaction that starts a new chain (Claude Code's boundary has no parent)
 * on through the entry it summarized, so the transcript holds what came before it too.
 */
export function branchPositions(session: SessionReader, leaf: number): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  const f = session.format;
  for (let cur = leaf; cur >= 0 && !seen.has(cur); ) {
    seen.add(cur);
    out.push(cur);
    const up = session.tree.parent[cur];
    cur = up < 0 && f.compactionParent ? f.compactionParent(session, cur) : up;
  }
  return out.reverse();
}

/**
 * The branches an export covers: the one ending at `leaf`; with `all`, that one first,
 * then every other branch end in file order, each holding only the entries no earlier
 * branch showed. Branch ends are the format's (Claude Code's progress lines end none);
 * a sub-agent's inline lines are no branch of the session (they show under their call).
 */
export function exportBranches(session: SessionReader, leaf: number, all: boolean): ExportBranch[] {
  const tree = session.tree;
  const first: ExportBranch = { leaf, positions: branchPositions(session, leaf) };
  if (!all) return [first];
  const f = session.format;
  const inlineRoots = f.subagents?.inlineRoots(session) ?? new Map<number, number>();
  const shown = new Set(first.positions);
  const out = [first];
  const ends = new Set<number>();
  for (const l of tree.leaves()) {
    const end = f.branchEnd ? f.branchEnd(session, l) : l;
    if (end >= 0) ends.add(end);
  }
  for (const end of [...ends].sort((a, b) => a - b)) {
    const path = branchPositions(session, end);
    if (inlineRoots.has(path[0])) continue;
    const positions = path.filter((p) => !shown.has(p));
    if (!positions.length) continue;
    for (const p of positions) shown.add(p);
    const parent = tree.parent[positions[0]];
    out.push({ leaf: end, positions, ...(parent >= 0 ? { from: session.metas[parent].id } : {}) });
  }
  // Entries on no branch end (a tree whose every leaf the format skips) are left out: the JSON export has them all.
  return out;
}
