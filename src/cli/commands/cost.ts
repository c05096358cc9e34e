import { reconcile } from "../../core/usage/reconcile";
import { sessionCost } from "../../core/usage/session-cost";
import { COST_GROUPINGS, type CostGrouping, sessionCostText } from "../../core/usage/session-cost-text";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";

import { loadSession, reportProblems } from "../load";
import { readPrices } from "../prices-file";
import { runTotal, TOTAL_FLAGS, totalUsage } from "./cost-total";

const fileUsage = "ase cost <file> [--by branch|model|day] [--prices FILE] [--reconcile] [--json]";

async function run(args: string[], io: CliIO): Promise<void> {
  const total = args.includes("--total");
  const { values, positionals } = parseFlags(args, { by: { type: "string" }, prices: { type: "string" }, json: { type: "boolean" }, reconcile: { type: "boolean" }, ...TOTAL_FLAGS }, total ? totalUsage : fileUsage);
  if (total) return runTotal(values, positionals, io);
  const extra = Object.keys(TOTAL_FLAGS).find((f) => values[f as keyof typeof TOTAL_FLAGS] !== undefined);
  if (extra) throw new CliError(`--${extra} is for the total of many sessions: add --total (usage: ${totalUsage})`);
  const by = values.by as CostGrouping | undefined;
  if (by !== undefined && !COST_GROUPINGS.includes(by)) throw new CliError(`--by expects one of ${COST_GROUPINGS.join(", ")}, got "${values.by}"`);
  const path = onePositional(positionals, "session file", fileUsage);
  const prices = readPrices(values.prices, io);
  const session = await loadSession(path);
  const format = session.format;
  reportProblems(session, io.err);
  const cost = sessionCost(session, format, { prices });
  const reconciliation = values.reconcile && values.json ? reconcile(cost.steps, prices) : undefined;
  if (values.json) {
    // New fields go last: the JSON is only ever extended.
    const { steps, byBranch, unreadableUsage, inherited, ...rest } = cost;
    const defaultLeaf = format.defaultLeaf(session);
    const branches = byBranch.map(({ leaf, ...b }) => ({ ...b, default: leaf === defaultLeaf }));
    io.out(`${JSON.stringify({ file: session.path, format: format.id, currency: "USD", ...rest, byBranch: branches, steps: steps.map((s) => ({ entryId: s.entryId, model: s.model ?? null, day: s.day, usd: s.cost.usd, source: s.cost.source, ...(s.cost.priceKey !== undefined ? { priceKey: s.cost.priceKey } : {}), ...(s.inheritedFrom !== undefined ? { inheritedFrom: s.inheritedFrom } : {}) })), unreadableUsage, inherited, ...(reconciliation ? { reconciliation } : {}) }, null, 2)}\n`);
    return;
  }
  const hint = "give one with --prices or the agentSessions.modelPrices setting";
  io.out(sessionCostText(cost, { title: session.path, agent: format.agent, by: by ? [by] : [], defaultLeaf: format.defaultLeaf(session), priceHint: hint, ...(values.reconcile ? { reconcileWith: prices ?? {} } : {}) }));
}

export const costCommand: CliCommand = {
  name: "cost",
  usage: `${fileUsage}\n  ${totalUsage}`,
  summary: "cost in USD in total and per branch, model or day: recorded where the agent recorded it, else priced per model, else shown as unpriced; --total sums every listed session (by model, day, project) over a date range",
  run,
};
