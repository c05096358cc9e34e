import {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  bashExecutionText,
} from "../context/convert";
import type { BashExecutionMessage } from "../model/messages";
import { estimateTextTokens, IMAGE_TOKENS } from "../../../tokens/estimate";
import type { TokenKind } from "../../../session/token-vocabulary";

/**
 * The one token vocabulary in the order pi's counts are stored (the token cache keeps
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

type Obj = Record<string, unknown>;

function blocks(content: unknown, kind: EntryTokenKind, out: ContentPieces): void {
  if (typeof content === "string") {
    if (content) out.texts.push({ kind, text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  for (const b of content as Obj[]) {
    if (!b || typeof b !== "object") continue;
    if (b.type === "text" && typeof b.text === "string") out.texts.push({ kind, text: b.text });
    else if (b.type === "image") out.images++;
  }
}

/** Pieces of one agent message (a `message` entry's body, or a retained-tail message). */
export function messagePieces(m: Obj, out: ContentPieces = { texts: [], images: 0 }): ContentPieces {
  switch (m.role) {
    case "user":
      blocks(m.content, "user", out);
      break;
    case "assistant":
      for (const b of Array.isArray(m.content) ? (m.content as Obj[]) : []) {
        if (!b || typeof b !== "object") continue;
        if (b.type === "text" && typeof b.text === "string") out.texts.push({ kind: "assistant", text: b.text });
        else if (b.type === "thinking" && typeof b.thinking === "string") out.texts.push({ kind: "thinking", text: b.thinking });
        // Same text pi's estimate measures for a call: the name plus the JSON arguments.
        else if (b.type === "toolCall") out.texts.push({ kind: "toolCall", text: String(b.name ?? "") + (JSON.stringify(b.arguments ?? {}) ?? "") });
      }
      break;
    case "toolResult":
      blocks(m.content, "toolResult", out);
      break;
    case "custom":
    case "hookMessage": // v1/v2 files: same role under its old name
      blocks(m.content, "custom", out);
      break;
    case "bashExecution":
      // A `!!` run is never sent to the LLM: it adds nothing.
      if (!m.excludeFromContext) out.texts.push({ kind: "bash", text: bashExecutionText(m as unknown as BashExecutionMessage) });
      break;
    case "branchSummary":
      if (typeof m.summary === "string" && m.summary) out.texts.push({ kind: "summary", text: BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX });
      break;
    case "compactionSummary":
      if (typeof m.summary === "string") out.texts.push({ kind: "summary", text: COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX });
      break;
  }
  return out;
}

/**
 * What a raw entry puts into the context, as the LLM text pi's convertToLlm produces
 * (summaries wrapped, bash runs formatted), so tokenizer counts measure what is sent.
 * A compaction's retained tail counts under the compaction entry, as in buildContext.
 */
export function entryPieces(entry: Obj): ContentPieces {
  const out: ContentPieces = { texts: [], images: 0 };
  switch (entry.type) {
    case "message":
      if (entry.message && typeof entry.message === "object") messagePieces(entry.message as Obj, out);
      break;
    case "compaction":
      messagePieces({ role: "compactionSummary", summary: typeof entry.summary === "string" ? entry.summary : "" }, out);
      if (Array.isArray(entry.retainedTail)) for (const m of entry.retainedTail as Obj[]) if (m && typeof m === "object") messagePieces(m, out);
      break;
    case "branch_summary":
      messagePieces({ role: "branchSummary", summary: entry.summary }, out);
      break;
    case "custom_message":
      blocks(entry.content, "custom", out);
      break;
  }
  return out;
}

/** The coarse kind of an entry from its index record alone (no body read): used for instant bars. */
export function primaryKind(type: string, role: string | undefined): EntryTokenKind | undefined {
  if (type === "message") {
    switch (role) {
      case "user":
        return "user";
      case "assistant":
        return "assistant";
      case "toolResult":
        return "toolResult";
      case "bashExecution":
        return "bash";
      case "custom":
        return "custom";
      default:
        return undefined;
    }
  }
  if (type === "compaction" || type === "branch_summary") return "summary";
  if (type === "custom_message") return "custom";
  return undefined;
}

/** Instant estimate of pieces (CJK-aware chars/4, images at pi's 1,200). */
export function estimatePieces(p: ContentPieces): number {
  let t = p.images * IMAGE_TOKENS;
  for (const piece of p.texts) t += estimateTextTokens(piece.text);
  return t;
}
