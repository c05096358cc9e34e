import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { cellProblems, namesOf } from "./cell-checks";
import { type CaseSpec, closeSockets, hostileCases, SESSION_ID_MARK, type Sizes, storeOf, writeDecoy } from "./cases";
import { type Command, COMMANDS, hostileArguments, protoPriceTable, type Target } from "./commands";
import { fingerprint, listing, listingChanges } from "./fingerprints";
import { closeOpencodeWriters } from "./opencode-cases";
import { type CellResult, type MatrixCounts, matrixReport, summaryLine } from "./report";
import { pool, RSS_PRELOAD, spawnCell } from "./spawn-cell";

/**
 * What an error about a bad argument names instead of the file: a --prices device by its
 * path, a pattern too long as "the pattern". Only for those cells: every other error must
 * name the input.
 */
function badArgumentNames(command: string): string[] {
  if (command.startsWith("cost --prices")) return ["/dev/zero"];
  if (command.startsWith("search 40 KB")) return ["the pattern "];
  return [];
}

export interface MatrixOptions {
  /** The built CLI (dist/cli.js). */
  cli: string;
  /** The project's folder: no run may add or change a file in it. */
  projectDir: string;
  cellSeconds: number;
  /** Cells not started when this is spent are failures ("not run"), so the test always ends with a report. */
  wallMinutes: number;
  rssMiB: number;
  heapMiB: number;
  poolSize: number;
  sizes: Sizes;
  /** Only the cases whose name matches (for a quick look at a few). */
  only?: RegExp;
  keep?: boolean;
}

export interface MatrixOutcome {
  summary: string;
  report: string;
  reportFile: string;
  results: CellResult[];
  /** Files touched outside the cells' own inputs (the project, the real caches, the decoy). */
  outsideChanges: string[];
}

/** A session addressed inside a database (`<db>#<id>`), not a file of its own. */
const isAddress = (path: string) => /#ses_[A-Za-z0-9_-]+$/.test(path);
/** The file a target is stored in: the database of an address, else the file itself. */
const onDisk = (path: string) => (isAddress(path) ? path.slice(0, path.lastIndexOf("#")) : path);

/** The files the hostile arguments run over: the plain and the 50,000-a session of each format with a store or a reader. */
const ARGUMENT_CASES = /^(pi-v3|claude-code|clawdcode|seed-000)\/(plain|redos-text)$/;

interface Prepared {
  spec: CaseSpec;
  root: string;
  target: Target;
  /** A second copy for branch (which appends), so that fork's copy stays as made. */
  branchCopy: string;
}

function hashHead(path: string, bytes: number): string {
  const h = createHash("sha1");
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(1 << 20);
    for (let pos = 0; pos < bytes; ) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, bytes - pos), pos);
      if (n <= 0) break;
      h.update(buf.subarray(0, n));
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
  return h.digest("hex");
}

/**
 * The folders outside the temp dir a careless run could write: the project and the decoy
 * (every change counts), and the user's real stores and caches, which other processes on
 * the machine share (only a change naming one of our files counts there).
 */
function outsideDirs(projectDir: string, decoyDir: string): Array<{ d: string; all: boolean }> {
  const home = homedir();
  const shared = [join(home, ".cache", "agent-session-explorer"), join(home, ".pi"), join(home, ".claude"), join(home, ".clawdcode")];
  return [{ d: projectDir, all: true }, { d: decoyDir, all: true }, ...shared.map((d) => ({ d, all: false }))];
}

