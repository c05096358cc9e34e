import type { EntryMeta } from "../../../store/entry-meta";
import type { Session } from "../pi-session";
import type { EntryTokens } from "../../../tokens/entry-tokens";

/**
 * Two consecutive LLM calls on one path, and what the provider says the prompt grew by
 * between them. The growth is exactly what the entries in between (the earlier call's
 * own output included, since it is sent back) cost in the provider's tokenizer, plus
 * per-message framing: the cleanest ground truth a session file offers for a method.
 */
export interface GrowthStep {
  /** Index of the earlier call (its output is part of the growth). */
  from: number;
  /** Index of the later call. */
  to: number;
  /** Entries whose content makes the growth: `from` and everything after it before `to`. */
  between: number[];
  /** (input + cacheRead + cacheWrite) of `to` minus that of `from`. */
  recordedGrowth: number;
}

/** The prompt size the provider billed for a call. */
export function promptTokens(m: EntryMeta): number {
  const u = m.usage;
  return u ? u.input + u.cacheRead + u.cacheWrite : 0;
}

/** A call whose usage pi itself trusts (not aborted, not failed, usage present). */
export function isTrustedCall(m: EntryMeta): boolean {
  return m.type === "message" && m.role === "assistant" && !!m.usage && m.stopReason !== "aborted" && m.stopReason !== "error" && promptTokens(m) > 0;
}

/**
 * Every step in the session, each later call paired with the previous trusted call on
 * its own path. Steps are dropped when a compaction lies between (the prompt shrank for a
 * reason no entry explains), when the model changed (another tokenizer), or when the
 * prompt did not grow (a provider-side anomaly).
 */
export function growthSteps(session: Session): GrowthStep[] {
  const metas = session.metas;
  const parent = session.tree.parent;
  const steps: GrowthStep[] = [];
  for (let to = 0; to < metas.length; to++) {
    if (!isTrustedCall(metas[to])) continue;
    const between: number[] = [];
    let cur = parent[to];
    let from = -1;
    while (cur >= 0) {
      const m = metas[cur];
      if (m.type === "compaction") break;
      between.push(cur);
      if (isTrustedCall(m)) {
        from = cur;
        break;
      }
      cur = parent[cur];
    }
    if (from < 0 || metas[from].model !== metas[to].model) continue;
    const growth = promptTokens(metas[to]) - promptTokens(metas[from]);
    if (growth <= 0) continue;
    steps.push({ from, to, between: between.reverse(), recordedGrowth: growth });
  }
  return steps;
}

/** A per-entry figure picked from the table (e.g. exact), or undefined where missing. */
export type Figure = (e: EntryTokens) => number | undefined;

export const byEstimate: Figure = (e) => e.estimate;
export const byPi: Figure = (e) => e.pi;
export const byExact: Figure = (e) => e.exact;

/**
 * A method's correction: tokens ~ factor x figure + perEntry for each entry that carries
 * content. The per-entry term is the framing the provider adds around every message
 * (role markers, tool-use ids and block structure) that no text count sees; a pure
 * factor has to absorb it and then overshoots long entries (measured on the real
 * sessions: factor alone ~1.45 with median error 12-22%; factor ~1.15-1.25 plus ~25-35
 * tokens per entry, median error ~5-6%).
 */
export interface Fit {
  factor: number;
  perEntry: number;
}

/** What a method predicts for a step's growth; undefined if any entry lacks the figure. */
export function predictGrowth(step: GrowthStep, table: readonly EntryTokens[], figure: Figure, fit?: Fit): number | undefined {
  let sum = 0;
  for (const i of step.between) {
    const v = figure(table[i]);
    if (v === undefined) return undefined;
    sum += fit && v > 0 ? fit.factor * v + fit.perEntry : v;
  }
  return sum;
}

/** The k-th smallest of a[lo..hi] (Hoare's selection); reorders a. */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i++] = a[j];
        a[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}

/**
 * The median, found by selection rather than a sort: the fit below takes 162 medians of
 * every step in the session, and sorting made `ase tokens` of a 400 MB session spend
 * 8.7 s here. Same value as sorting (the mean of the middle two for an even count).
 */
