import { loadTokenizer } from "../lazy/lazy-bundles";
import { charsToTokens } from "./estimate";
import { chunkAtWhitespace, DEFAULT_CHUNK_CHARS } from "./text-chunks";

/**
 * A real BPE tokenizer behind a one-method interface, so the counting pipeline does not
 * care which library runs. We ship gpt-tokenizer (o200k_base): on the real sessions it
 * gives the same counts as js-tiktoken (checked in test/core/tokens-bpe.test.ts) and
 * runs ~8x faster (docs/performance.md). js-tiktoken stays as the cross-check.
 *
 * o200k_base is what OpenAI's current models use. No offline tokenizer is exact for
 * Claude: for Anthropic models these counts are an APPROXIMATION (they undercount by
 * ~25% on the real sessions; see calibration.ts for the per-session correction).
 */
export interface BpeCounter {
  /** Stable name; part of the cache key so counts of different tokenizers never mix. */
  readonly name: string;
  count(text: string): number;
}

/** Special-token strings in session text (e.g. "<|endoftext|>") are plain text to us: never throw on them. */
const PLAIN = { disallowedSpecial: new Set<string>() };

/**
 * Loads the tokenizer bundle and builds its tables now (tens of ms), not inside the first
 * count, whose time budget (countExact) is meant for the text alone.
 */
export function gptTokenizerCounter(): BpeCounter {
  const { countTokens } = loadTokenizer();
  return { name: "o200k_base", count: (text) => countTokens(text, PLAIN) };
}

/** Whether a count is the tokenizer's or fell back to chars/4 for part of the text. */
export interface ExactCount {
  tokens: number;
  /** Characters that were estimated (chars/4) because the time budget ran out. */
  fallbackChars: number;
}

export interface ExactCountOptions {
  chunkChars?: number;
  /**
   * Time budget for one text: a fixed part plus a part per 1,000 characters, far above
   * the normal rate (~0.1 ms per 1,000 chars), so only pathological text (long runs of
   * one character class) hits it; the rest of that text is then estimated.
   */
  budgetMs?: number;
  budgetMsPer1000?: number;
  now?: () => number;
}

/** Counts text piecewise (see text-chunks.ts) under a time budget with a chars/4 fallback. */
export function countExact(counter: BpeCounter, text: string, opts: ExactCountOptions = {}): ExactCount {
  const pieces = chunkAtWhitespace(text, opts.chunkChars ?? DEFAULT_CHUNK_CHARS);
  const now = opts.now ?? performance.now.bind(performance);
  const budget = (opts.budgetMs ?? 50) + (text.length / 1000) * (opts.budgetMsPer1000 ?? 5);
  const start = now();
  let tokens = 0;
  let fallbackChars = 0;
  for (let i = 0; i < pieces.length; i++) {
    if (fallbackChars || now() - start > budget) {
      fallbackChars += pieces[i].length;
      tokens += charsToTokens(pieces[i].length);
    } else {
      tokens += counter.count(pieces[i]);
    }
  }
  return { tokens, fallbackChars };
}
