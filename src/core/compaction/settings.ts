import type { ModelRef } from "../context/build-context";

/** pi's compaction settings (settings.json `compaction`), with pi's defaults. */
export interface CompactionSettings {
  /** Room kept free for the summary and the next reply; sizes the summary's max tokens. */
  reserveTokens: number;
  /** How much recent conversation stays verbatim after the cut. */
  keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { reserveTokens: 16384, keepRecentTokens: 20000 };

/**
 * `summarize`: pi's default (LLM summary of everything before the cut).
 * `truncate`: no LLM; the part before the cut is dropped and the summary says so.
 * `smart`: like summarize, but tool calls, errors and long messages are kept word for
 * word inside the summary text (see smart-select.ts).
 */
export type CompactionStrategy = "summarize" | "truncate" | "smart";
export const STRATEGIES: readonly CompactionStrategy[] = ["summarize", "truncate", "smart"];

/**
 * Used when the session's own model is not an Anthropic one (we only talk to the
 * Anthropic Messages API) or the session has no model yet.
 */
export const DEFAULT_SUMMARY_MODEL = "claude-sonnet-4-6";


/** Max output tokens, as pi sizes them. */
export function summaryMaxTokens(s: CompactionSettings): number {
  return Math.floor(0.8 * s.reserveTokens);
}
export function turnPrefixMaxTokens(s: CompactionSettings): number {
  return Math.floor(0.5 * s.reserveTokens);
}
export const BRANCH_SUMMARY_MAX_TOKENS = 2048;

/** The model to summarize with: the caller's, else the session's when it is Anthropic's. */
export function resolveSummaryModel(sessionModel: ModelRef | null, requested?: string): { model: string; source: "requested" | "session" | "default" } {
  if (requested) return { model: requested, source: "requested" };
  if (sessionModel && sessionModel.provider === "anthropic" && sessionModel.modelId) return { model: sessionModel.modelId, source: "session" };
  return { model: DEFAULT_SUMMARY_MODEL, source: "default" };
}

/**
 * The model to try once when the summary model is not found (404): the default, when the
 * model was merely the session's own, which may have been retired since it was recorded.
 * A model the caller named is never swapped.
 */
export function summaryFallbackModel(source: "requested" | "session" | "default"): string | undefined {
  return source === "session" ? DEFAULT_SUMMARY_MODEL : undefined;
}

export function withDefaults(partial: Partial<CompactionSettings> | undefined): CompactionSettings {
  const s = { ...DEFAULT_COMPACTION_SETTINGS, ...stripUndefined(partial ?? {}) };
  for (const [k, v] of Object.entries(s)) {
    if (!Number.isInteger(v) || v < 0) throw new Error(`compaction setting ${k} must be a whole number >= 0, got ${v}`);
  }
  return s;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
