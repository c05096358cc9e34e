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



/** Max output tokens, as pi sizes them. */
export function summaryMaxTokens(s: CompactionSettings): number {
  return Math.floor(0.8 * s.reserveTokens);
}
export function turnPrefixMaxTokens(s: CompactionSettings): number {
  return Math.floor(0.5 * s.reserveTokens);
}
export const BRANCH_SUMMARY_MAX_TOKENS = 2048;

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
