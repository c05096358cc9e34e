import type { RecordedUsage } from "../store/entry-meta";
import type { SessionReader } from "../session/session-reader";
import type { CostHooks } from "../session/session-format";
import { costOf, type PriceOverrides, type StepCost, type TokenFigures } from "../tokens/prices";
import { type UnreadableUsage, unreadableUsage } from "./unreadable-usage";

export type { CostHooks } from "../session/session-format";

export interface SessionCostOptions extends CostHooks {
  /** Validated `agentSessions.modelPrices` (see price-overrides.ts). */
  prices?: PriceOverrides;
}

/** Sums over a set of steps, split by where each cost came from. */
export interface CostSum {
  usd: number;
  recordedUsd: number;
  pricedUsd: number;
  steps: number;
  recordedSteps: number;
  pricedSteps: number;
  /** Steps with tokens but neither a recorded cost nor a price: left out of `usd`. */
  unpricedSteps: number;
  tokens: TokenFigures;
  /** input + output + cache tokens of the unpriced steps. */
  unpricedTokens: number;
}

/** One assistant step: one response, counted at its first entry. */
export interface CostStep {
  index: number;
  entryId: string;
  model?: string;
  /** UTC day of the entry, YYYY-MM-DD, or "unknown". */
  day: string;
  /** When the entry was written, ms since the epoch; NaN when it has no readable timestamp. */
  time: number;
  /** As recorded, plus the 1-hour part of the cache writes where the format's hook gave it. */
  usage: RecordedUsage & Pick<TokenFigures, "cacheWrite1h">;
  cost: StepCost;
  /** Lines of the same response whose repeated usage was not counted again. */
  repeats: number;
  /** The call's identity across the store (see CostHooks.callId). */
  callId?: string;
  /** The session this step was copied from, for a fork's inherited steps. */
  inheritedFrom?: string;
}

/** The part of a session's cost that a fork copied from its source (made once, in the source). */
export interface InheritedCost extends CostSum {
  /** The sessions it was copied from, as the file names them (a path or a session id). */
  from: string[];
}

export interface BranchCost extends CostSum {
  leaf: number;
  leafId: string;
}

export interface SessionCost {
  total: CostSum;
  /** By the model id as recorded ("(unknown)" where no entry on the way names one), most expensive first. */
  byModel: Array<CostSum & { model: string }>;
  /** By UTC day, oldest first. */
  byDay: Array<CostSum & { day: string }>;
  /** Every leaf's path root..leaf, in file order of the leaves. */
  byBranch: BranchCost[];
  steps: CostStep[];
  /** Models (as recorded) with steps that could not be priced. */
  unpricedModels: string[];
  /** How repeated lines of one response were told apart: by the format's hook, or not at all. */
  dedupe: "response-id" | "per-entry";
  /** Of the total, what this file copied from the session it was forked from. */
  inherited: InheritedCost;
  /** Entries whose recorded usage was left out, a figure in it not to be believed (-5, 1e308, "NaN"). */
  unreadableUsage: UnreadableUsage[];
}

export function emptySum(): CostSum {
  return { usd: 0, recordedUsd: 0, pricedUsd: 0, steps: 0, recordedSteps: 0, pricedSteps: 0, unpricedSteps: 0, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, unpricedTokens: 0 };
}

