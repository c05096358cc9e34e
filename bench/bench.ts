import { spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { buildContext } from "../src/core/formats/pi/context/build-context";
import { firstPartFor } from "../src/core/store/first-look";
import { benchClaudeCode } from "./claude-code";
import { benchGemini } from "./gemini";
import { benchExportHtml } from "./export-html";
import { benchOpencode } from "./opencode";
import { benchCodex, benchCodexList, codexRollout } from "./codex";
import { benchJsonValid } from "./json-valid";
import { Session } from "../src/core/formats/pi/pi-session";
import { generateSession } from "./generate";
import { benchHistory } from "./history";
import { benchSearch } from "./search";
import { benchStartup } from "./startup";
import { benchTokens } from "./tokens";
import { treeRows } from "../src/core/formats/tree-rows";
import { instantTokens } from "../src/core/formats/pi/tokens/entry-tokens";
import { formatBars } from "../src/explorer/format-bars";
import { benchVersusPi } from "./versus-pi";
// Sessions loaded by pi's class directly find their format in the registry's table.
import "../src/core/formats/registry";

/**
 * `npm run bench`: speed and memory against the limits measured on this machine
 * (docs/performance.md). Figures are printed as rates and as ratios to a baseline taken
 * in the same run, since the machine is shared and absolute times drift.
 */

const MB = 1024 * 1024;
const FIXTURES = resolve(process.env.ASE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "pi"));
const WORK = resolve(process.env.ASE_BENCH_DIR ?? ".bench");
const SELF = process.argv[1];