async function prepare(spec: CaseSpec, root: string, i: number): Promise<Prepared> {
  const caseRoot = join(root, "cases", String(i).padStart(3, "0"));
  const { projectDir, dirArg } = storeOf(spec.agent, caseRoot);
  mkdirSync(projectDir, { recursive: true });
  const file = await spec.make(projectDir);
  const copyDir = (kind: string) => {
    const d = join(root, "writes", String(i).padStart(3, "0"), kind);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const copy = await spec.make(copyDir("fork"));
  const branchCopy = await spec.make(copyDir("branch"));
  return { spec, root: caseRoot, target: { file, dirArg, ids: spec.ids, copy }, branchCopy };
}

/** Builds every hostile case in a temp dir, runs every command over every file, and reports. */
export async function runHostileMatrix(o: MatrixOptions): Promise<MatrixOutcome> {
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), "ase-matrix-"));
  const decoyDir = mkdtempSync(join(tmpdir(), "ase-matrix-decoy-"));
  const decoy = writeDecoy(decoyDir);
  const home = join(root, "home");
  for (const d of ["home/.cache", "home/.config", "tmp", "work", "args", "rss"]) mkdirSync(join(root, d), { recursive: true });
  const preload = join(root, "rss-preload.cjs");
  writeFileSync(preload, RSS_PRELOAD);
  const fifo = join(root, "args", "prices.fifo");
  spawnSync("mkfifo", [fifo]);
  const protoPrices = join(root, "args", "proto-prices.json");
  writeFileSync(protoPrices, protoPriceTable());
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_CONFIG_HOME: join(home, ".config"),
    TMPDIR: join(root, "tmp"),
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
    PI_CODING_AGENT_DIR: join(home, ".pi", "agent"),
    CLAWDCODE_DIR: join(home, ".clawdcode"),
    // No key, and a base URL nothing listens on: no command may reach a model.
    ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
  };
  const outside = outsideDirs(o.projectDir, decoyDir).map((x) => ({ ...x, before: listing(x.d, new Set(["node_modules", ".git"])) }));

  const specs = hostileCases(decoy, o.sizes).filter((s) => !o.only || o.only.test(s.name));
  const prepared: Prepared[] = [];
  for (const [i, s] of specs.entries()) prepared.push(await prepare(s, root, i));
  const caseListing = new Map(prepared.map((p) => [p, listing(p.root)]));

  const args = hostileArguments({ fifo, protoPrices });
  const argumentCases = prepared.filter((p) => ARGUMENT_CASES.test(p.spec.name));
  const commandsOf = (p: Prepared) => COMMANDS.filter((cmd) => !p.spec.commands || p.spec.commands.includes(cmd.name));
  const cells: Array<{ p: Prepared; cmd: Command }> = [...prepared.flatMap((p) => commandsOf(p).map((cmd) => ({ p, cmd }))), ...argumentCases.flatMap((p) => args.map((cmd) => ({ p, cmd })))];
  const deadline = Date.now() + o.wallMinutes * 60_000;
  let n = 0;

  const jobs = cells.map(({ p, cmd }) => async (): Promise<CellResult> => {
    const branching = cmd.name.startsWith("branch");
    const target = branching ? { ...p.target, copy: p.branchCopy } : p.target;
    const watched = onDisk(cmd.writes ? target.copy : target.file);
    const before = fingerprint(watched);
    const sizeBefore = lstatSync(watched).size;
    const headBefore = branching && lstatSync(watched).isFile() && sizeBefore < 1 << 26 ? hashHead(watched, sizeBefore) : undefined;
    const run = await spawnCell({ node: process.execPath, cli: o.cli, args: cmd.args(target), cwd: join(root, "work"), env, budgetMs: o.cellSeconds * 1000, heapMiB: o.heapMiB, preload, rssFile: join(root, "rss", `${n++}.txt`), marker: decoy.marker });
    // A session in a database is named by its address (the database's path or folder does not say which session), its store only by a --dir command.
    const store = target.dirArg.replace(/^[a-z0-9-]+=/, "");
    const where = !isAddress(target.file) ? [dirname(target.file), store] : cmd.name.includes("--dir") ? [store] : [];
    const problems = cellProblems(run, { seconds: o.cellSeconds, rssMiB: o.rssMiB }, namesOf(target.file, [...where, fifo, protoPrices, ...badArgumentNames(cmd.name)]));
    if (p.spec.opens && cmd.name.startsWith("tree") && run.code === 2) problems.push(`a valid session refused: ${run.stderr.trim().slice(0, 160)}`);
    const forbidden = cmd.forbids?.(decoy.dir);
    // A "left out:" line names a bad figure on purpose (which line, which value): it is the report, not a figure.
    const shown = run.stdoutEdges.split("\n").filter((l) => !/^left out: /.test(l)).join("\n");
    if (forbidden?.pattern.test(shown)) problems.push(forbidden.why);
    if (branching) {
      // branch appends to its copy: what was there must stay as it was.
      if (headBefore !== undefined && hashHead(watched, sizeBefore) !== headBefore) problems.push("branch changed bytes it should only have appended after");
    } else if (fingerprint(watched) !== before) problems.push(`input changed: ${watched}`);
    const changes = listingChanges(caseListing.get(p) ?? new Map(), listing(p.root));
    if (changes.length) {
      problems.push(`store changed: ${changes.slice(0, 3).join(", ")}`);
      caseListing.set(p, listing(p.root));
    }
    return { file: p.spec.name, command: cmd.name, ms: run.ms, code: run.code, maxRssKiB: run.maxRssKiB, problems };
  });
  const ran = await pool(jobs, o.poolSize, () => Date.now() > deadline);
  await closeOpencodeWriters();
  const results = ran.map((r, i) => r ?? { file: cells[i].p.spec.name, command: cells[i].cmd.name, ms: 0, code: null, problems: ["not run: the matrix's wall budget was spent"], notRun: true });

  // What names our files: the temp dir, the sessions' id and file names (a cache key is made of them).
  const ours = [basename(root), SESSION_ID_MARK, ...new Set(prepared.map((p) => basename(p.target.file)))];
  const outsideChanges = outside.flatMap(({ d, all, before }) => listingChanges(before, listing(d, new Set(["node_modules", ".git"]))).filter((c) => all || ours.some((t) => c.includes(t))));
  const inDatabases = prepared.filter((p) => p.spec.commands);
  const counts: MatrixCounts = {
    files: prepared.length - inDatabases.length,
    commands: COMMANDS.length,
    databases: inDatabases.length,
    databaseCommands: inDatabases[0]?.spec.commands?.length ?? 0,
    argumentFiles: argumentCases.length,
    argumentCommands: args.length,
  };
  let report = matrixReport(counts, results, Date.now() - started);
  if (outsideChanges.length) report += `\nfiles touched outside the temp dir:\n${outsideChanges.map((c) => `  ${c}`).join("\n")}\n`;
  report += `\ncases:\n${prepared.map((p) => `  ${p.spec.name}: ${p.spec.about}`).join("\n")}\n`;
  const reportFile = join(root, "report.txt");
  writeFileSync(reportFile, report);
  // Every cell's figures, for a closer look than the report's.
  writeFileSync(join(root, "cells.json"), JSON.stringify(results, null, 1));

  closeSockets();
  rmSync(decoyDir, { recursive: true, force: true });
  if (!o.keep) for (const d of ["cases", "writes", "home", "tmp", "work", "args", "rss"]) rmSync(join(root, d), { recursive: true, force: true });
  return { summary: summaryLine(counts, results), report, reportFile, results, outsideChanges };
}
