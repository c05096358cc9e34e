import { humanTokens, humanUsd } from "../util/human";
import { clipField } from "../util/visible-text";

/** A cost as the views show it: the sum and where it came from (a CostSum without the token split). */
export interface CostFigures {
  usd: number;
  steps: number;
  recordedUsd: number;
  recordedSteps: number;
  pricedUsd: number;
  pricedSteps: number;
  /** Steps with tokens but no recorded cost and no price: not in `usd`. */
  unpricedSteps: number;
  unpricedTokens: number;
  /** The models of the unpriced steps, as recorded. */
  unpricedModels: string[];
  /** Of `usd`, what a fork copied from its source (made once, there); absent when nothing was. */
  inherited?: { usd: number; steps: number; from: string[] };
}

/** A branch's cost on its token bar. */
export interface BranchCostFigures {
  usd: number;
  steps: number;
  unpricedSteps: number;
}

const steps = (n: number) => `${n.toLocaleString("en-US")} step${n === 1 ? "" : "s"}`;

/** The figures of a sum (anything shaped like a CostSum) with the models left unpriced. */
export function costFigures(sum: Omit<CostFigures, "unpricedModels" | "inherited">, unpricedModels: readonly string[], inherited?: { usd: number; steps: number; from: readonly string[] }): CostFigures {
  const { usd, steps: n, recordedUsd, recordedSteps, pricedUsd, pricedSteps, unpricedSteps, unpricedTokens } = sum;
  const own = { usd, steps: n, recordedUsd, recordedSteps, pricedUsd, pricedSteps, unpricedSteps, unpricedTokens, unpricedModels: [...unpricedModels] };
  return inherited && inherited.steps > 0 ? { ...own, inherited: { usd: inherited.usd, steps: inherited.steps, from: [...inherited.from] } } : own;
}

/** "of which $1.20 (12 steps) inherited from <source>": a fork's copied part, paid for once, in its source. */
export function inheritedLine(c: Pick<CostFigures, "inherited">, nameOf: (source: string) => string = (s) => s): string | undefined {
  const i = c.inherited;
  if (!i || i.steps === 0) return undefined;
  return `of which ${humanUsd(i.usd)} (${steps(i.steps)}) inherited from ${i.from.map(nameOf).join(", ")}: made once, counted in that session's total`;
}

/** One short line: "$1.23 · 45 steps", with "(3 unpriced)" when some steps have no price. */
export function costHeadline(c: CostFigures | BranchCostFigures): string {
  return `${humanUsd(c.usd)} · ${steps(c.steps)}${c.unpricedSteps ? ` (${c.unpricedSteps} unpriced)` : ""}`;
}

/**
 * Where a cost came from, one line per source that has steps: recorded by the agent,
 * priced from the table (or the setting), and unpriced with the models named. Model
 * names are session text: the caller shows these lines as text.
 */
export function costBreakdown(c: CostFigures, nameOf?: (source: string) => string): string[] {
  const out: string[] = [];
  if (c.recordedSteps) out.push(`recorded by the agent: ${humanUsd(c.recordedUsd)} (${steps(c.recordedSteps)})`);
  if (c.pricedSteps) out.push(`priced per model: ${humanUsd(c.pricedUsd)} (${steps(c.pricedSteps)})`);
  if (c.unpricedSteps) {
    out.push(`unpriced, not in the total: ${steps(c.unpricedSteps)}, ${humanTokens(c.unpricedTokens)} tokens of ${c.unpricedModels.map((m) => clipField(m)).join(", ") || "(unknown)"} (set agentSessions.modelPrices to price them)`);
  }
  if (!c.steps) out.push("no step with recorded usage");
  const inherited = inheritedLine(c, nameOf);
  if (inherited) out.push(inherited);
  return out;
}

/** A branch's cost for its bar's tooltip. */
export function branchCostLine(c: BranchCostFigures): string {
  return `Cost of this branch (root to leaf): ${costHeadline(c)}`;
}

/** A cost for a tooltip: the headline, then where it came from. */
export function costTooltip(c: CostFigures, what = "Cost", nameOf?: (source: string) => string): string {
  return [`${what}: ${costHeadline(c)}`, ...costBreakdown(c, nameOf).map((l) => `  ${l}`)].join("\n");
}
