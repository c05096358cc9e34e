import type { SessionReader } from "../../session/session-reader";
import { pushAll } from "../../util/push-all";
import { type ChainFacts, chainFacts, FORK_BRIEFING, META, SIDECHAIN, TEAM } from "./chain-facts";

function isMessage(session: SessionReader, i: number): boolean {
  const t = session.table.typeAt(i);
  return t === "user" || t === "assistant";
}

/**
 * The first user or assistant line at or above a line (cycle-safe), or -1. Answers are
 * kept for every line a walk passes, so asking for each of n leaves that share a long
 * stretch of progress or system lines walks that stretch once, not n times.
 */
function nearestMessages(session: SessionReader, facts: ChainFacts): (i: number) => number {
  const UNKNOWN = -2;
  const WALKING = -3;
  const known = new Map<number, number>();
  return (i) => {
    const walked: number[] = [];
    let found = -1;
    for (let cur = i; cur >= 0; cur = facts.parent[cur]) {
      const k = known.get(cur) ?? UNKNOWN;
      // A line this walk passed already: a cycle without a message.
      if (k === WALKING) break;
      if (k !== UNKNOWN) {
        found = k;
        break;
      }
      if (isMessage(session, cur)) {
        found = cur;
        break;
      }
      known.set(cur, WALKING);
      walked.push(cur);
    }
    for (const w of walked) known.set(w, found);
    return found;
  };
}

/**
 * The leaf Claude Code resumes when no message is named (section 10): lines that may end
 * the main chain (not sidechain, not team traffic, not progress, not a fork briefing) and
 * that no such line continues, newest in the file first; the first whose walk up reaches a
 * user or assistant line gives that line. Failing that, the newest true leaf's nearest
 * message, preferring lines that are not sidechain, team or meta. -1 for an empty session.
 */
export function claudeCodeDefaultLeaf(session: SessionReader): number {
  const n = session.metas.length;
  if (!n) return -1;
  const facts = chainFacts(session);
  const nearestMessage = nearestMessages(session, facts);
  const mayEnd = (i: number) => !(facts.flags[i] & (SIDECHAIN | TEAM | FORK_BRIEFING)) && session.table.typeAt(i) !== "progress";
  const continued = new Uint8Array(n);
  const hasChild = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const p = facts.parent[i];
    if (p < 0) continue;
    hasChild[p] = 1;
    if (mayEnd(i)) continued[p] = 1;
  }
  for (let i = n - 1; i >= 0; i--) {
    if (!mayEnd(i) || continued[i]) continue;
    const m = nearestMessage(i);
    if (m >= 0) return m;
  }
  let fallback = -1;
  for (let i = n - 1; i >= 0; i--) {
    if (hasChild[i]) continue;
    const m = nearestMessage(i);
    if (m < 0) continue;
    if (!(facts.flags[m] & (SIDECHAIN | TEAM | META))) return m;
    if (fallback < 0) fallback = m;
  }
  return fallback >= 0 ? fallback : n - 1;
}

/**
 * The entry a leaf's branch ends at for Claude Code: the nearest user or assistant line
 * up from it (a trailing progress, system or attachment line is never resumed from);
 * inline sub-agent and team lines end no branch of the session (-1), but in a sub-agent's
 * own file they are its conversation.
 */
export function claudeCodeBranchEnd(session: SessionReader, leaf: number): number {
  const facts = chainFacts(session);
  const m = nearestMessages(session, facts)(leaf);
  if (m < 0) return -1;
  return facts.flags[m] & TEAM || (facts.flags[m] & SIDECHAIN && !facts.sidechainFile) ? -1 : m;
}

/**
 * Whether a line hangs below the leaf (the leaf is on its relinked way up). `path` is
 * the leaf's own way up, known already; every answer is kept for each line a walk
 * passes, so n side results under one long chain cost O(n) in all, not O(n) each.
 */
function belowLeaf(facts: ChainFacts, leaf: number, path: readonly number[]): (i: number) => boolean {
  const BELOW = 1;
  const NOT_BELOW = 2;
  const WALKING = 3;
  const known = new Map<number, number>();
  for (const p of path) known.set(p, p === leaf ? BELOW : NOT_BELOW);
  return (i) => {
    const walked: number[] = [];
    let found = NOT_BELOW;
    for (let cur = facts.parent[i]; cur >= 0; cur = facts.parent[cur]) {
      const k = known.get(cur);
      // A line this walk passed already: a cycle that never meets the leaf.
      if (k === WALKING) break;
      if (k !== undefined) {
        found = k;
        break;
      }
      known.set(cur, WALKING);
      walked.push(cur);
    }
    for (const w of walked) known.set(w, found);
    return found === BELOW;
  };
}

/**
 * The chain Claude Code loads for a leaf (sections 5, 10): the relinked parents walked
 * from the leaf to its root (a compact boundary, or the line above a broken link), root
 * first; then, for each API response on it, its fragments and tool results left on side
 * branches (the older parallel-tool layout) go right after its last fragment on the
 * chain, oldest first. Lines below the leaf are never added.
 */
export function claudeCodeChain(session: SessionReader, leaf: number): number[] {
  if (leaf < 0) return [];
  const facts = chainFacts(session);
  const path: number[] = [];
  const on = new Set<number>();
  for (let cur = leaf; cur >= 0 && !on.has(cur); cur = facts.parent[cur]) {
    path.push(cur);
    on.add(cur);
  }
  path.reverse();
  const lastFragment = new Map<string, number>();
  path.forEach((i, k) => {
    const r = facts.response[i];
    if (r) lastFragment.set(r, k);
  });
  if (!lastFragment.size) return path;
  const extra = new Map<number, number[]>();
  const add = (i: number, at: number) => {
    on.add(i);
    const list = extra.get(at);
    if (list) list.push(i);
    else extra.set(at, [i]);
  };
  const below = belowLeaf(facts, leaf, path);
  const offChain = (i: number) => !on.has(i) && !(facts.flags[i] & SIDECHAIN) && i !== leaf && !below(i);
  for (const [r, at] of lastFragment) {
    const fragments = facts.fragments.get(r) ?? [];
    // Fragments first: results are matched against every fragment of the response, recovered ones too.
    for (const i of fragments) if (offChain(i)) add(i, at);
    const results: number[] = [];
    for (const i of fragments) {
      if (!on.has(i)) continue;
      pushAll(results, facts.resultsByFragment.get(i) ?? []);
      for (const c of facts.calls[i] ?? []) pushAll(results, facts.resultsByCall.get(c) ?? []);
    }
    for (const i of results) if (offChain(i)) add(i, at);
  }
  const time = (i: number) => {
    const t = session.table.times[i];
    return Number.isNaN(t) ? 0 : t;
  };
  const out: number[] = [];
  path.forEach((i, k) => {
    out.push(i);
    const list = extra.get(k);
    if (list) pushAll(out, list.sort((x, y) => time(x) - time(y) || x - y));
  });
  return out;
}
