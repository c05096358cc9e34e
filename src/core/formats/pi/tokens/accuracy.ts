import type { Session } from "../pi-session";
import { byEstimate, byExact, byPi, type Figure, type Fit, fitFactor, type GrowthStep, growthSteps, predictGrowth } from "./calibration";
import type { EntryTokens } from "../../../tokens/entry-tokens";

/** How far one method lands from the recorded growth, on the held-out steps. */
export interface MethodAccuracy {
  method: "pi-chars/4" | "estimate" | "tokenizer" | "calibrated" | "estimate-calibrated";
  /** Relative error |predicted - recorded| / recorded: median and 90th percentile. */
  median: number;
  p90: number;
  /** Mean signed error (predicted/recorded - 1): negative = undercounts. */
  bias: number;
  /** Held-out steps the figures rest on. */
  n: number;
}

export interface AccuracyReport {
  steps: number;
  fitSteps: number;
  testSteps: number;
  /** Corrections fitted on the fit half only. */
  exactFit?: Fit;
  estimateFit?: Fit;
  methods: MethodAccuracy[];
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

function score(method: MethodAccuracy["method"], test: readonly GrowthStep[], table: readonly EntryTokens[], figure: Figure, fit?: Fit): MethodAccuracy | undefined {
  const errs: number[] = [];
  let signed = 0;
  for (const s of test) {
    const p = predictGrowth(s, table, figure, fit);
    if (p === undefined) continue;
    const ratio = p / s.recordedGrowth;
    errs.push(Math.abs(ratio - 1));
    signed += ratio - 1;
  }
  if (!errs.length) return undefined;
  errs.sort((a, b) => a - b);
  return { method, median: quantile(errs, 0.5), p90: quantile(errs, 0.9), bias: signed / errs.length, n: errs.length };
}

/**
 * Grades each method against the provider's own counts: the growth of the recorded
 * prompt between consecutive calls (calibration.ts). Steps alternate between a fit half
 * and a test half (even/odd in file order, so both halves span the whole session and
 * its drift); factors are fitted on the first and every figure is scored on the second,
 * so calibration is never graded on its own training data. Needs `exact` in the table
 * for the tokenizer rows (they are left out otherwise).
 */
export function accuracyReport(session: Session, table: readonly EntryTokens[], steps = growthSteps(session)): AccuracyReport {
  const fit = steps.filter((_, k) => k % 2 === 0);
  const test = steps.filter((_, k) => k % 2 === 1);
  const exactFit = fitFactor(fit, table, byExact);
  const estimateFit = fitFactor(fit, table, byEstimate);
  const rows = [
    score("pi-chars/4", test, table, byPi),
    score("estimate", test, table, byEstimate),
    score("tokenizer", test, table, byExact),
    exactFit ? score("calibrated", test, table, byExact, exactFit) : undefined,
    estimateFit ? score("estimate-calibrated", test, table, byEstimate, estimateFit) : undefined,
  ];
  return {
    steps: steps.length,
    fitSteps: fit.length,
    testSteps: test.length,
    ...(exactFit ? { exactFit } : {}),
    ...(estimateFit ? { estimateFit } : {}),
    methods: rows.filter((r): r is MethodAccuracy => r !== undefined),
  };
}
