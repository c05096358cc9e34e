import type { ContextMessage } from "../session/session-format";

/** One step after the shared prefix: a pair (same or changed), or a message of one side only. */
export interface AlignStep {
  a?: number;
  b?: number;
  /** A pair whose messages are identical. */
  same: boolean;
  /** A pair matched by identity (entry id), not just by kind and position. */
  byId?: boolean;
}

export interface Alignment {
  /** Messages 0..prefix-1 are identical on both sides. */
  prefix: number;
  steps: AlignStep[];
}

/** Gaps larger than this (messages A x messages B) are paired place by place instead of by the weighing below. */
const MAX_GAP_CELLS = 250_000;

/**
 * A message's identity: its entry id and how many messages of that id came before it
 * (pi puts a compaction's summary and its retained tail under the compaction's one id).
 */
function identities(messages: readonly ContextMessage[]): string[] {
  const seen = new Map<string, number>();
  return messages.map((m) => {
    const n = seen.get(m.entryId) ?? 0;
    seen.set(m.entryId, n + 1);
    return `${m.entryId}\u0000${n}`;
  });
}

/** Pairs (i, j) with increasing i whose j form a longest increasing run (patience sorting). */
function longestIncreasing(pairs: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let p = 0; p < pairs.length; p++) {
    const j = pairs[p][1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[p] = tails[lo - 1];
    tails[lo] = p;
  }
  const out: Array<[number, number]> = [];
  for (let p = tails.length ? tails[tails.length - 1] : -1; p >= 0; p = prev[p]) out.push(pairs[p]);
  return out.reverse();
}

/**
 * Pairs messages of a gap between two anchors: an alignment of most weight where a pair
 * must be of one kind, and identical content weighs more than a changed message (two
 * files whose ids differ still pair their identical messages). Returns pairs in order.
 */
function pairByKind(A: readonly ContextMessage[], B: readonly ContextMessage[], ja: readonly string[], jb: readonly string[], a0: number, a1: number, b0: number, b1: number): Array<[number, number]> {
  const n = a1 - a0;
  const m = b1 - b0;
  if (!n || !m) return [];
  if (n * m > MAX_GAP_CELLS) {
    // Too large to weigh every pairing: pair place by place where the kinds agree.
    const out: Array<[number, number]> = [];
    for (let k = 0; k < Math.min(n, m); k++) if (A[a0 + k].kind === B[b0 + k].kind) out.push([a0 + k, b0 + k]);
    return out;
  }
  const w = (i: number, j: number) => (A[a0 + i].kind !== B[b0 + j].kind ? 0 : ja[a0 + i] === jb[b0 + j] ? 3 : 1);
  // Best weight of A[i..] against B[j..], filled from the end so the walk below goes forward
  // and pairs as early as it can (a branch's first messages pair with the other's first).
  const cols = m + 1;
  const dp = new Uint32Array((n + 1) * cols);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const here = w(i, j);
      const diag = here ? dp[(i + 1) * cols + j + 1] + here : 0;
      dp[i * cols + j] = Math.max(dp[(i + 1) * cols + j], dp[i * cols + j + 1], diag);
    }
  }
  const out: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    const here = w(i, j);
    if (here && dp[i * cols + j] === dp[(i + 1) * cols + j + 1] + here) {
      out.push([a0 + i, b0 + j]);
      i++;
      j++;
    } else if (dp[(i + 1) * cols + j] >= dp[i * cols + j + 1]) i++;
    else j++;
  }
  return out;
}

/**
 * Aligns two contexts: the longest run of identical messages at the start, then messages
 * matched by identity (the longest in-order set of ids both hold), then, between those,
 * messages of one kind paired as changed; the rest belong to one side only.
 */
export function alignMessages(A: readonly ContextMessage[], B: readonly ContextMessage[]): Alignment {
  const ja = A.map((m) => JSON.stringify(m.message) ?? "");
  const jb = B.map((m) => JSON.stringify(m.message) ?? "");
  let prefix = 0;
  while (prefix < A.length && prefix < B.length && ja[prefix] === jb[prefix]) prefix++;
  const ka = identities(A);
  const kb = identities(B);
  const inB = new Map<string, number>();
  for (let j = prefix; j < B.length; j++) inB.set(kb[j], j);
  const candidates: Array<[number, number]> = [];
  for (let i = prefix; i < A.length; i++) {
    const j = inB.get(ka[i]);
    if (j !== undefined) candidates.push([i, j]);
  }
  const anchors = longestIncreasing(candidates);
  const steps: AlignStep[] = [];
  let i = prefix;
  let j = prefix;
  const gap = (a1: number, b1: number) => {
    for (const [pi, pj] of pairByKind(A, B, ja, jb, i, a1, j, b1)) {
      while (i < pi) steps.push({ a: i++, same: false });
      while (j < pj) steps.push({ b: j++, same: false });
      steps.push({ a: i++, b: j++, same: ja[pi] === jb[pj] });
    }
    while (i < a1) steps.push({ a: i++, same: false });
    while (j < b1) steps.push({ b: j++, same: false });
  };
  for (const [ai, bj] of anchors) {
    gap(ai, bj);
    steps.push({ a: i++, b: j++, same: ja[ai] === jb[bj], byId: true });
  }
  gap(A.length, B.length);
  return { prefix, steps };
}
