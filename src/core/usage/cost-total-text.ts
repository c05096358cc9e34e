import { humanTokens } from "../util/human";
import { shownField } from "../util/visible-text";
import type { CostScanResult } from "./cost-scan";
import type { CostSum } from "./session-cost";

/** USD with four decimals, the figure `ase cost` prints; a sum too large for a number says so. */
export function usd4(n: number): string {
  return Number.isFinite(n) ? `$${n.toFixed(4)}` : TOO_LARGE;
}

/** What a sum that overflowed shows instead of "$Infinity" (figures are checked, but sums of many add up). */
export const TOO_LARGE = "(too large to sum)";

/** How a sum splits: "12 step(s): 10 recorded $0.1000, 2 priced $0.0100, 1 unpriced". */
export function costSplit(s: CostSum): string {
  return `${s.steps} step(s): ${s.recordedSteps} recorded ${usd4(s.recordedUsd)}, ${s.pricedSteps} priced ${usd4(s.pricedUsd)}, ${s.unpricedSteps} unpriced`;
}

/** Where to give a missing price, said in the report (the CLI names --prices too). */
export const PRICE_HINT = "give one with the agentSessions.modelPrices setting or ase cost --prices";

/** A range end for people: the UTC day when it is a midnight, else the instant. */
function when(iso: string): string {
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : `${iso.slice(0, 16).replace("T", " ")}`;
}

/** The range of a total in words (UTC). */
export function rangeText(r: CostScanResult["range"]): string {
  if (r.since === null && r.until === null) return "all time";
  if (r.until === null) return `since ${when(r.since as string)} (UTC)`;
  if (r.since === null) return `before ${when(r.until)} (UTC)`;
  return `from ${when(r.since)} to before ${when(r.until)} (UTC)`;
}

function table(head: string, groups: Array<{ name: string; sum: CostSum }>): string[] {
  const width = Math.max(head.length, ...groups.map((g) => g.name.length));
  return [`${head.padEnd(width)}  ${"usd".padStart(11)}  split`, ...groups.map((g) => `${g.name.padEnd(width)}  ${usd4(g.sum.usd).padStart(11)}  ${costSplit(g.sum)}`)];
}

/** Session text on one line: clipped to a field's width, hidden characters marked. */
const safe = (s: string) => shownField(s);

/** A model line's name, with the other names it was recorded as ("claude-sonnet-4-5 (also as claude-sonnet-4-5-20250929)"). */
function modelName(g: { model: string; aliases?: string[] }): string {
  const others = (g.aliases ?? []).filter((a) => a !== g.model);
  return others.length ? `${safe(g.model)} (also as ${others.map(safe).join(", ")})` : safe(g.model);
}

/**
 * A total as plain text: the sum with its split, what was left out and why, then by
 * model, by day, by project and the sessions, most expensive first (up to `maxSessions`).
 */
export function costTotalText(t: CostScanResult, opts: { title?: string; maxSessions?: number; titleOf?: (path: string) => string | undefined } = {}): string {
  // A session by its title where one is known, the path after it (a path alone says little: a time and an id).
  const named = (path: string) => {
    const title = opts.titleOf?.(path);
    return title ? `${safe(title)}  (${safe(path)})` : safe(path);
  };
  const sub = t.sessions.filter((s) => s.parent !== undefined).length;
  const files = `${t.sessions.length} session file(s) with steps${sub ? ` (${sub} of them sub-agent transcripts)` : ""}`;
  const out = [`${opts.title ? `${safe(opts.title)}: ` : ""}${files}, ${rangeText(t.range)}`, `total ${usd4(t.total.usd)}  ${costSplit(t.total)}`];
  const k = t.total.tokens;
  out.push(`tokens: input ${humanTokens(k.input)}, output ${humanTokens(k.output)}, cache write ${humanTokens(k.cacheWrite)}, cache read ${humanTokens(k.cacheRead)}`);
  if (t.total.unpricedSteps) out.push(`not in the total: ${humanTokens(t.total.unpricedTokens)} tokens of ${t.unpricedModels.map((m) => safe(m)).join(", ")} (no price known; ${PRICE_HINT})`);
  if (t.duplicates.steps) out.push(`counted once: ${t.duplicates.steps} step(s) (${usd4(t.duplicates.usd)}) held by more than one file (forks, /branch copies, resumes) are in the total once, under the file that made them`);
  if (t.undatedSteps) out.push(`left out: ${t.undatedSteps} step(s) without a time (a range was given)`);
  if (t.unreadableUsage) out.push(`left out: the recorded usage of ${t.unreadableUsage} entr${t.unreadableUsage === 1 ? "y" : "ies"}, a figure not a number from 0 to 2^53; ase cost FILE names them`);
  if (!Number.isFinite(t.total.usd)) out.push(`the total is ${TOO_LARGE}: a figure in the sessions is out of all proportion`);
  out.push(`read ${t.filesRead} file(s)${t.filesBefore ? `; ${t.filesBefore} last written before the range, not read` : ""}${t.failed.length ? `; ${t.failed.length} could not be read (listed at the end)` : ""}`);
  if (t.total.steps) {
    out.push("", ...table("model", t.byModel.map((g) => ({ name: modelName(g), sum: g }))));
    out.push("", ...table("day", t.byDay.map((g) => ({ name: g.day, sum: g }))));
    out.push("", ...table("project", t.byProject.map((g) => ({ name: g.project ? safe(g.project) : "(no cwd)", sum: g }))));
    const max = opts.maxSessions ?? 50;
    out.push("", `sessions, most expensive first${t.sessions.length > max ? ` (the first ${max} of ${t.sessions.length})` : ""}`);
    for (const s of t.sessions.slice(0, max)) {
      out.push(`${usd4(s.usd).padStart(11)}  ${String(s.steps).padStart(5)} step(s)  ${safe(s.agent)}  ${named(s.path)}${s.parent !== undefined ? `  (sub-agent of ${safe(s.parent)})` : ""}${s.countedElsewhere.steps ? `  (+${s.countedElsewhere.steps} copied step(s), ${usd4(s.countedElsewhere.usd)}, counted in their source)` : ""}`);
    }
  }
  if (t.failed.length) {
    out.push("", "could not be read:");
    for (const f of t.failed) out.push(`  ${safe(f.path)}: ${safe(f.reason)}`);
  }
  return `${out.join("\n")}\n`;
}
