import { statSync } from "node:fs";
import { FORMATS } from "../../core/formats/registry";
import { SearchInputError } from "../../core/search/pattern";
import { searchRoots } from "../../core/search/search-targets";
import { searchSessions, type SessionSearch } from "../../core/search/search-sessions";
import type { SearchHit, SessionHits } from "../../core/search/search-types";
import { RegexDeadlineError } from "../../core/search/regex-thread";
import { clipText } from "../../core/util/visible-text";
import { agentId, onlyAgents, parseDirs } from "../agent-dirs";
import { intFlag, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";
import { humanBytes, safeText } from "../format";
import { NotRegularFileError } from "../../core/util/safe-open";

const usage =
  "ase search PATTERN [--dir [AGENT=]D]... [--agent A]... [--file F]... [--regex] [--case-sensitive] [--kind K]... [--project P] [--since DATE] [--until DATE] [--limit N] [--regex-timeout S] [--json]";

const DAY = 86_400_000;
const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: DAY, w: 7 * DAY };

/**
 * A --since/--until value: a day (2026-01-31, UTC; as --until the whole day counts), a
 * time (2026-01-31T12:00:00Z), or an age (30m, 12h, 7d, 2w before now).
 */
export function parseDate(value: string, flag: "since" | "until", now = Date.now()): number {
  const age = /^(\d+)([mhdw])$/.exec(value);
  if (age) return now - Number(age[1]) * UNITS[age[2]];
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const t = Date.parse(`${value}T00:00:00.000Z`);
    if (!Number.isNaN(t)) return flag === "until" ? t + DAY - 1 : t;
  } else if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return t;
  }
  throw new CliError(`--${flag} expects a day (2026-01-31), a time (2026-01-31T12:00:00Z) or an age (30m, 12h, 7d, 2w), got "${value}"`);
}

/** Given folders and files must exist: a typo is an error, not an empty result. */
function checkPaths(dirs: Record<string, string>, files: string[]): void {
  for (const [agent, dir] of Object.entries(dirs)) {
    let ok = false;
    try {
      ok = statSync(dir).isDirectory();
    } catch {
      // Reported below.
    }
    if (!ok) throw new CliError(`--dir ${agent === "pi" ? "" : `${agent}=`}${dir}: no such folder`);
  }
  for (const f of files) {
    // A session inside a store (`<db>#<id>`) is no file; loading it names what is wrong.
    if (FORMATS.some((fm) => fm.addresses?.(f))) continue;
    let st;
    try {
      st = statSync(f);
    } catch {
      throw new CliError(`--file ${safeText(f)}: no such file`);
    }
    // A FIFO would block the read for ever; a folder is no session: named by kind, as every command does.
    if (!st.isFile()) throw new CliError(`--file ${safeText(new NotRegularFileError(f, st).message)}`);
  }
}

function timeText(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : "-".padEnd(16);
}

/** Where a sub-agent's hit is: "of sub-agent <id> (<what it was asked>)". */
function subagentText(h: SearchHit): string {
  const a = h.subagent;
  if (!a) return "";
  return ` of sub-agent ${safeText(a.agentId)}${a.description ? ` (${safeText(clipText(a.description, 60))})` : ""}`;
}

function sessionText(s: SessionHits): string {
  const head = `${safeText(s.path)}  [${safeText(s.agent)}]${s.title ? `  ${safeText(clipText(s.title, 80))}` : ""}\n`;
  const lines = s.hits.map((h) => `  ${timeText(h.timestamp)}  ${h.kind.padEnd(14)} ${safeText(h.entryId)}  line ${h.line}${subagentText(h)}  ${safeText(h.snippet)}\n`);
  return head + lines.join("");
}

function footer(search: SessionSearch, sessions: number, limit: number | undefined): string {
  const scanned = `scanned ${search.scanned.files} file(s), ${humanBytes(search.scanned.bytes)}`;
  if (!search.hitCount) return `no matches (${scanned})\n`;
  const stopped = search.limited ? `; stopped at --limit ${limit}` : "";
  return `${search.hitCount} hit(s) in ${sessions} session(s) (${scanned}${stopped})\n`;
}