function tokenTotal(u: TokenFigures): number {
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** Adds (sign 1) or takes away (sign -1) one step. */
export function addStep(s: CostSum, step: CostStep, sign = 1): void {
  const c = step.cost;
  s.steps += sign;
  s.usd += sign * c.usd;
  if (c.source === "recorded") {
    s.recordedSteps += sign;
    s.recordedUsd += sign * c.usd;
  } else if (c.source === "priced") {
    s.pricedSteps += sign;
    s.pricedUsd += sign * c.usd;
  } else {
    s.unpricedSteps += sign;
    s.unpricedTokens += sign * tokenTotal(step.usage);
  }
  s.tokens.input += sign * step.usage.input;
  s.tokens.output += sign * step.usage.output;
  s.tokens.cacheRead += sign * step.usage.cacheRead;
  s.tokens.cacheWrite += sign * step.usage.cacheWrite;
}

function copySum(s: CostSum): CostSum {
  return { ...s, tokens: { ...s.tokens } };
}

const DAY_MS = 86_400_000;
/** Day names by UTC day number: steps come in runs of the same day. */
const dayNames = new Map<number, string>();

function dayOf(time: number): string {
  if (!Number.isFinite(time)) return "unknown";
  const d = Math.floor(time / DAY_MS);
  let name = dayNames.get(d);
  if (name === undefined) {
    name = new Date(d * DAY_MS).toISOString().slice(0, 10);
    if (dayNames.size > 100_000) dayNames.clear();
    dayNames.set(d, name);
  }
  return name;
}

/** The model of entry i: its own, else the nearest entry above it that names one. */
function modelFor(session: SessionReader, i: number): string | undefined {
  for (let cur = i; cur >= 0; cur = session.tree.parent[cur]) {
    const m = session.table.modelAt(cur);
    if (m) return m;
  }
  return undefined;
}

/**
 * A call's identity where the format names none: the entry's id and time with its usage.
 * A copy keeps all three; two different calls share all three only if they are the same
 * call written twice. Undefined without a time (then nothing is merged).
 */
function defaultCallId(session: SessionReader, i: number, u: RecordedUsage): string | undefined {
  const time = session.table.times[i];
  if (!Number.isFinite(time)) return undefined;
  return `${session.metas[i].id}@${time}:${u.input}/${u.output}/${u.cacheRead}/${u.cacheWrite}`;
}

/** A step as it was before a later line of its response replaced its usage and cost. */
export type StepBefore = Pick<CostStep, "usage" | "cost">;

/**
 * Reads a session's steps in file order, and reads on from where it stopped when the
 * session grew (an append-only file: the entries it read stay as they were). A step is
 * an entry with usage that holds tokens (or a recorded cost). Lines of one response (same
 * responseId) are one step, placed at the first of them (on every path that reaches the
 * response) with the usage of the last (output_tokens grows while a response streams).
 */
export class StepReader {
  readonly steps: CostStep[] = [];
  private readonly byResponse = new Map<string, CostStep>();
  private next = 0;

  constructor(
    private readonly session: SessionReader,
    private readonly opts: SessionCostOptions = {},
  ) {}

  /** Entries read so far. */
  get entriesRead(): number {
    return this.next;
  }

  /**
   * Reads the entries added since the last call; returns the new steps. A line that
   * updates a step read before (a later line of its response) is told to `onUpdate`
   * with what the step was, so that sums can take that away and add the step anew.
   */
  read(onUpdate?: (step: CostStep, before: StepBefore) => void): CostStep[] {
    const { session, opts } = this;
    const t = session.table;
    const added: CostStep[] = [];
    const n = session.metas.length;
    for (let i = this.next; i < n; i++) {
      const u: CostStep["usage"] | undefined = t.getUsage(i);
      if (!u) continue;
      if (tokenTotal(u) <= 0 && !(typeof u.cost === "number" && u.cost > 0)) continue;
      const rid = opts.responseId?.(session, i);
      const long = opts.cacheWrite1h?.(session, i);
      if (long !== undefined && long > 0) u.cacheWrite1h = long;
      const seen = rid !== undefined ? this.byResponse.get(rid) : undefined;
      if (seen) {
        const before: StepBefore = { usage: seen.usage, cost: seen.cost };
        seen.usage = u;
        seen.cost = costOf(u, seen.model, opts.prices);
        seen.repeats++;
        onUpdate?.(seen, before);
        continue;
      }
      const model = modelFor(session, i);
      const callId = opts.callId ? opts.callId(session, i) : defaultCallId(session, i, u);
      const from = opts.inheritedFrom?.(session, i);
      const step: CostStep = { index: i, entryId: session.metas[i].id, ...(model ? { model } : {}), day: dayOf(t.times[i]), time: Number.isFinite(t.times[i]) ? t.times[i] : Number.NaN, usage: u, cost: costOf(u, model, opts.prices), repeats: 0, ...(callId !== undefined ? { callId } : {}), ...(from !== undefined ? { inheritedFrom: from } : {}) };
      this.steps.push(step);
      added.push(step);
      if (rid !== undefined) this.byResponse.set(rid, step);
    }
    this.next = n;
    return added;
  }
}

/** The steps of a session, in file order (see StepReader). */
export function costSteps(session: SessionReader, opts: SessionCostOptions = {}): CostStep[] {
  const r = new StepReader(session, opts);
  r.read();
  return r.steps;
}

/** The format's cost hooks, bound, unless the options give their own. */
export function costHooks(format: { readonly id: string } & CostHooks, opts: SessionCostOptions = {}): SessionCostOptions {
  const hooks: CostHooks = format;
  const responseId = opts.responseId ?? (typeof hooks.responseId === "function" ? hooks.responseId.bind(format) : undefined);
  const cacheWrite1h = opts.cacheWrite1h ?? (typeof hooks.cacheWrite1h === "function" ? hooks.cacheWrite1h.bind(format) : undefined);
  const callId = opts.callId ?? (typeof hooks.callId === "function" ? hooks.callId.bind(format) : undefined);
  const inheritedFrom = opts.inheritedFrom ?? (typeof hooks.inheritedFrom === "function" ? hooks.inheritedFrom.bind(format) : undefined);
  return { ...opts, responseId, cacheWrite1h, callId, inheritedFrom };
}

/** Sums per leaf path in one depth-first walk (adding a step on the way down, taking it away on the way back). */
function branchSums(session: SessionReader, steps: readonly CostStep[]): BranchCost[] {
  const tree = session.tree;
  const at = new Map<number, CostStep>();
  for (const s of steps) at.set(s.index, s);
  const found = new Map<number, CostSum>();
  const running = emptySum();
  const stack: Array<{ node: number; exit: boolean }> = tree.roots().reverse().map((node) => ({ node, exit: false }));
  while (stack.length) {
    const { node, exit } = stack.pop() as { node: number; exit: boolean };
    const step = at.get(node);
    if (exit) {
      if (step) addStep(running, step, -1);
      continue;
    }
    if (step) addStep(running, step);
    const kids = tree.children(node);
    if (kids.length === 0) found.set(node, copySum(running));
    stack.push({ node, exit: true });
    for (let k = kids.length - 1; k >= 0; k--) stack.push({ node: kids[k], exit: false });
  }
  return [...found.keys()].sort((a, b) => a - b).map((leaf) => ({ leaf, leafId: session.metas[leaf].id, ...(found.get(leaf) as CostSum) }));
}

function groupBy<K extends string>(steps: readonly CostStep[], keyOf: (s: CostStep) => string, name: K): Array<CostSum & Record<K, string>> {
  const groups = new Map<string, CostSum>();
  for (const s of steps) {
    const key = keyOf(s);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = emptySum()));
    addStep(g, s);
  }
  return [...groups].map(([key, sum]) => ({ [name]: key, ...sum }) as CostSum & Record<K, string>);
}

