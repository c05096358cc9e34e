import type { LlmOptions, SummaryProgress, SummaryUsage } from "./summarizer";

/**
 * The ways a compaction may shrink a context: the one vocabulary every format's
 * compaction and every front end speaks (a format offers those it has, see
 * FormatCompaction.strategies).
 * `summarize`: an LLM summary of everything before the kept part.
 * `truncate`: no LLM; the part before the cut is dropped and the summary says so.
 * `smart`: like summarize, but tool calls, errors and long messages are kept word for
 * word inside the summary text.
 */
export type CompactionStrategy = "summarize" | "truncate" | "smart";
export const STRATEGIES: readonly CompactionStrategy[] = ["summarize", "truncate", "smart"];

/** Whether a strategy calls a model (truncate never does: it needs no API key). */
export function strategyCallsModel(strategy: CompactionStrategy): boolean {
  return strategy !== "truncate";
}

/** How much stays verbatim and how much room the summary gets (pi's settings.json `compaction`). */
export interface CompactionSettings {
  /** Room kept free for the summary and the next reply; sizes the summary's max tokens. */
  reserveTokens: number;
  /** How much recent conversation stays verbatim after the cut. */
  keepRecentTokens: number;
}

/** A message a plan summarizes: the entry it came from and its estimated size. */
export interface PlannedPart {
  entryId: string;
  tokens: number;
}

/** What a `smart` plan keeps verbatim inside the summary. */
export interface VerbatimSelection {
  items: ReadonlyArray<{ reason: "tool-call" | "error" | "long" }>;
  tokens: number;
  budget: number;
  /** Items left to the summary because the budget was spent. */
  overBudget: number;
}

/**
 * Everything a compaction by a cut point would do, computed without any network: the
 * dry run every front end shows before a paid call (the CLI's --dry-run, the palette's
 * plan-first dialog).
 */
export interface CompactionPlan {
  sessionPath: string;
  leafId: string;
  strategy: CompactionStrategy;
  settings: CompactionSettings;
  /** The context size for the leaf (last recorded usage + estimate of the rest). */
  tokensBefore: number;
  firstKeptEntryId: string;
  /** Role or entry type at the cut, in the format's own words (a role such as "user", or a line type). */
  cutAt: string;
  isSplitTurn: boolean;
  turnStartEntryId?: string;
  previousCompactionId?: string;
  previousSummary?: string;
  /** Messages since the previous compaction, before the cut (or before the split turn). */
  toSummarize: readonly PlannedPart[];
  /** The split turn's part before the cut. */
  turnPrefix: readonly PlannedPart[];
  summarizeTokens: number;
  turnPrefixTokens: number;
  /** Estimated size of what stays verbatim (firstKept..leaf). */
  keptTokens: number;
  keptMessages: number;
  readFiles: string[];
  modifiedFiles: string[];
  /** Summary model (for summarize/smart). */
  model: string;
  modelSource: "requested" | "session" | "default";
  maxSummaryTokens: number;
  maxTurnPrefixTokens: number;
  /** Upper estimate of the context after: kept + the longest summary allowed (exact for truncate). */
  tokensAfterEstimate: number;
  /** `truncate`: the exact summary text that would be written. */
  truncateSummary?: string;
  /** `smart`: what is kept verbatim. */
  smart?: VerbatimSelection;
  notes: string[];
}

/** What was written by a compaction, for every front end. */
export interface CompactionOutcome {
  /** The first entry written (the compaction entry, or the boundary line). */
  entryId: string;
  /** What was written: the chosen strategy, or truncate after a fallback. */
  strategy: CompactionStrategy;
  fallbackReason?: string;
  tokensBefore: number;
  /** Estimate of the context the new leaf gives. */
  tokensAfter: number;
  usage?: SummaryUsage;
  /** The model that wrote the summary. */
  model?: string;
  /** The plan it followed, for formats that plan by a cut point. */
  plan?: CompactionPlan;
  /** What was written, as plain lines. */
  lines: string[];
}

/** Why there is nothing to compact; not a failure of the file or the network. */
export class NothingToCompactError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NothingToCompactError";
  }
}

/** What a compaction reports while it runs. */
export type CompactionProgress = SummaryProgress | { type: "fallback"; reason: string } | { type: "writing" };

/** What shapes a plan; a format without strategies takes only `project`. */
export interface CompactionPlanOptions {
  /**
   * The folders the user opened (workspace folders, the CLI's working directory); a
   * compaction reads files into its prompt only inside them.
   */
  project?: readonly string[];
  strategy?: CompactionStrategy;
  settings?: Partial<CompactionSettings>;
  /** The summary model asked for. */
  model?: string;
}

export interface CompactionRunOptions extends CompactionPlanOptions {
  /** Needed by every strategy that calls a model. */
  llm?: LlmOptions;
  customInstructions?: string;
  /** After the retries of a transient failure, write the format's fallback instead. */
  allowFallback?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: CompactionProgress) => void;
}
