import { type BudgetAllocation, type BudgetBreakdown, budgetBreakdown } from "../context/budget";
import { buildContext, type SessionContext } from "../context/build-context";
import type { SystemPrompt } from "../../../session/system-prompt";
import type { Session } from "../pi-session";
import { type AccuracyReport, accuracyReport } from "./accuracy";
import { type BpeCounter, countExact, gptTokenizerCounter } from "../../../tokens/bpe-counter";
import { type BranchTokens, branchTotals } from "./branch-totals";
import { applyCalibration, applyFit, inferSystemOverhead, type Calibration, calibrate, growthSteps } from "./calibration";
import type { EntryTokens, MeasureStats } from "../../../tokens/entry-tokens";
import type { LeafTokenOptions } from "../../../tokens/leaf-token-options";
import { instantTokens, measureEntries } from "./entry-tokens";
import { estimateTextTokens } from "../../../tokens/estimate";
import { type ContextShares, contextShares, type LeafTokens, leafTokens } from "./leaf-tokens";
import { TokenCache } from "../../../tokens/token-cache";
import { estimatePieces } from "../../../tokens/kind-counts";
import { messagePieces } from "./pi-pieces";
import { figureOf } from "../../../tokens/token-method";

export interface TokenReportOptions extends LeafTokenOptions {
  /** Leaf to report on (default: the last entry, where pi continues). */
  leafId?: string;
  /** Run the tokenizer (slow the first time, cached after). Implied by `accuracy`. */
  exact?: boolean;
  accuracy?: boolean;
  /** Cache file for per-entry counts (token-cache.ts); undefined = no file. */
  cachePath?: string;
  counter?: BpeCounter;
  /** Known system prompt (reconstructed or user-named): counted in the budget. */
  system?: SystemPrompt;
  allocation?: BudgetAllocation;
  /** Budget the allocation divides; default the compaction threshold. */
  budgetTotal?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Everything `ase tokens` prints, and what a panel needs for one leaf. */
export interface TokenReport {
  leaf: LeafTokens;
  context: SessionContext;
  /** Per entry, file order. */
  entries: EntryTokens[];
  calibration: Calibration;
  branches: BranchTokens[];
  shares: ContextShares;
  budget: BudgetBreakdown;
  systemTokens?: number;
  accuracy?: AccuracyReport;
  tokenizer?: string;
  measure: MeasureStats;
}

/**
 * The whole pipeline for one leaf: index figures, body pass (estimates, and tokenizer
 * counts through the cache when asked), calibration on the session's own usage, then
 * the leaf, branch, share and budget views. The cache is saved even when cancelled.
 */
export async function tokenReport(session: Session, opts: TokenReportOptions = {}): Promise<TokenReport> {
  const exact = !!(opts.exact || opts.accuracy);
  const counter = exact ? (opts.counter ?? gptTokenizerCounter()) : undefined;
  const cache = opts.cachePath !== undefined ? TokenCache.open(opts.cachePath, counter?.name ?? "o200k_base") : undefined;
  const entries = instantTokens(session);
  let measure: MeasureStats;
  try {
    measure = await measureEntries(session, entries, { counter, cache, signal: opts.signal, onProgress: opts.onProgress });
  } finally {
    try {
      cache?.save();
    } catch {
      // A cache that cannot be written only costs time next run.
    }
  }
  const steps = growthSteps(session);
  const calibration = calibrate(session, entries, steps);
  applyCalibration(entries, calibration);
  const context = buildContext(session, opts.leafId);
  const leaf = leafTokens(context, opts);
  let systemTokens: number | undefined;
  if (opts.system) {
    const t = opts.system.text;
    systemTokens = counter && calibration.exact ? applyFit(countExact(counter, t).tokens, calibration.exact) : applyFit(estimateTextTokens(t), calibration.estimate);
  }
  const budget = budgetBreakdown(context, {
    contextTokens: leaf.contextTokens,
    total: opts.budgetTotal ?? leaf.threshold,
    allocation: opts.allocation,
    systemTokens,
    // Only a context size built on recorded usage contains the system prompt at all (pi's pure estimate leaves it out).
    inferredSystemTokens: context.leafId && leaf.recorded > 0 ? inferSystemOverhead(session, entries, session.requireIndex(context.leafId)) : undefined,
    measure: (p) => {
      // Entry-backed parts use the table; a compaction's summary and retained tail share one entry, so size them alone.
      if (p.kind === "compaction-summary" || p.kind === "retained-tail") {
        return applyFit(estimatePieces(messagePieces(p.agent as unknown as Record<string, unknown>)), calibration.estimate);
      }
      return figureOf(entries[session.requireIndex(p.entryId)], "best").tokens;
    },
  });
  return {
    leaf,
    context,
    entries,
    calibration,
    branches: branchTotals(session, entries, "best"),
    shares: contextShares(session, entries, context, leaf.contextTokens, "best"),
    budget,
    ...(systemTokens !== undefined ? { systemTokens } : {}),
    ...(opts.accuracy ? { accuracy: accuracyReport(session, entries, steps) } : {}),
    ...(counter ? { tokenizer: counter.name } : {}),
    measure,
  };
}
