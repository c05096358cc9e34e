import { estimateTextTokens, IMAGE_TOKENS } from "./estimate";
import type { TokenKind } from "./token-vocabulary";

/**
 * The one token vocabulary in the order per-entry counts are stored (the token cache keeps
 * per-kind counts as arrays in this order, so it never changes).
 */
export const COUNT_ORDER: readonly EntryTokenKind[] = ["user", "assistant", "thinking", "toolCall", "toolResult", "image", "summary", "custom", "bash"];

export type { TokenKind };

/** The kinds an entry's own tokens can be (the system prompt and tools belong to no entry). */
export type EntryTokenKind = Exclude<TokenKind, "system">;

/** Tokens per kind; every kind is always present (0 when absent) so consumers never test for undefined. */
export type KindCounts = Record<EntryTokenKind, number>;

export function emptyCounts(): KindCounts {
  return { user: 0, assistant: 0, thinking: 0, toolCall: 0, toolResult: 0, image: 0, summary: 0, custom: 0, bash: 0 };
}

export function addCounts(into: KindCounts, from: KindCounts, factor = 1): KindCounts {
  for (const k of COUNT_ORDER) into[k] += from[k] * factor;
  return into;
}

export function sumCounts(c: KindCounts): number {
  let s = 0;
  for (const k of COUNT_ORDER) s += c[k];
  return s;
}

/** Packs counts into a fixed-order array (the cache stores this compact form). */
export function countsToArray(c: KindCounts): number[] {
  return COUNT_ORDER.map((k) => c[k]);
}

export function countsFromArray(a: ArrayLike<number>): KindCounts {
  const c = emptyCounts();
  for (let i = 0; i < COUNT_ORDER.length; i++) c[COUNT_ORDER[i]] = a[i] ?? 0;
  return c;
}

/** One run of text as the LLM sees it, tagged with the kind it counts under. */
export interface TextPiece {
  kind: EntryTokenKind;
  text: string;
}

/** The content an entry puts into the context: text pieces plus a number of images. */
export interface ContentPieces {
  texts: TextPiece[];
  /** Images count under kind "image" (base64 data is never tokenized as text). */
  images: number;
}

/** Instant estimate of pieces (CJK-aware chars/4, images at pi's 1,200). */
export function estimatePieces(p: ContentPieces): number {
  let t = p.images * IMAGE_TOKENS;
  for (const piece of p.texts) t += estimateTextTokens(piece.text);
  return t;
}
