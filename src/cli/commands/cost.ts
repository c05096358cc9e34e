import { shownField } from "../../core/util/visible-text";
import { formatOf } from "../../core/formats/registry";
import { costSplit as split, usd4 as usd } from "../../core/tokens/cost-total-text";
import { type CostSum, type SessionCost, sessionCost } from "../../core/tokens/session-cost";
import { unreadableUsageLine } from "../../core/tokens/unreadable-usage";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";
import { humanTokens } from "../format";
import { loadSession, reportProblems } from "../load";
import { readPrices } from "../prices-file";
import { runTotal, TOTAL_FLAGS, totalUsage } from "./cost-total";

const fileUsage = "ase cost <file> [--by branch|model|day] [--prices FILE] [--json]";

const GROUPINGS = ["branch", "model", "day"] as const;
type Grouping = (typeof GROUPINGS)[number];

function rows(c: SessionCost, by: Grouping, defaultLeaf: number): string[] {
  const groups: Array<{ name: string; sum: CostSum }> =
    by === "model" ? c.byModel.map((g) => ({ name: shownField(g.model), sum: g }))
    : by === "day" ? c.byDay.map((g) => ({ name: g.day, sum: g }))
    : c.byBranch.map((g) => ({ name: `${g.leaf === defaultLeaf ? "* " : "  "}${shownField(g.leafId)}`, sum: g }));
  const width = Math.max(by.length, ...groups.map((g) => g.name.length));
  return [`${by.padEnd(width)}  ${"usd".padStart(11)}  split`, ...groups.map((g) => `${g.name.padEnd(width)}  ${usd(g.sum.usd).padStart(11)}  ${split(g.sum)}`)];
}

function text(path: string, agent: string, c: SessionCost, by: Grouping | undefined, defaultLeaf: number): string {
  const t = c.total;
  const out = [
    `${shownField(path)}  (${shownField(agent)} session)`,
    `total ${usd(t.usd)}  ${split(t)}`,
    `tokens: input ${humanTokens(t.tokens.input)}, output ${humanTokens(t.tokens.output)}, cache write ${humanTokens(t.tokens.cacheWrite)}, cache read ${humanTokens(t.tokens.cacheRead)}`,
  ];
  if (t.unpricedSteps) {
    out.push(`not in the total: ${humanTokens(t.unpricedTokens)} tokens of ${c.unpricedModels.map((m) => shownField(m)).join(", ")} (no price known; give one with --prices or the agentSessions.modelPrices setting)`);
  }
  const unreadable = unreadableUsageLine(c.unreadableUsage);
  if (unreadable) out.push(unreadable);
  if (!Number.isFinite(t.usd)) out.push("the total is too large to sum: a figure in the session is out of all proportion");
  if (by) out.push("", ...rows(c, by, defaultLeaf));
  return `${out.join("\n")}\n`;
}

async function run(args: string[], io: CliIO): Promise<void> {
  const total = args.includes("--total");
  const { values, positionals } = parseFlags(args, { by: { type: "string" }, prices: { type: "string" }, json: { type: "boolean" }, ...TOTAL_FLAGS }, total ? totalUsage : fileUsage);
  if (total) return runTotal(values, positionals, io);
  const extra = Object.keys(TOTAL_FLAGS).find((f) => values[f as keyof typeof TOTAL_FLAGS] !== undefined);
  if (extra) throw new CliError(`--${extra} is for the total of many sessions: add --total (usage: ${totalUsage})`);
  const by = values.by as Grouping | undefined;
  if (by !== undefined && !GROUPINGS.includes(by)) throw new CliError(`--by expects one of ${GROUPINGS.join(", ")}, got "${values.by}"`);
  const path = onePositional(positionals, "session file", fileUsage);
  const prices = readPrices(values.prices, io);
  const session = await loadSession(path);
  const format = formatOf(session);
  reportProblems(session, io.err);
  const cost = sessionCost(session, format, { prices });
  if (values.json) {
    const { steps, byBranch, unreadableUsage, ...rest } = cost;
    const defaultLeaf = format.defaultLeaf(session);
    const branches = byBranch.map(({ leaf, ...b }) => ({ ...b, default: leaf === defaultLeaf }));
    io.out(`${JSON.stringify({ file: session.path, format: format.id, currency: "USD", ...rest, byBranch: branches, steps: steps.map((s) => ({ entryId: s.entryId, model: s.model ?? null, day: s.day, usd: s.cost.usd, source: s.cost.source, ...(s.cost.priceKey !== undefined ? { priceKey: s.cost.priceKey } : {}) })), unreadableUsage }, null, 2)}\n`);
    return;
  }
  io.out(text(session.path, format.agent, cost, by, format.defaultLeaf(session)));
}

export const costCommand: CliCommand = {
  name: "cost",
  usage: `${fileUsage}\n  ${totalUsage}`,
  summary: "cost in USD in total and per branch, model or day: recorded where the agent recorded it, else priced per model, else shown as unpriced; --total sums every listed session (by model, day, project) over a date range",
  run,
};
