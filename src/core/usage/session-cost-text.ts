import { humanTokens } from "../util/human";
import { shownField } from "../util/visible-text";
import { costSplit as split, usd4 as usd } from "./cost-total-text";
import { costFigures, inheritedLine } from "./cost-words";
import type { PriceOverrides } from "../tokens/prices";
import { reconcile } from "./reconcile";
import { reconcileText } from "./reconcile-text";
import type { CostSum, SessionCost } from "./session-cost";
import { unreadableUsageLine } from "./unreadable-usage";

export const COST_GROUPINGS = ["branch", "model", "day"] as const;
export type CostGrouping = (typeof COST_GROUPINGS)[number];

export interface SessionCostTextOptions {
  /** The first line: the session's path or title (session text: marked, never raw). */
  title: string;
  agent?: string;
  /** Tables to add, in this order. */
  by?: readonly CostGrouping[];
  /** The default leaf, starred in the branch table. */
  defaultLeaf?: number;
  /** Adds the reconciliation at these prices. */
  reconcileWith?: PriceOverrides;
  /** Where a missing price is given (the CLI names --prices too). */
  priceHint?: string;
}

/** Session text on one line, hidden characters marked, a long field clipped with its length. */
const safe = (s: string) => shownField(s);

function table(c: SessionCost, by: CostGrouping, defaultLeaf: number | undefined): string[] {
  const groups: Array<{ name: string; sum: CostSum }> =
    by === "model" ? c.byModel.map((g) => ({ name: safe(g.model), sum: g }))
    : by === "day" ? c.byDay.map((g) => ({ name: g.day, sum: g }))
    : c.byBranch.map((g) => ({ name: `${g.leaf === defaultLeaf ? "* " : "  "}${safe(g.leafId)}`, sum: g }));
  const width = Math.max(by.length, ...groups.map((g) => g.name.length));
  return [`${by.padEnd(width)}  ${"usd".padStart(11)}  split`, ...groups.map((g) => `${g.name.padEnd(width)}  ${usd(g.sum.usd).padStart(11)}  ${split(g.sum)}`)];
}

/**
 * One session's cost as plain text (`ase cost` and the editor's Session Cost report): the
 * total and its split by source, the tokens, what is left out, what a fork inherited, the
 * tables asked for and, when prices are given, the reconciliation.
 */
export function sessionCostText(c: SessionCost, opts: SessionCostTextOptions): string {
  const t = c.total;
  const out = [
    `${safe(opts.title)}${opts.agent !== undefined ? `  (${safe(opts.agent)} session)` : ""}`,
    `total ${usd(t.usd)}  ${split(t)}`,
    `tokens: input ${humanTokens(t.tokens.input)}, output ${humanTokens(t.tokens.output)}, cache write ${humanTokens(t.tokens.cacheWrite)}, cache read ${humanTokens(t.tokens.cacheRead)}`,
  ];
  if (t.unpricedSteps) {
    out.push(`not in the total: ${humanTokens(t.unpricedTokens)} tokens of ${c.unpricedModels.map(safe).join(", ")} (no price known; ${opts.priceHint ?? "give one with the agentSessions.modelPrices setting"})`);
  }
  const unreadable = unreadableUsageLine(c.unreadableUsage);
  if (unreadable) out.push(unreadable);
  if (!Number.isFinite(t.usd)) out.push("the total is too large to sum: a figure in the session is out of all proportion");
  const inherited = inheritedLine(costFigures(t, c.unpricedModels, c.inherited), safe);
  if (inherited) out.push(inherited);
  for (const by of opts.by ?? []) out.push("", ...table(c, by, opts.defaultLeaf));
  const text = `${out.join("\n")}\n`;
  return opts.reconcileWith ? `${text}\n${reconcileText(reconcile(c.steps, opts.reconcileWith))}` : text;
}