export function median(xs: ArrayLike<number>): number {
  const n = xs.length;
  const a = Float64Array.from(xs);
  const hi = select(a, n >> 1);
  if (n % 2) return hi;
  // After selecting n/2, everything before it is <= it: the other middle is their maximum.
  let lo = a[0];
  for (let k = 1; k < n >> 1; k++) if (a[k] > lo) lo = a[k];
  return (lo + hi) / 2;
}

const MAX_PER_ENTRY = 80;

/**
 * Fits factor and per-entry overhead for minimum median relative error: for each
 * overhead 0..80 the factor is the median of (recorded - overhead x entries) / figure,
 * and the pair with the lowest median error wins. Medians, not least squares, because a
 * few steps are far off for reasons no tokenizer sees (thinking the provider drops from
 * earlier turns, cache accounting), and squares would let them set the fit.
 */
export function fitFactor(steps: readonly GrowthStep[], table: readonly EntryTokens[], figure: Figure): Fit | undefined {
  const rows: Array<{ r: number; x: number; m: number }> = [];
  for (const s of steps) {
    let x = 0;
    let m = 0;
    let ok = true;
    for (const i of s.between) {
      const v = figure(table[i]);
      if (v === undefined) {
        ok = false;
        break;
      }
      if (v > 0) {
        x += v;
        m++;
      }
    }
    if (ok && x > 0) rows.push({ r: s.recordedGrowth, x, m });
  }
  if (!rows.length) return undefined;
  let best: (Fit & { err: number }) | undefined;
  for (let b = 0; b <= MAX_PER_ENTRY; b++) {
    const a = median(rows.map((w) => (w.r - b * w.m) / w.x));
    if (!(a > 0)) break;
    const err = median(rows.map((w) => Math.abs((a * w.x + b * w.m) / w.r - 1)));
    if (!best || err < best.err) best = { factor: a, perEntry: b, err };
  }
  return best ? { factor: best.factor, perEntry: best.perEntry } : undefined;
}

export interface Calibration {
  /** Steps available in the session. */
  steps: number;
  /** Correction for the instant estimate ({1, 0} when nothing could be fitted). */
  estimate: Fit;
  /** Correction for the tokenizer counts, when they were computed. */
  exact?: Fit;
  /** False when the session has no usable recorded usage: no correction applied. */
  fitted: boolean;
}

/** Fits both corrections on the whole session (the accuracy report fits on half instead). */
export function calibrate(session: Session, table: readonly EntryTokens[], steps = growthSteps(session)): Calibration {
  const est = fitFactor(steps, table, byEstimate);
  const exact = fitFactor(steps, table, byExact);
  return { steps: steps.length, estimate: est ?? { factor: 1, perEntry: 0 }, ...(exact ? { exact } : {}), fitted: est !== undefined };
}

/** Applies a fit to one figure (0 stays 0: an entry with no content gets no framing). */
export function applyFit(v: number, fit: Fit): number {
  return v > 0 ? Math.round(fit.factor * v + fit.perEntry) : 0;
}

/**
 * Sets `calibrated` on every entry: the corrected tokenizer count where counted, else
 * the corrected estimate. Recorded usage still wins wherever it exists (leaf context
 * size); calibrated figures are for the parts without.
 */
export function applyCalibration(table: EntryTokens[], cal: Calibration): void {
  for (const e of table) {
    e.calibrated = e.exact !== undefined && cal.exact ? applyFit(e.exact, cal.exact) : applyFit(e.estimate, cal.estimate);
  }
}

/**
 * System prompt + tool definitions as the provider counted them: the first trusted call
 * on the path root..leaf minus the calibrated size of the messages before it (the
 * prompt is the same for every call; the first one has the fewest messages to subtract,
 * so the least error). Undefined without such a call.
 */
export function inferSystemOverhead(session: Session, table: readonly EntryTokens[], leaf: number): number | undefined {
  let before = 0;
  for (const i of session.tree.path(leaf)) {
    const m = session.metas[i];
    if (isTrustedCall(m)) return Math.max(0, promptTokens(m) - before);
    before += table[i].calibrated ?? table[i].estimate;
  }
  return undefined;
}