/**
 * The cost of a session of any format: in total, per branch (each leaf's path), per
 * model and per UTC day, each split into recorded, priced and unpriced. `format` may
 * carry the CostHooks (opts win over it).
 */
export function sessionCost(session: SessionReader, format: { readonly id: string } & CostHooks, opts: SessionCostOptions = {}): SessionCost {
  const all = costHooks(format, opts);
  const responseId = all.responseId;
  const steps = costSteps(session, all);
  const total = emptySum();
  for (const s of steps) addStep(total, s);
  const byModel = groupBy(steps, (s) => s.model ?? "(unknown)", "model").sort((a, b) => b.usd - a.usd || a.model.localeCompare(b.model));
  const byDay = groupBy(steps, (s) => s.day, "day").sort((a, b) => a.day.localeCompare(b.day));
  const unpricedModels = byModel.filter((m) => m.unpricedSteps > 0).map((m) => m.model);
  return { total, byModel, byDay, byBranch: branchSums(session, steps), steps, unpricedModels, dedupe: responseId ? "response-id" : "per-entry", inherited: inheritedCost(steps), unreadableUsage: unreadableUsage(session) };
}

/** The steps a fork copied from its source, summed, with the sources named. */
export function inheritedCost(steps: Iterable<CostStep>): InheritedCost {
  const sum = emptySum();
  const from = new Set<string>();
  for (const s of steps) {
    if (s.inheritedFrom === undefined) continue;
    addStep(sum, s);
    from.add(s.inheritedFrom);
  }
  return { ...sum, from: [...from] };
}
