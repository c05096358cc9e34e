import type { Session } from "../pi-session";
import type { EntryTokens } from "../../../tokens/entry-tokens";
import { figureOf, roundCounts, type TokenMethod } from "../../../tokens/token-method";
import { addCounts, emptyCounts, type KindCounts } from "../../../tokens/kind-counts";
import { COUNT_ORDER } from "../../../tokens/kind-counts";

/** Token totals of a run of entries, split by kind; `tokens` = sum of `byKind`. */
export interface TokenTotals {
  entries: number;
  tokens: number;
  byKind: KindCounts;
}

/**
 * One branch: the entries from the nearest branch point above a leaf (exclusive) down to
 * the leaf (inclusive), plus the totals of the whole root..leaf path. These are sums of
 * what each entry adds, not the leaf's context size (which compaction shrinks and which
 * includes the system prompt): see leaf-tokens.ts for that.
 */
export interface BranchTokens extends TokenTotals {
  leafId: string;
  /** The branch point the branch leaves from, or null when no ancestor branches. */
  fromId: string | null;
  path: TokenTotals;
}

const K = COUNT_ORDER.length;

function totalsFrom(acc: Float64Array, at: number, minus: number | undefined, entries: number): TokenTotals {
  const c = emptyCounts();
  COUNT_ORDER.forEach((k, j) => {
    c[k] = acc[at * K + j] - (minus === undefined ? 0 : acc[minus * K + j]);
  });
  return { entries, ...roundCounts(c) };
}

/**
 * Every leaf's branch and path totals in one pass over the tree (cumulative sums down
 * from the roots), so a session with thousands of leaves costs O(entries), not
 * O(entries x leaves). Leaves come in file order.
 */
export function branchTotals(session: Session, table: readonly EntryTokens[], method: TokenMethod = "best"): BranchTokens[] {
  const tree = session.tree;
  const n = tree.size;
  const acc = new Float64Array(n * K);
  const depth = new Int32Array(n);
  const branchAt = new Int32Array(n).fill(-1);
  const stack = tree.roots();
  while (stack.length) {
    const i = stack.pop() as number;
    const p = tree.parent[i];
    const own = figureOf(table[i], method).byKind;
    COUNT_ORDER.forEach((k, j) => {
      acc[i * K + j] = (p >= 0 ? acc[p * K + j] : 0) + own[k];
    });
    if (p >= 0) {
      depth[i] = depth[p] + 1;
      branchAt[i] = tree.childCount(p) > 1 ? p : branchAt[p];
    }
    for (const c of tree.children(i)) stack.push(c);
  }
  return tree.leaves().map((leaf) => {
    const from = branchAt[leaf];
    const seg = totalsFrom(acc, leaf, from >= 0 ? from : undefined, from >= 0 ? depth[leaf] - depth[from] : depth[leaf] + 1);
    return { leafId: tree.metas[leaf].id, fromId: from >= 0 ? tree.metas[from].id : null, ...seg, path: totalsFrom(acc, leaf, undefined, depth[leaf] + 1) };
  });
}

/** Totals of the subtree under an entry (the entry included): what a collapsed tree node hides. */
export function subtreeTotals(session: Session, table: readonly EntryTokens[], root: number, method: TokenMethod = "best"): TokenTotals & { rootId: string } {
  const c = emptyCounts();
  const nodes = session.tree.subtree(root);
  for (const i of nodes) addCounts(c, figureOf(table[i], method).byKind);
  return { rootId: session.metas[root].id, entries: nodes.length, ...roundCounts(c) };
}