async function run(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseFlags(
    args,
    {
      dir: { type: "string", multiple: true },
      agent: { type: "string", multiple: true },
      file: { type: "string", multiple: true },
      regex: { type: "boolean" },
      "case-sensitive": { type: "boolean" },
      kind: { type: "string", multiple: true },
      project: { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      limit: { type: "string" },
      "regex-timeout": { type: "string" },
      json: { type: "boolean" },
    },
    usage,
  );
  if (positionals.length !== 1) throw new CliError(positionals.length ? `expected one pattern, got ${positionals.length} (quote a pattern with spaces; usage: ${usage})` : `missing PATTERN (usage: ${usage})`);
  const files = values.file ?? [];
  if (files.length && values.dir?.length) throw new CliError("--file and --dir cannot be combined (search given files, or stores)");
  const dirs = parseDirs(values.dir ?? []);
  // Given files may be of any format; stores are those of agents with one.
  const only = files.length
    ? values.agent?.map((a) => FORMATS.find((f) => f.id === a)?.id ?? agentId(a))
    : onlyAgents(values.agent, dirs);
  const limit = intFlag(values.limit, "limit");
  if (limit === 0) throw new CliError("--limit must be at least 1");
  const since = values.since === undefined ? undefined : parseDate(values.since, "since");
  const until = values.until === undefined ? undefined : parseDate(values.until, "until");
  if (since !== undefined && until !== undefined && since > until) throw new CliError("--since is after --until");
  const timeout = values["regex-timeout"];
  if (timeout !== undefined && !(/^\d+(\.\d+)?$/.test(timeout) && Number(timeout) > 0)) throw new CliError(`--regex-timeout expects seconds (a number above 0, e.g. 2 or 0.5), got "${safeText(clipText(timeout, 40))}"`);
  checkPaths(dirs, files);
  let search: SessionSearch;
  try {
    search = searchSessions({
      pattern: positionals[0],
      regex: values.regex,
      caseSensitive: values["case-sensitive"],
      kinds: values.kind,
      project: values.project,
      since,
      until,
      limit,
      files: files.length ? files : undefined,
      dirs,
      only,
      env: io.env,
      ...(timeout !== undefined ? { regexDeadlineMs: Number(timeout) * 1000 } : {}),
    });
  } catch (err) {
    if (err instanceof SearchInputError) throw new CliError(safeText(err.message));
    throw err;
  }
  const sessions: SessionHits[] = [];
  try {
    for await (const s of search) {
      sessions.push(s);
      if (!values.json) io.out(sessionText(s));
    }
  } catch (err) {
    // A failed command prints nothing on stdout (main): the line says how far it got, and how to allow more time.
    if (err instanceof RegexDeadlineError) {
      const found = search.hitCount ? `; ${search.hitCount} hit(s) were found before it` : "";
      throw new CliError(`${safeText(err.message)} (or allow more with --regex-timeout SECONDS${found})`);
    }
    throw err;
  }
  for (const s of search.skipped) io.err(`skipped ${safeText(s.path)}: ${safeText(s.reason)}\n`);
  if (values.json) {
    const out = {
      pattern: search.pattern.source,
      regex: search.pattern.regex,
      sessions: sessions.map((s) => ({ path: s.path, agent: s.agent, hits: s.hits })),
      scanned: { files: search.scanned.files, bytes: search.scanned.bytes },
    };
    io.out(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  if (!files.length && !sessions.length && !search.scanned.files) {
    io.out(`no sessions under ${searchRoots({ dirs, only, env: io.env }).map((r) => `${safeText(r.root)} (${r.agent})`).join(", ")}\n`);
  }
  io.out(footer(search, sessions.length, limit));
}

export const searchCommand: CliCommand = {
  name: "search",
  usage,
  summary: "every session of every agent (or the files given) for a text or regex: hits grouped by session, newest first, with the entry, its kind, time and a snippet",
  run,
};
