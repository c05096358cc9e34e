import { type PriceOverrides, priceFor, priceTokens, type TokenFigures } from "../tokens/prices";
import type { CostStep } from "./session-cost";

/**
 * One model's steps: what the agent recorded beside what our price table makes of the same
 * tokens, so a user can see that the figures add up (or by how much they do not).
 */
export interface ReconcileRow {
  model: string;
  steps: number;
  tokens: TokenFigures;
  /** Steps that carry the agent's own cost (pi's usage.cost), and its sum. */
  recordedSteps: number;
  recordedUsd: number;
  /** Our price for the tokens of those same steps; null when the model has no price here. */
  pricedRecordedUsd: number | null;
  /** pricedRecordedUsd - recordedUsd; null when there is nothing to compare. */
  difference: number | null;
  /** Steps without a recorded cost, priced by us (what the total uses for them). */
  pricedOnlySteps: number;
  pricedOnlyUsd: number;
  /** Steps with neither: not in the total. */
  unpricedSteps: number;
  /** The price that was used: a table key or a setting's key; null when none matched. */
  priceKey: string | null;
  priceSource: "table" | "override" | null;
}

export interface Reconciliation {
  rows: ReconcileRow[];
  /** Every row added up (difference: over the rows that have one). */
  total: Omit<ReconcileRow, "model" | "priceKey" | "priceSource">;
}

function emptyRow(model: string): ReconcileRow {
  return { model, steps: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, recordedSteps: 0, recordedUsd: 0, pricedRecordedUsd: null, difference: null, pricedOnlySteps: 0, pricedOnlyUsd: 0, unpricedSteps: 0, priceKey: null, priceSource: null };
}

/** Collects steps (one at a time: a total over many files keeps no step) into rows per model. */
export class Reconciler {
  private readonly rows = new Map<string, ReconcileRow>();

  constructor(private readonly prices: PriceOverrides = {}) {}

  add(step: CostStep): void {
    const model = step.model ?? "(unknown)";
    const p = priceFor(step.model, this.prices);
    let row = this.rows.get(model);
    if (!row) {
      row = emptyRow(model);
      if (p) {
        row.priceKey = p.key;
        row.priceSource = p.source;
      }
      this.rows.set(model, row);
    }
    row.steps++;
    row.tokens.input += step.usage.input;
    row.tokens.output += step.usage.output;
    row.tokens.cacheRead += step.usage.cacheRead;
    row.tokens.cacheWrite += step.usage.cacheWrite;
    const ours = p ? priceTokens(step.usage, p.price) : undefined;
    if (step.cost.source === "recorded") {
      row.recordedSteps++;
      row.recordedUsd += step.cost.usd;
      if (ours !== undefined) row.pricedRecordedUsd = (row.pricedRecordedUsd ?? 0) + ours;
    } else if (ours !== undefined) {
      row.pricedOnlySteps++;
      row.pricedOnlyUsd += ours;
    } else {
      row.unpricedSteps++;
    }
  }

  result(): Reconciliation {
    const rows = [...this.rows.values()].sort((a, b) => b.recordedUsd + b.pricedOnlyUsd - (a.recordedUsd + a.pricedOnlyUsd) || a.model.localeCompare(b.model));
    const total = { ...emptyRow(""), model: undefined, priceKey: undefined, priceSource: undefined };
    for (const r of rows) {
      // Compared only where both sides exist: the agent's record and our price.
      r.difference = r.pricedRecordedUsd === null || r.recordedSteps === 0 ? null : r.pricedRecordedUsd - r.recordedUsd;
      total.steps += r.steps;
      for (const k of ["input", "output", "cacheRead", "cacheWrite"] as const) total.tokens[k] += r.tokens[k];
      total.recordedSteps += r.recordedSteps;
      total.recordedUsd += r.recordedUsd;
      total.pricedOnlySteps += r.pricedOnlySteps;
      total.pricedOnlyUsd += r.pricedOnlyUsd;
      total.unpricedSteps += r.unpricedSteps;
      if (r.difference !== null) {
        total.pricedRecordedUsd = (total.pricedRecordedUsd ?? 0) + (r.pricedRecordedUsd ?? 0);
        total.difference = (total.difference ?? 0) + r.difference;
      }
    }
    const { model: _m, priceKey: _k, priceSource: _s, ...sum } = total;
    return { rows, total: sum };
  }
}

/** The reconciliation of a set of steps (one session's, or a total's). */
export function reconcile(steps: Iterable<CostStep>, prices: PriceOverrides = {}): Reconciliation {
  const r = new Reconciler(prices);
  for (const s of steps) r.add(s);
  return r.result();
}

/**
 * Whether a difference is only floating-point rounding (a billionth of the recorded sum):
 * the agents add per-token prices in floating point, as we do, in another order.
 */
export function isZeroDifference(d: number | null, recordedUsd: number): boolean {
  return d !== null && Math.abs(d) <= Math.max(1e-9, Math.abs(recordedUsd) * 1e-9);
}
