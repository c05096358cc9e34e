import type { Seed000Message } from "./messages";

/**
 * The seed-000 agent's three ways of shrinking a context that has grown too large
 * (claude-code-format.md 15.1). Each is a pure plan over the message list (which
 * indexes stay, which go into a summary) that serves as a dry run, and an apply step
 * that takes the summary text once an LLM has written it.
 */
export type Seed000Strategy = "truncate" | "compress" | "smart";
export const SEED000_STRATEGIES: readonly Seed000Strategy[] = ["truncate", "compress", "smart"];

export const KEEP_RECENT_COUNT = 50;
export const DEFAULT_MAX_TOKENS = 180_000;
/** smart keeps a message whose content's JSON is longer than this. */
export const SMART_LONG_CHARS = 1000;

export const COMPRESS_PREFIX = "[Previous conversation summary]\n";
export const SMART_PREFIX = "[Conversation summary]\n";

export interface StrategyOptions {
  /** Messages kept by truncate and compress; also the count at or below which compress and smart change nothing. */
  keepRecent?: number;
  /** A strategy applies only when the context's tokens exceed this (0: whenever there are more than keepRecent messages). */
  maxTokens?: number;
}

/** Why smart keeps a message. */
export type ImportanceReason = "tool-use" | "error" | "long";

export interface StrategyPlan {
  strategy: Seed000Strategy;
  keepRecent: number;
  maxTokens: number;
  /** Whether the strategy changes anything; when false, kept is every index and the rest are empty. */
  applies: boolean;
  /** Why it does not apply, for a dry run. */
  why?: string;
  /** Indexes kept as they are, in order. */
  kept: number[];
  /** Indexes replaced by one summary message (compress, smart). */
  summarized: number[];
  /** Indexes dropped with nothing in their place (truncate). */
  dropped: number[];
  /** smart: why each kept index was kept. */
  reasons?: Map<number, ImportanceReason>;
  tokensBefore: number;
  /** Tokens of the kept messages alone (the summary, not yet written, comes on top). */
  keptTokens: number;
}

/** chars/4 of the JSON of the messages, as the seed's design estimates. */
export function estimateTokens(messages: readonly Seed000Message[]): number {
  return Math.ceil(JSON.stringify(messages).length / 4);
}

/**
 * smart's importance rule: the JSON of the content holds "tool_use" (so every tool call,
 * and every tool result through its tool_use_id), "error" or "Error", or is longer than
 * SMART_LONG_CHARS. Case-sensitive, as the seed states it.
 */
export function importance(message: Seed000Message): ImportanceReason | undefined {
  const json = JSON.stringify(message.content);
  if (json.includes("tool_use")) return "tool-use";
  if (json.includes("error") || json.includes("Error")) return "error";
  if (json.length > SMART_LONG_CHARS) return "long";
  return undefined;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}

function checkCount(name: string, v: number): number {
  if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number >= 0, got ${v}`);
  return v;
}

/** Which messages a strategy keeps, summarizes or drops; calls nothing. */
export function planStrategy(strategy: Seed000Strategy, messages: readonly Seed000Message[], opts: StrategyOptions = {}): StrategyPlan {
  const keepRecent = checkCount("keepRecent", opts.keepRecent ?? KEEP_RECENT_COUNT);
  const maxTokens = checkCount("maxTokens", opts.maxTokens ?? DEFAULT_MAX_TOKENS);
  const n = messages.length;
  const tokensBefore = estimateTokens(messages);
  const base = { strategy, keepRecent, maxTokens, tokensBefore };
  const none = (why: string): StrategyPlan => ({ ...base, applies: false, why, kept: range(0, n), summarized: [], dropped: [], keptTokens: tokensBefore });
  if (tokensBefore <= maxTokens) return none(`the context is ${tokensBefore} tokens, not over the ${maxTokens} limit`);
  if (n <= keepRecent) return none(`${n} message(s), not more than the ${keepRecent} kept`);
  let kept: number[];
  let summarized: number[] = [];
  let dropped: number[] = [];
  let reasons: Map<number, ImportanceReason> | undefined;
  if (strategy === "smart") {
    reasons = new Map();
    kept = [];
    for (let i = 0; i < n; i++) {
      const r = importance(messages[i]);
      if (r) {
        reasons.set(i, r);
        kept.push(i);
      } else summarized.push(i);
    }
  } else {
    kept = range(n - keepRecent, n);
    if (strategy === "compress") summarized = range(0, n - keepRecent);
    else dropped = range(0, n - keepRecent);
  }
  if (!summarized.length && !dropped.length) return none("every message is important: nothing to summarize");
  const plan: StrategyPlan = { ...base, applies: true, kept, summarized, dropped, keptTokens: estimateTokens(kept.map((i) => messages[i])) };
  if (reasons) plan.reasons = reasons;
  return plan;
}

/** The user message a summary becomes: compress's and smart's own prefixes. */
export function summaryMessage(strategy: Seed000Strategy, summary: string): Seed000Message {
  return { role: "user", content: (strategy === "smart" ? SMART_PREFIX : COMPRESS_PREFIX) + summary };
}

/**
 * The items after a plan: the summary (when one is due) first, then the kept items in
 * order. Generic so a caller can carry entry ids along with the messages. A plan that
 * summarizes something needs the summary; a truncate plan takes none.
 */
export function applyPlan<T>(plan: StrategyPlan, items: readonly T[], summary?: T): T[] {
  const planned = plan.kept.length + plan.summarized.length + plan.dropped.length;
  if (planned !== items.length) throw new Error(`a ${plan.strategy} plan made for ${planned} messages cannot apply to ${items.length}`);
  const kept = plan.kept.map((i) => items[i]);
  if (!plan.summarized.length) return kept;
  if (summary === undefined) throw new Error(`${plan.strategy} summarizes ${plan.summarized.length} message(s): a summary is needed to apply it`);
  return [summary, ...kept];
}

/** The messages a strategy leaves, given the summary text of plan.summarized (when any). */
export function applyStrategy(plan: StrategyPlan, messages: readonly Seed000Message[], summaryText?: string): Seed000Message[] {
  return applyPlan(plan, messages, summaryText === undefined ? undefined : summaryMessage(plan.strategy, summaryText));
}
