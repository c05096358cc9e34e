import type { ContextMessage, FormatContext, PartKind } from "../session/session-format";
import type { SessionReader } from "../session/session-reader";
import { type LeafTokenSummary, leafTokenSummary, messageTokens } from "../usage/format-tokens";
import { TOKEN_KINDS } from "../tokens/token-vocabulary";
import { alignMessages, type Alignment } from "./align";
import { messageText } from "./message-text";
import { splitWords, WORD_DIFF_LIMITS, type WordDiff, type WordRun, wordDiff } from "../util/word-diff";
import { pushAll } from "../util/push-all";

/** One side of a comparison: a leaf (position; -1: the empty context) of a session. */
export interface ContextSide {
  session: SessionReader;
  leaf: number;
}

/** A message of one side. */
export interface MessageRef {
  /** Position in that side's context (0-based). */
  index: number;
  entryId: string;
  kind: PartKind;
  /** chars/4 estimate of the message. */
  tokens: number;
}

export type DiffOp =
  | { op: "same"; a: MessageRef; b: MessageRef }
  | { op: "onlyA"; a: MessageRef }
  | { op: "onlyB"; b: MessageRef }
  | { op: "changed"; a: MessageRef; b: MessageRef; words: WordRun[]; replaced: boolean };

/** A figure on both sides and B minus A. */
export interface Delta {
  a: number;
  b: number;
  delta: number;
}

/** What a side is: its file, leaf and sizes. */
export interface SideFacts {
  path: string;
  agent: string;
  leafId: string | null;
  contextTokens: number;
  messages: number;
  tokens: LeafTokenSummary;
}

export interface ContextDiff {
  a: SideFacts;
  b: SideFacts;
  /** The messages both sides send first, identical and in the same order. */
  sharedPrefix: { messages: number; tokens: number };
  /** Everything after the shared prefix, in order. */
  ops: DiffOp[];
  tokens: {
    /** Estimated tokens by part kind, kinds either side has, in the vocabulary's order. */
    byKind: Partial<Record<PartKind, Delta>>;
    /** Unrecorded overhead (system prompt, tools, ...) where a side records usage; null on a side that does not. */
    overhead?: { a: number | null; b: number | null; delta: number | null };
    /** Estimated tokens of all messages (the sum of byKind). */
    messages: Delta;
    /** Context size as the agent counts it (recorded usage + estimates after it). */
    total: Delta;
  };
  /** The two contexts compared, for rendering their messages. */
  contexts: { a: FormatContext; b: FormatContext };
}

function side(s: ContextSide): { ctx: FormatContext; facts: SideFacts } {
  const f = s.session.format;
  const ctx = f.context(s.session, s.leaf);
  const tokens = leafTokenSummary(s.session, f, s.leaf, { ctx });
  return { ctx, facts: { path: s.session.path, agent: f.agent, leafId: ctx.leafId, contextTokens: tokens.contextTokens, messages: ctx.messages.length, tokens } };
}

function delta(a: number, b: number): Delta {
  return { a, b, delta: b - a };
}

function refs(messages: readonly ContextMessage[]): MessageRef[] {
  return messages.map((m, index) => ({ index, entryId: m.entryId, kind: m.kind, tokens: messageTokens(m.message) }));
}

function tokenDeltas(a: LeafTokenSummary, b: LeafTokenSummary): ContextDiff["tokens"] {
  const byKind: Partial<Record<PartKind, Delta>> = {};
  for (const k of TOKEN_KINDS) {
    if (a.byKind[k] === undefined && b.byKind[k] === undefined) continue;
    byKind[k] = delta(a.byKind[k] ?? 0, b.byKind[k] ?? 0);
  }
  const oa = a.overhead?.tokens ?? null;
  const ob = b.overhead?.tokens ?? null;
  return {
    byKind,
    ...(oa !== null || ob !== null ? { overhead: { a: oa, b: ob, delta: oa !== null && ob !== null ? ob - oa : null } } : {}),
    messages: delta(a.estimated, b.estimated),
    total: delta(a.contextTokens, b.contextTokens),
  };
}

/**
 * Two messages of one kind paired by position share less than this part of their words
 * (of the longer one): they are two different messages, not one changed.
 */
export const MIN_SHARED_WORDS = 0.3;

