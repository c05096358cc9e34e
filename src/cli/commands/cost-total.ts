import { shownField } from "../../core/util/visible-text";
import { resolve } from "node:path";
import { listAllSessions } from "../../core/formats/list-all";
import { costTargets, scanCosts } from "../../core/usage/cost-scan";
import { parseDateBound, type TimeRange } from "../../core/usage/cost-total";
import { costTotalText } from "../../core/usage/cost-total-text";
import { reconcileText } from "../../core/usage/reconcile-text";
import { CliError, type CliIO } from "../cli-error";
import { readPrices } from "../prices-file";
import { agentId, parseDirs } from "../agent-dirs";
import { cacheDir } from "./list";

export const totalUsage = "ase cost --total [--dir [AGENT=]D]... [--agent A]... [--project P] [--since DATE] [--until DATE] [--prices FILE] [--reconcile] [--json] [--no-cache]";

/** The flags only `--total` takes (parsed with the single-file ones, so either usage errors clearly). */
export const TOTAL_FLAGS = {
  total: { type: "boolean" },
  dir: { type: "string", multiple: true },
  agent: { type: "string", multiple: true },
  project: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  "no-cache": { type: "boolean" },
} as const;

interface TotalValues {
  by?: string;
  prices?: string;
  json?: boolean;
  dir?: string[];
  agent?: string[];
  project?: string;
  since?: string;
  until?: string;
  "no-cache"?: boolean;
  reconcile?: boolean;
}

function bound(text: string | undefined, flag: string, end: boolean): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseDateBound(text, end);
  if (ms === undefined) throw new CliError(`--${flag} expects a date (YYYY-MM-DD, a UTC day) or an ISO date-time with a zone, got "${shownField(text)}"`);
  return ms;
}

/** A project as the sessions name it: a path without its trailing separators. */
const plain = (p: string) => (p.length > 1 ? p.replace(/[\\/]+$/, "") : p);

/**
 * `ase cost --total`: every session the listing finds (sub-agent transcripts included),
 * optionally of one project, costed over a range of step times and summed by model,
 * UTC day and project.
 */
export async function runTotal(values: TotalValues, positionals: string[], io: CliIO): Promise<void> {
  if (positionals.length) throw new CliError(`--total sums the listed sessions and takes no file, got "${shownField(positionals[0])}" (usage: ${totalUsage})`);
  if (values.by !== undefined) throw new CliError(`--by is for one session file; --total sums by model, day and project (usage: ${totalUsage})`);
  const range: TimeRange = { since: bound(values.since, "since", false), until: bound(values.until, "until", true) };
  if (range.since !== undefined && range.until !== undefined && range.until <= range.since) throw new CliError(`--until (${values.until}) is not after --since (${values.since})`);
  const prices = readPrices(values.prices, io);
  const dirs = parseDirs(values.dir ?? []);
  const agents = values.agent?.map(agentId);
  const only = agents ?? (Object.keys(dirs).length ? Object.keys(dirs) : undefined);
  const listing = await listAllSessions({ dirs, only, cacheDir: values["no-cache"] ? undefined : cacheDir(io.env), env: io.env });
  for (const s of listing.skipped) io.err(`skipped ${shownField(s.path)}: ${shownField(s.reason)}\n`);
  for (const n of listing.notes) io.err(`note: ${shownField(n.path)}: ${shownField(n.reason)}\n`);
  let projects = listing.projects;
  if (values.project !== undefined) {
    const want = new Set([plain(values.project), plain(resolve(io.cwd, values.project))]);
    projects = projects.filter((p) => want.has(plain(p.cwd)));
    if (!projects.length) throw new CliError(`no sessions of project "${shownField(values.project)}" under ${listing.roots.map((r) => `${shownField(r.root)} (${r.agent})`).join(", ")} (ase list shows the projects)`);
  }
  const result = await scanCosts(costTargets(projects), { range, prices, reconcile: values.reconcile === true });
  if (values.json) {
    io.out(`${JSON.stringify({ roots: listing.roots, project: values.project === undefined ? null : projects[0].cwd, currency: "USD", ...result }, null, 2)}\n`);
    return;
  }
  for (const f of result.failed) io.err(`could not read ${shownField(f.path)}: ${shownField(f.reason)}\n`);
  io.out(costTotalText(result, { title: values.project !== undefined ? `project ${projects[0].cwd}` : undefined }));
  if (result.reconciliation) io.out(`\n${reconcileText(result.reconciliation)}`);
}
