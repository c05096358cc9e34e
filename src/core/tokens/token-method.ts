import type { EntryTokens } from "./entry-tokens";
import { COUNT_ORDER, emptyCounts, type KindCounts } from "./kind-counts";

/**
 * Which per-entry figure an aggregate uses. "best" = calibrated, else exact, else the
 * estimate: the most trustworthy figure the table holds right now, so bars improve in
 * place as background counting fills the table in.
 */
export type TokenMethod = "estimate" | "exact" | "calibrated" | "best";

export interface Figured {
  tokens: number;
  byKind: KindCounts;
  /** Which figure was actually used (exact/calibrated may be missing for an entry). */
  source: "estimate" | "exact" | "calibrated";
}

function scaled(byKind: KindCounts, factor: number): KindCounts {
  const out = emptyCounts();
  for (const k of COUNT_ORDER) out[k] = byKind[k] * factor;
  return out;
}

/** One entry's figure by a method, falling back to the estimate where it is missing. */
export function figureOf(e: EntryTokens, method: TokenMethod): Figured {
  const wantsCal = method === "calibrated" || method === "best";
  if (wantsCal && e.calibrated !== undefined) {
    const base = e.exactByKind ?? e.estimateByKind;
    const baseTotal = e.exact ?? e.estimate;
    return { tokens: e.calibrated, byKind: baseTotal > 0 ? scaled(base, e.calibrated / baseTotal) : emptyCounts(), source: "calibrated" };
  }
  if ((method === "exact" || method === "best") && e.exact !== undefined && e.exactByKind) {
    return { tokens: e.exact, byKind: e.exactByKind, source: "exact" };
  }
  return { tokens: e.estimate, byKind: e.estimateByKind, source: "estimate" };
}

/** Rounds kind counts so they sum exactly to the rounded total (largest remainder). */
export function roundCounts(c: KindCounts): { tokens: number; byKind: KindCounts } {
  let total = 0;
  for (const k of COUNT_ORDER) total += c[k];
  const target = Math.round(total);
  const out = emptyCounts();
  let sum = 0;
  for (const k of COUNT_ORDER) {
    out[k] = Math.floor(c[k]);
    sum += out[k];
  }
  const order = [...COUNT_ORDER].sort((a, b) => c[b] - Math.floor(c[b]) - (c[a] - Math.floor(c[a])));
  for (let n = 0; sum < target && n < order.length; n++, sum++) out[order[n]]++;
  return { tokens: sum, byKind: out };
}
