import type { CompactionSettings } from "../../../compaction/plan";

// The settings and strategies are the neutral vocabulary (src/core/compaction/plan.ts); pi has all three strategies.
export { type CompactionSettings, type CompactionStrategy, STRATEGIES } from "../../../compaction/plan";

/** pi's defaults for its compaction settings (settings.json `compaction`). */
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { reserveTokens: 16384, keepRecentTokens: 20000 };

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