const results: Array<{ name: string; value: string; target: string; ok: boolean }> = [];
function report(name: string, value: string, target: string, ok: boolean): void {
  results.push({ name, value, target, ok });
  console.log(`${ok ? "PASS" : "FAIL"}  ${name}: ${value}  (target ${target})`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function child(mode: string, file: string, warm = false): { ms: number; maxRssBytes: number; entries: number; threads: number } {
  const r = spawnSync(process.execPath, [join(dirname(SELF), "load-child.js"), mode, file, ...(warm ? ["--warm"] : [])], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`child ${mode} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() as string);
}

function sources(): string[] {
  const files = ["before-compaction.jsonl", "large-session.jsonl"].map((f) => join(FIXTURES, f));
  for (const f of files) if (!existsSync(f)) throw new Error(`bench needs the real sessions: ${f} not found (set ASE_FIXTURES)`);
  return files;
}

function synthetic(sizeMb: number): string {
  mkdirSync(WORK, { recursive: true });
  const out = join(WORK, `synthetic-${sizeMb}mb.jsonl`);
  const t0 = Date.now();
  const g = generateSession({ sources: sources(), targetBytes: sizeMb * MB, out, seed: sizeMb });
  if (g.entries >= 0) console.log(`  generated ${out}: ${(g.bytes / MB).toFixed(0)} MB, ${g.entries} entries, ${g.branches} branches, ${g.compactions} compactions in ${Date.now() - t0} ms`);
  return out;
}

const SIZES = (process.env.ASE_BENCH_SIZES ?? "25,100,400").split(",").map(Number);
/** Issue 15: Claude Code transcripts of 100 and 400 MB. */
const CLAUDE_CODE_SIZES = (process.env.ASE_BENCH_CLAUDE_CODE_SIZES ?? "100,400").split(",").map(Number);
const CLAUDE_CODE_FIXTURES = join(FIXTURES, "..", "claude-code");
/** Issue 28: a Gemini CLI session of 100 MB, built from the recorded fixtures. */
const GEMINI_SIZES = (process.env.ASE_BENCH_GEMINI_SIZES ?? "100").split(",").map(Number);
const GEMINI_FIXTURES = join(process.cwd(), "test", "fixtures", "gemini-cli");

function geminiSection(): Promise<void> {
  console.log("\n# Gemini CLI sessions (built from the recorded fixtures)");
  return benchGemini({ work: WORK, fixtures: GEMINI_FIXTURES, sizes: GEMINI_SIZES, runs: 3, report });
}

/** Runs per mode and size; interleaved, so drift on a shared machine hits every mode alike. */
const LOAD_RUNS = Number(process.env.ASE_BENCH_RUNS ?? 5);

async function benchLoad(sizeMb: number, file: string): Promise<void> {
  const size = statSync(file).size;
  const modes = ["index", "index-1t", "index-parse", "parse"] as const;
  const ms: Record<(typeof modes)[number], number[]> = { index: [], "index-1t": [], "index-parse": [], parse: [] };
  let rss = 0;
  let threads = 1;
  for (let k = 0; k < LOAD_RUNS; k++) {
    for (const mode of modes) {
      // Below the second thread's threshold both index modes are the same load.
      if (mode === "index-1t" && threads === 1) continue;
      const r = child(mode, file);
      ms[mode].push(r.ms);
      if (mode === "index") {
        rss = Math.max(rss, r.maxRssBytes);
        threads = r.threads;
      }
    }
  }
  const rate = (mode: (typeof modes)[number]) => size / MB / (median(ms[mode]) / 1000);
  const idxRate = rate("index");
  const limitRate = rate("index-parse");
  const parseRate = rate("parse");
  const ratio = idxRate / limitRate;
  console.log(`  ${sizeMb} MB, median of ${LOAD_RUNS}: load+index ${median(ms.index).toFixed(0)} ms on ${threads} thread(s); streaming index-parse limit ${median(ms["index-parse"]).toFixed(0)} ms; bare streaming JSON.parse ${median(ms.parse).toFixed(0)} ms`);
  // performance.md: ">= 150 MB/s (>= 0.65x the streaming index-parse limit measured in the
  // same run)". 150 is 0.65x of the 235 MB/s the limit ran at where that was measured; the
  // ratio is what carries over to another machine, so both are printed and judged.
  report(`load+index ${sizeMb} MB`, `${idxRate.toFixed(0)} MB/s (the limit ran at ${limitRate.toFixed(0)} MB/s in this run)`, ">= 150 MB/s", idxRate >= 150);
  report(`load+index ${sizeMb} MB vs the streaming index-parse limit`, `${ratio.toFixed(2)}x`, ">= 0.65x", ratio >= 0.65);
  console.log(`  load+index ${sizeMb} MB vs bare JSON.parse (no index kept): ${(idxRate / parseRate).toFixed(2)}x (${parseRate.toFixed(0)} MB/s bare)`);
  if (sizeMb === Math.min(...SIZES)) {
    // A fresh process pays V8's warm-up on the first few thousand entries, which weighs
    // most on the smallest file; in an editor that has opened a session before it is paid.
    const warm = { index: [] as number[], limit: [] as number[] };
    for (let k = 0; k < LOAD_RUNS; k++) {
      warm.index.push(child("index", file, true).ms);
      warm.limit.push(child("index-parse", file, true).ms);
    }
    const w = median(warm.limit) / median(warm.index);
    console.log(`  load+index ${sizeMb} MB warm (a second load in the same process, for both): ${(size / MB / (median(warm.index) / 1000)).toFixed(0)} MB/s, ${w.toFixed(2)}x the limit (${(size / MB / (median(warm.limit) / 1000)).toFixed(0)} MB/s warm)`);
  }
  if (threads > 1) {
    // The limit is one thread's work; what our load does on one thread stays in view.
    const oneRate = rate("index-1t");
    console.log(`  load+index ${sizeMb} MB kept to one thread: ${oneRate.toFixed(0)} MB/s, ${(oneRate / limitRate).toFixed(2)}x the limit; the second thread makes it ${(idxRate / oneRate).toFixed(2)}x faster`);
  }
  const rssRatio = rss / size;
  if (sizeMb >= 100) {
    const limit = sizeMb >= 400 ? 0.5 : 1;
    report(`peak RSS / file size ${sizeMb} MB`, `${rssRatio.toFixed(2)}x (${(rss / MB).toFixed(0)} MB)`, `< ${limit}x`, rssRatio < limit);
  } else {
    console.log(`  peak RSS / file size ${sizeMb} MB: ${rssRatio.toFixed(2)}x (${(rss / MB).toFixed(0)} MB; Node itself ~40 MB)`);
  }
}

async function benchDeepLeaf(file: string): Promise<void> {
  const s = await Session.load(file);
  const tree = s.tree;
  // The deepest leaf has the longest path to walk.
  let deepest = 0;
  let depth = 0;
  for (const leaf of tree.leaves()) {
    const d = tree.path(leaf).length;
    if (d > depth) {
      depth = d;
      deepest = leaf;
    }
  }
  const id = s.metas[deepest].id;
  const t0 = performance.now();
  const ctx = buildContext(s, id);
  const cold = performance.now() - t0;
  const t1 = performance.now();
  buildContext(s, id);
  const warm = performance.now() - t1;
  const others: number[] = [];
  for (const leaf of tree.leaves().slice(0, 50)) {
    const t = performance.now();
    buildContext(s, s.metas[leaf].id);
    others.push(performance.now() - t);
  }
  console.log(`  deepest leaf ${id}: path of ${depth} entries, ${ctx.parts.length} context messages; ${tree.leaves().length} leaves in all`);
  report("context of the deepest leaf, 100 MB, first build", `${cold.toFixed(1)} ms (repeat ${warm.toFixed(1)} ms; p50 of 50 other leaves ${median(others).toFixed(1)} ms)`, "< 50 ms", cold < 50);
}

/** Opens a session as the explorer does (a first part of a large one first) and times the first page of rows. */
async function benchFirstRows(file: string): Promise<void> {
  const size = statSync(file).size;
  const sizeMb = (size / MB).toFixed(0);
  const t0 = performance.now();
  const s = await Session.load(file, { firstPart: firstPartFor(size) });
  const loaded = performance.now();
  const rows = treeRows(s, { filter: "default" });
  const page = rows.slice(0, 128).map((r) => ({ id: s.metas[r.index].id, prefix: r.prefix, preview: s.metas[r.index].preview, tokens: s.metas[r.index].estimate }));
  const firstPage = performance.now();
  const bars = formatBars(s, undefined, {}, instantTokens(s));
  const done = performance.now();
  const what = s.complete ? "load" : `first ${(s.size / MB).toFixed(0)} MB (${s.metas.length} entries) loaded`;
  console.log(`  ${sizeMb} MB: ${what} ${(loaded - t0).toFixed(0)} ms, ${rows.length} rows built + first page of ${page.length} ${(firstPage - loaded).toFixed(0)} ms, ${bars.length} token bars ${(done - firstPage).toFixed(0)} ms`);
  report(`open to first rows ready in the host, ${sizeMb} MB`, `${(firstPage - t0).toFixed(0)} ms (+ bars ${(done - firstPage).toFixed(0)} ms; the webview paints a page in ~40-70 ms, test/webview)`, "< 1000 ms", firstPage - t0 < 1000);
  if (!s.complete) {
    const r0 = performance.now();
    await s.refresh();
    const all = treeRows(s, { filter: "default" });
    const allBars = formatBars(s, undefined, {}, instantTokens(s));
    const r1 = performance.now();
    console.log(`  ${sizeMb} MB: the rest read on ${s.threads} thread(s), ${all.length} rows and ${allBars.length} bars rebuilt: ${(r1 - r0).toFixed(0)} ms more (${(r1 - t0).toFixed(0)} ms in all)`);
  }
  const rss = process.memoryUsage().rss;
  console.log(`  host memory after open: RSS ${(rss / MB).toFixed(0)} MB (${(rss / size).toFixed(2)}x the file; this process also holds the bench itself)`);
}

function benchList(files: string[]): void {
  const root = mkdtempSync(join(tmpdir(), "ase-bench-list-"));
  const cache = mkdtempSync(join(tmpdir(), "ase-bench-cache-"));
  let total = 0;
  // Hard links give 1,000 real files totalling several GB without using the disk.
  for (let k = 0; k < 1000; k++) {
    const dir = join(root, `--bench-project-${k % 10}--`);
    mkdirSync(dir, { recursive: true });
    const src = k % 100 === 0 ? files[2] : k % 10 === 0 ? files[1] : files[0];
    linkSync(src, join(dir, `2026-01-01T00-00-00-000Z_${String(k).padStart(8, "0")}.jsonl`));
    total += statSync(src).size;
  }
  const run = () => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ["dist/cli.js", "list", "--dir", root, "--json"], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: cache }, maxBuffer: 256 * MB });
    if (r.status !== 0) throw new Error(`ase list failed: ${r.stderr}`);
    const n = (JSON.parse(r.stdout) as { projects: Array<{ sessions: unknown[] }> }).projects.reduce((s, p) => s + p.sessions.length, 0);
    if (n !== 1000) throw new Error(`ase list found ${n} sessions, expected 1000`);
    return performance.now() - t0;
  };
  const cold = run();
  const warm = median([run(), run(), run()]);
  console.log(`  1,000 files, ${(total / 1024 ** 3).toFixed(2)} GB: first listing ${cold.toFixed(0)} ms (${(total / MB / (cold / 1000)).toFixed(0)} MB/s of files scanned, no JSON parse of whole files)`);
  report("ase list over 1,000 files, warm", `${warm.toFixed(0)} ms (${(cold / warm).toFixed(0)}x faster than the first)`, "< 1000 ms", warm < 1000);
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
}

/** Files of the search bench (1,000: about 4 GB); fewer for a quick run. */
const SEARCH_FILES = Number(process.env.ASE_BENCH_SEARCH_FILES ?? 1000);

function searchSection(sources: string[]): Promise<void> {
  console.log("\n# Search without an index (ase search)");
  return benchSearch({ sources, count: SEARCH_FILES, runs: 3, report, log: (l) => console.log(l) });
}

/** Issue 31: the per-file history index over the listing bench's 1,000 sessions (fewer with ASE_BENCH_HISTORY_FILES; ASE_BENCH_HISTORY_RUNS cold runs, default 3). */
function historySection(sources: string[]): Promise<void> {
  console.log("\n# Per-file agent history (ase history, the Agent History view)");
  return benchHistory({ sources, count: Number(process.env.ASE_BENCH_HISTORY_FILES ?? 1000), runs: Number(process.env.ASE_BENCH_HISTORY_RUNS ?? 3), report, log: (l) => console.log(l) });
}

/** Issue 27: a Codex rollout of this many MB, plain and .zst. */
const CODEX_SIZE = Number(process.env.ASE_BENCH_CODEX_SIZE ?? 100);

function codexSection(): void {
  console.log(`\n# Codex rollouts (built from the recorded fixtures; fresh process per load, median of ${LOAD_RUNS})`);
  benchCodex({ work: WORK, self: SELF, sizeMb: CODEX_SIZE, runs: LOAD_RUNS, report });
  benchCodexList(report);
}

/** Issues 31 and 27: the JSON check of lines not parsed, its JavaScript walk against its SIMD scan (ASE_BENCH_JSON_RUNS passes each, default 5). */
function jsonValidSection(): void {
  console.log("\n# JSON check of lines indexed from their lead (Codex loads; history reads no longer check): JavaScript walk and WebAssembly SIMD scan, CPU in one process");
  // pi's lines are mostly one long tool output (issue 31's case); a Codex line is many short
  // members, where the walk's own work outweighs the strings: a guard against going back there.
  const files = [
    { label: "pi 100 MB", file: synthetic(100), target: 0.6 },
    { label: `Codex ${CODEX_SIZE} MB`, file: codexRollout(WORK, CODEX_SIZE), target: 0.8 },
  ];
  benchJsonValid({ files, runs: Number(process.env.ASE_BENCH_JSON_RUNS ?? 5), report, log: (l) => console.log(l) });
}

/** `npm run bench -- startup`, `-- versus-pi`, `-- claude-code`, `-- gemini`, `-- codex`, `-- search`, `-- history`, `-- export`, `-- opencode` or `-- json-valid`: only that section. */
const ONLY = process.argv[2];

function versusPi(sizes: number[], files: string[]): void {
  console.log(`\n# Context of the leaf: ase context against pi itself (fresh processes, interleaved, median of ${LOAD_RUNS})`);
  for (let k = 0; k < sizes.length; k++) benchVersusPi(sizes[k], files[k], LOAD_RUNS, report);
}

async function main(): Promise<void> {
  const sizes = SIZES;
  console.log(`Agent Session Explorer benchmarks (node ${process.version}); synthetic sessions in ${WORK}`);
  if (ONLY === "startup") {
    console.log("\n# Start-up (fresh processes)");
    await benchStartup({ bigSession: synthetic(100), log: (l) => console.log(l), report });
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY === "claude-code") {
    console.log("\n# Claude Code transcripts (built from the real fixtures)");
    await benchClaudeCode({ work: WORK, fixtures: CLAUDE_CODE_FIXTURES, sizes: CLAUDE_CODE_SIZES, runs: 3, report });
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY === "gemini") {
    await geminiSection();
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY === "codex") {
    codexSection();
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY === "export") {
    console.log("\n# HTML export (a page of the session, opened in Chromium)");
    await benchExportHtml({ self: SELF, work: WORK, file: synthetic(100), report, log: (l) => console.log(l) });
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY === "search") {
    await searchSection([join(FIXTURES, "large-session.jsonl"), synthetic(25), synthetic(100)]);
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY === "history") {
    await historySection([join(FIXTURES, "large-session.jsonl"), synthetic(25), synthetic(100)]);
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY === "json-valid") {
    jsonValidSection();
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY === "opencode") {
    console.log("\n# OpenCode's database");
    await benchOpencode({ work: WORK, report, log: (l) => console.log(l) });
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  if (ONLY !== undefined && ONLY !== "versus-pi") throw new Error(`unknown bench section "${ONLY}" (known: startup, versus-pi, claude-code, gemini, codex, search, history, export, opencode, json-valid; none runs everything)`);
  const files = sizes.map((mb) => synthetic(mb));
  if (ONLY === "versus-pi") {
    versusPi(sizes, files);
    const failed = results.filter((r) => !r.ok).length;
    console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
    return;
  }
  const hundredMb = files[sizes.indexOf(100)];
  console.log("\n# Start-up (fresh processes)");
  await benchStartup({ bigSession: hundredMb, log: (l) => console.log(l), report });
  console.log(`\n# Load and index (fresh process per run, median of ${LOAD_RUNS})`);
  for (let k = 0; k < sizes.length; k++) await benchLoad(sizes[k], files[k]);
  versusPi(sizes, files);
  const hundred = files[sizes.indexOf(100)] ?? files[files.length - 1];
  console.log("\n# Context for a leaf");
  await benchDeepLeaf(hundred);
  console.log("\n# Explorer: open to first rows");
  for (const f of files.filter((f) => statSync(f).size >= 100 * MB)) await benchFirstRows(f);
  console.log("\n# HTML export (a page of the session, opened in Chromium)");
  await benchExportHtml({ self: SELF, work: WORK, file: hundred, report, log: (l) => console.log(l) });
  console.log("\n# Session listing");
  benchList([join(FIXTURES, "large-session.jsonl"), files[0], hundred]);
  await searchSection([join(FIXTURES, "large-session.jsonl"), files[0], hundred]);
  await historySection([join(FIXTURES, "large-session.jsonl"), files[0], hundred]);
  console.log("\n# Tokens");
  await benchTokens((line) => console.log(line));
  console.log("\n# Claude Code transcripts (built from the real fixtures)");
  await benchClaudeCode({ work: WORK, fixtures: CLAUDE_CODE_FIXTURES, sizes: CLAUDE_CODE_SIZES, runs: 3, report });
  await geminiSection();
  console.log("\n# OpenCode's database");
  await benchOpencode({ work: WORK, report, log: (l) => console.log(l) });
  codexSection();
  jsonValidSection();
  const failed = results.filter((r) => !r.ok).length;
  console.log(`\nbench: ${results.length - failed} of ${results.length} targets met`);
}

main().catch((err) => {
  console.error(`bench failed: ${(err as Error).stack ?? err}`);
  process.exitCode = 1;
});
