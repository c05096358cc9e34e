import type { AgentMessage } from "../model/messages";
import { estimatePieces } from "../../../tokens/kind-counts";
import { messagePieces } from "../tokens/pi-pieces";
import type { ContextPart, SessionContext } from "./build-context";

/**
 * The categories a context builder reasons in, in bar order:
 * - system:   the system prompt, plus whatever the recorded size holds beyond the
 *             messages (tool definitions, per-message framing): see `budgetBreakdown`;
 * - summary:  compaction summaries and branch summaries (and a compaction's retained tail
 *             is NOT here: those are ordinary messages, counted as recent);
 * - injected: custom messages (custom_message entries and `custom` role messages):
 *             text that extensions retrieved or injected, not typed by the user;
 * - recent:   every other message in the context: user prompts before the current one,
 *             assistant replies, tool results, bash runs;
 * - current:  the current input: the LAST message with role `user` in the context (the
 *             prompt of the turn in progress, or of the last turn). What follows it
 *             (the assistant's work on it) is recent.
 */
export const BUDGET_PARTS = ["system", "summary", "injected", "recent", "current"] as const;
export type BudgetPartName = (typeof BUDGET_PARTS)[number];

/** Percent of the total budget per part; must sum to 100. */
export type BudgetAllocation = Record<BudgetPartName, number>;

export const DEFAULT_ALLOCATION: BudgetAllocation = { system: 20, summary: 10, injected: 10, recent: 55, current: 5 };

export interface BudgetPart {
  name: BudgetPartName;
  /** total x percent (rounded so the five sum to total). */
  allocated: number;
  /** Share of the leaf's context size (the five `used` sum to contextTokens exactly). */
  used: number;
  /** The part's own measured size before apportioning (the measure's figure). */
  measured: number;
  /** used - allocated when positive, else 0. */
  overflow: number;
  /** Context entries in this part, in context order (none for system). */
  entryIds: string[];
}

export interface BudgetBreakdown {
  total: number;
  contextTokens: number;
  parts: BudgetPart[];
  /** Names of the parts whose use exceeds their allocation. */
  overflowing: BudgetPartName[];
  /**
   * Where the system part's size comes from: "text" = a known prompt text, counted;
   * "first-call" = the first recorded call's prompt minus the messages before it (system
   * prompt + tool definitions, from the provider's own count); "remainder" = only what
   * the context size leaves after the messages.
   */
  systemSource: "text" | "first-call" | "remainder";
}

export interface BudgetOptions {
  /** The leaf's context size (pi's rule); the parts are apportioned to sum to it. */
  contextTokens: number;
  /** The budget the allocation divides, e.g. the compaction threshold. */
  total: number;
  allocation?: BudgetAllocation;
  /** Tokens of a known system prompt text (reconstructed or user-named). */
  systemTokens?: number;
  /** System prompt + tools as inferred from the first recorded call (calibration.ts); the larger of the two is used. */
  inferredSystemTokens?: number;
  /** Size of one context part; default: the instant estimate of its message. */
  measure?: (part: Pick<ContextPart, "entryId" | "kind" | "agent">) => number;
}

/** Which budget part a context message belongs to (`currentAt` = index of the current input). */
export function budgetCategory(kind: ContextPart["kind"], agent: AgentMessage, index: number, currentAt: number): BudgetPartName {
  if (index === currentAt) return "current";
  if (kind === "compaction-summary" || kind === "branch-summary") return "summary";
  if (kind === "custom-message" || agent.role === "custom") return "injected";
  return "recent";
}

function defaultMeasure(part: Pick<ContextPart, "agent">): number {
  return estimatePieces(messagePieces(part.agent as unknown as Record<string, unknown>));
}

/** Splits n into integer parts proportional to weights, summing to n exactly (largest remainder). */
function apportion(n: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map((_, i) => (i === 0 ? n : 0));
  const raw = weights.map((w) => (w / sum) * n);
  const out = raw.map(Math.floor);
  let left = n - out.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k][1]]++;
  return out;
}

/**
 * The budget breakdown of a leaf's context. Messages are measured per part; then:
 * - if the measured parts plus the system text fit in contextTokens, the system part
 *   takes the remainder (the recorded usage holds the system prompt and tool
 *   definitions even when no prompt text is known: `systemSource: "inferred"`);
 * - if they exceed it (calibrated figures overshoot whole contexts by ~5-15%), the
 *   system part keeps its size and the message parts are scaled into the rest.
 * Either way the `used` figures sum to contextTokens, so the bar matches the headline.
 */
export function budgetBreakdown(ctx: SessionContext, opts: BudgetOptions): BudgetBreakdown {
  const allocation = opts.allocation ?? DEFAULT_ALLOCATION;
  const pctSum = BUDGET_PARTS.reduce((a, k) => a + allocation[k], 0);
  if (Math.abs(pctSum - 100) > 0.01) throw new Error(`budget allocation must sum to 100%, got ${pctSum}%`);
  const measure = opts.measure ?? defaultMeasure;
  let currentAt = -1;
  ctx.agent.forEach((p, i) => {
    if (p.agent.role === "user" && p.kind === "message") currentAt = i;
  });
  const text = opts.systemTokens ?? 0;
  const inferred = opts.inferredSystemTokens ?? 0;
  const systemSource: BudgetBreakdown["systemSource"] = inferred > text ? "first-call" : opts.systemTokens !== undefined ? "text" : "remainder";
  const measured: Record<BudgetPartName, number> = { system: Math.max(text, inferred), summary: 0, injected: 0, recent: 0, current: 0 };
  const ids: Record<BudgetPartName, string[]> = { system: [], summary: [], injected: [], recent: [], current: [] };
  ctx.agent.forEach((p, i) => {
    const cat = budgetCategory(p.kind, p.agent, i, currentAt);
    measured[cat] += measure(p);
    const list = ids[cat];
    if (list[list.length - 1] !== p.entryId) list.push(p.entryId);
  });
  const ct = Math.max(0, Math.round(opts.contextTokens));
  const messages = measured.summary + measured.injected + measured.recent + measured.current;
  let used: number[];
  if (messages + measured.system <= ct) {
    const m = apportion(Math.round(messages), [measured.summary, measured.injected, measured.recent, measured.current]);
    used = [ct - m.reduce((a, b) => a + b, 0), ...m];
  } else {
    // The system part is anchored on recorded usage (or a counted text): keep it, and fit the messages into the rest.
    const system = Math.min(ct, Math.round(measured.system));
    used = [system, ...apportion(ct - system, [measured.summary, measured.injected, measured.recent, measured.current])];
  }
  // Largest remainder, so the allocations sum to the total exactly, as the `used` figures do.
  const allocatedAll = apportion(Math.round(opts.total), BUDGET_PARTS.map((k) => allocation[k]));
  const parts = BUDGET_PARTS.map((name, i): BudgetPart => {
    const allocated = allocatedAll[i];
    return { name, allocated, used: used[i], measured: Math.round(measured[name]), overflow: Math.max(0, used[i] - allocated), entryIds: ids[name] };
  });
  return {
    total: opts.total,
    contextTokens: ct,
    parts,
    overflowing: parts.filter((p) => p.overflow > 0).map((p) => p.name),
    systemSource,
  };
}
