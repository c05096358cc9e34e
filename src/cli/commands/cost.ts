import { readFileSync } from "node:fs";
import { formatOf } from "../../core/formats/registry";
import type { PriceOverrides } from "../../core/tokens/prices";
import { validatePriceOverrides } from "../../core/tokens/price-overrides";
import { type CostSum, type SessionCost, sessionCost } from "../../core/tokens/session-cost";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";
import { humanTokens, safeText } from "../format";
import { loadSession, reportProblems } from "../load";

const usage = "ase cost <file> [--by branch|model|day] [--prices FILE] [--json]";

const GROUPINGS = ["branch", "model", "day"] as const;
type Grouping = (typeof GROUPINGS)[number];

function usd(n: number): string {
  return `$${n.toFixed(4)}`;
}

/** Overrides from a JSON file shaped like the agentSessions.modelPrices setting; bad entries are warned about, not fatal. */
function readPrices(file: string | undefined, io: CliIO): PriceOverrides | undefined {
  if (file === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new CliError(`--prices ${file}: ${e.code ? `cannot read it (${e.code})` : "not JSON"}`);
  }
  const v = validatePriceOverrides(raw, `--prices ${file}`);
  for (const p of v.problems) io.err(`warning: ${p}\n`);
  return v.prices;
}

/** How a sum splits: "12 steps: 10 recorded $0.1000, 2 priced $0.0100, 1 unpriced". */
function split(s: CostSum): string {
  return `${s.steps} step(s): ${s.recordedSteps} recorded ${usd(s.recordedUsd)}, ${s.pricedSteps} priced ${usd(s.pricedUsd)}, ${s.unpricedSteps} unpriced`;
}

function rows(c: SessionCost, by: Grouping, defaultLeaf: number): string[] {
  const groups: Array<{ name: string; sum: CostSum }> =
    by === "model" ? c.byModel.map((g) => ({ name: safeText(g.model), sum: g }))
    : by === "day" ? c.byDay.map((g) => ({ name: g.day, sum: g }))
    : c.byBranch.map((g) => ({ name: `${g.leaf === defaultLeaf ? "* " : "  "}${safeText(g.leafId)}`, sum: g }));
  const width = Math.max(by.length, ...groups.map((g) => g.name.length));
  return [`${by.padEnd(width)}  ${"usd".padStart(11)}  split`, ...groups.map((g) => `${g.name.padEnd(width)}  ${usd(g.sum.usd).padStart(11)}  ${split(g.sum)}`)];
}

function text(path: string, agent: string, c: SessionCost, by: Grouping | undefined, defaultLeaf: number): string {
  const t = c.total;
  const out = [
    `${safeText(path)}  (${safeText(agent)} session)`,
    `total ${usd(t.usd)}  ${split(t)}`,
    `tokens: input ${humanTokens(t.tokens.input)}, output ${humanTokens(t.tokens.output)}, cache write ${humanTokens(t.tokens.cacheWrite)}, cache read ${humanTokens(t.tokens.cacheRead)}`,
  ];
  if (t.unpricedSteps) {
    out.push(`not in the total: ${humanTokens(t.unpricedTokens)} tokens of ${c.unpricedModels.map(safeText).join(", ")} (no price known; give one with --prices or the agentSessions.modelPrices setting)`);
  }
  if (by) out.push("", ...rows(c, by, defaultLeaf));
  return `${out.join("\n")}\n`;
}

async function run(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseFlags(args, { by: { type: "string" }, prices: { type: "string" }, json: { type: "boolean" } }, usage);
  const by = values.by as Grouping | undefined;
  if (by !== undefined && !GROUPINGS.includes(by)) throw new CliError(`--by expects one of ${GROUPINGS.join(", ")}, got "${values.by}"`);
  const path = onePositional(positionals, "session file", usage);
  const prices = readPrices(values.prices, io);
  const session = await loadSession(path);
  const format = formatOf(session);
  reportProblems(session, io.err);
  const cost = sessionCost(session, format, { prices });
  if (values.json) {
    const { steps, byBranch, ...rest } = cost;
    const defaultLeaf = format.defaultLeaf(session);
    const branches = byBranch.map(({ leaf, ...b }) => ({ ...b, default: leaf === defaultLeaf }));
    io.out(`${JSON.stringify({ file: session.path, format: format.id, currency: "USD", ...rest, byBranch: branches, steps: steps.map((s) => ({ entryId: s.entryId, model: s.model ?? null, day: s.day, usd: s.cost.usd, source: s.cost.source, ...(s.cost.priceKey !== undefined ? { priceKey: s.cost.priceKey } : {}) })) }, null, 2)}\n`);
    return;
  }
  io.out(text(session.path, format.agent, cost, by, format.defaultLeaf(session)));
}

export const costCommand: CliCommand = {
  name: "cost",
  usage,
  summary: "cost in USD in total and per branch, model or day: recorded where the agent recorded it, else priced per model, else shown as unpriced",
  run,
};