/**
 * Word-diff steps one comparison may spend in all (about a second): past it, changed
 * messages are shown as replaced (WordDiffLimits.budget).
 */
export const WORD_DIFF_BUDGET = 50_000_000;

/** Words two texts could have in common at most (the words of both, counted with repeats). */
function sharedWordBound(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of b) {
    const c = counts.get(w);
    if (!c) continue;
    shared++;
    counts.set(w, c - 1);
  }
  return shared;
}

/** Whether a share of common words (of the longer text) makes the pair one message changed. */
const enough = (common: number, longer: number) => longer === 0 || common / longer >= MIN_SHARED_WORDS;

/** Whether a word diff kept enough words in common to call the pair one message changed. */
function similar(w: WordDiff): boolean {
  if (w.replaced) return false;
  const count = (ops: string) => w.runs.filter((r) => ops.includes(r.op)).reduce((s, r) => s + splitWords(r.text).length, 0);
  const common = count("=");
  return enough(common, Math.max(common + count("-"), common + count("+")));
}

function toOps(al: Alignment, ra: readonly MessageRef[], rb: readonly MessageRef[], ca: FormatContext, cb: FormatContext): DiffOp[] {
  const out: DiffOp[] = [];
  const limits = { ...WORD_DIFF_LIMITS, budget: { steps: WORD_DIFF_BUDGET } };
  for (const s of al.steps) {
    if (s.b === undefined) out.push({ op: "onlyA", a: ra[s.a as number] });
    else if (s.a === undefined) out.push({ op: "onlyB", b: rb[s.b] });
    else if (s.same) out.push({ op: "same", a: ra[s.a], b: rb[s.b] });
    else {
      const ta = messageText(ca.messages[s.a].message);
      const tb = messageText(cb.messages[s.b].message);
      // Paired by place only: two messages that cannot share enough words are two messages (no diff needed to know).
      if (!s.byId) {
        const wa = splitWords(ta);
        const wb = splitWords(tb);
        if (!enough(sharedWordBound(wa, wb), Math.max(wa.length, wb.length))) {
          out.push({ op: "onlyA", a: ra[s.a] }, { op: "onlyB", b: rb[s.b] });
          continue;
        }
      }
      const w = wordDiff(ta, tb, limits);
      if (s.byId || similar(w)) out.push({ op: "changed", a: ra[s.a], b: rb[s.b], words: w.runs, replaced: w.replaced });
      else out.push({ op: "onlyA", a: ra[s.a] }, { op: "onlyB", b: rb[s.b] });
    }
  }
  return groupOneSided(out);
}

/** Each stretch of one-sided ops as a diff shows it: A's messages first, then B's, each in order. */
function groupOneSided(ops: DiffOp[]): DiffOp[] {
  const out: DiffOp[] = [];
  const onlyB: DiffOp[] = [];
  for (const o of ops) {
    if (o.op === "onlyA") out.push(o);
    else if (o.op === "onlyB") onlyB.push(o);
    else {
      // One by one: a stretch of one-sided messages is as long as a branch (10^5 and more).
      pushAll(out, onlyB);
      onlyB.length = 0;
      out.push(o);
    }
  }
  return pushAll(out, onlyB);
}

/**
 * What the agent would send for leaf B against what it would send for leaf A (of one
 * session or two): the shared prefix, then the messages aligned by identity (entry id),
 * with changed ones diffed word by word, and the token figures by part on both sides.
 * Messages of one kind at one place that are not the same entry count as one message
 * changed only when they share enough words (MIN_SHARED_WORDS); else each is one-sided.
 */
export function diffContexts(a: ContextSide, b: ContextSide): ContextDiff {
  const A = side(a);
  const B = side(b);
  const ra = refs(A.ctx.messages);
  const rb = refs(B.ctx.messages);
  const al = alignMessages(A.ctx.messages, B.ctx.messages);
  let prefixTokens = 0;
  for (let k = 0; k < al.prefix; k++) prefixTokens += ra[k].tokens;
  return {
    a: A.facts,
    b: B.facts,
    sharedPrefix: { messages: al.prefix, tokens: prefixTokens },
    ops: toOps(al, ra, rb, A.ctx, B.ctx),
    tokens: tokenDeltas(A.facts.tokens, B.facts.tokens),
    contexts: { a: A.ctx, b: B.ctx },
  };
}
