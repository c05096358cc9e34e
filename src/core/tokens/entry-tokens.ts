import type { RecordedUsage } from "../store/entry-meta";
import type { BpeCounter } from "./bpe-counter";
import type { KindCounts } from "./kind-counts";
import type { TokenCache } from "./token-cache";

/**
 * Token figures for one entry, in the order of trust:
 * - `recorded`: the provider's usage on this entry (assistant calls; also tool results,
 *   compactions and branch summaries that did LLM work). Ground truth for the call.
 * - `estimate`: instant, no tokenizer. Before the body is read it is the format's own
 *   figure from the index, pi's chars/4 (`measured: false`); after, chars/4 with CJK
 *   counted per character and every image at 1,200 tokens (`measured: true`).
 * - `exact`: o200k_base BPE counts (an approximation for Claude; see bpe-counter.ts).
 * - `calibrated`: exact (else estimate) times the factor fitted on this session's own
 *   recorded usage (calibration.ts).
 * Every figure is what the entry ADDS to a context, split by kind for the bars.
 */
export interface EntryTokens {
  /** Position in file order (Session.metas index). */
  index: number;
  id: string;
  /** The message role for `message` entries, else the entry type. */
  kind: string;
  /** pi's own chars/4 rule, exactly (what pi's compaction and context size use). */
  pi: number;
  estimate: number;
  estimateByKind: KindCounts;
  /** Whether `estimate` comes from the entry's body (true) or the index (false). */
  measured: boolean;
  exact?: number;
  exactByKind?: KindCounts;
  /** Characters estimated instead of tokenized because a time budget ran out (0 normally). */
  fallbackChars?: number;
  calibrated?: number;
  recorded?: RecordedUsage;
}

export interface MeasureOptions {
  /** Also count with a real tokenizer (slow: ~10 MB/s); without it only estimates are refined. */
  counter?: BpeCounter;
  /** Content-hash cache (token-cache.ts); the caller saves it when it wants. */
  cache?: TokenCache;
  /** Entries to measure (default: all); e.g. the leaf's path first, the rest later. */
  indices?: readonly number[];
  signal?: AbortSignal;
  /** Called after each time slice and at the end. */
  onProgress?: (done: number, total: number) => void;
  /** Work this long between yields to the event loop (the extension host must stay responsive). */
  sliceMs?: number;
}

export interface MeasureStats {
  entries: number;
  bytes: number;
  cacheHits: number;
  tokenized: number;
  ms: number;
}
