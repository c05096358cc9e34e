import { spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatOf, openSession } from "../src/core/formats/registry";
import { firstPartFor } from "../src/core/store/first-look";
import { treeRows } from "../src/core/formats/tree-rows";
import { formatBars } from "../src/explorer/format-bars";
import { generateClaudeCodeSession } from "./generate-claude-code";

const MB = 2 ** 20;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The real Claude Code transcripts of ../shared (main transcripts; sub-agent files left out). */
export function claudeCodeSources(fixtures: string): string[] {
  const dir = join(fixtures, "real");
  if (!existsSync(dir)) throw new Error(`bench needs the real Claude Code transcripts: ${dir} not found`);
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".jsonl") && !f.includes("subagents") && !f.split("/").pop()?.startsWith("agent-"))
    .map((f) => join(dir, f))
    .sort();
}

/**
 * Claude Code transcripts built from the fixtures: load and index (the same rate target
 * as pi sessions), and the explorer's first rows from a first look at the file.
 */
export async function benchClaudeCode(opts: { work: string; fixtures: string; sizes: number[]; runs: number; report: (what: string, got: string, target: string, ok: boolean) => void }): Promise<void> {
  mkdirSync(opts.work, { recursive: true });
  for (const sizeMb of opts.sizes) {
    const file = join(opts.work, `claude-code-${sizeMb}mb.jsonl`);
    const g = generateClaudeCodeSession({ sources: claudeCodeSources(opts.fixtures), targetBytes: sizeMb * MB, out: file, seed: sizeMb });
    if (g.lines >= 0) console.log(`  generated ${file}: ${(g.bytes / MB).toFixed(0)} MB, ${g.lines} lines, ${g.rewinds} rewinds, ${g.compactions} compactions`);
    const size = statSync(file).size;
    const loads: number[] = [];
    let entries = 0;
    for (let k = 0; k < opts.runs; k++) {
      const t0 = performance.now();
      const s = await openSession(file);
      loads.push(performance.now() - t0);
      entries = s.metas.length;
      if (formatOf(s).id !== "claude-code") throw new Error(`${file} was read as ${formatOf(s).id}, not claude-code`);
    }
    const rate = size / MB / (median(loads) / 1000);
    console.log(`  ${sizeMb} MB Claude Code transcript, ${entries} entries: load+index ${median(loads).toFixed(0)} ms (median of ${opts.runs})`);
    opts.report(`load+index, Claude Code ${sizeMb} MB`, `${rate.toFixed(0)} MB/s`, ">= 150 MB/s", rate >= 150);
    const t0 = performance.now();
    const s = await openSession(file, { firstPart: firstPartFor(size) });
    const rows = treeRows(s, { filter: "default" });
    const page = rows.slice(0, 128).map((r) => s.metas[r.index].preview);
    const first = performance.now() - t0;
    const bars = formatBars(s, undefined);
    const withBars = performance.now() - t0;
    console.log(`  ${sizeMb} MB: ${s.complete ? "whole file" : `first ${s.metas.length} entries`} loaded, ${rows.length} rows, first page of ${page.length} in ${first.toFixed(0)} ms; ${bars.length} bars by ${withBars.toFixed(0)} ms`);
    opts.report(`open to first rows ready in the host, Claude Code ${sizeMb} MB`, `${first.toFixed(0)} ms (+ bars: ${withBars.toFixed(0)} ms)`, "< 1000 ms", first < 1000);
  }
  benchListing(claudeCodeSources(opts.fixtures), opts.sizes.map((mb) => join(opts.work, `claude-code-${mb}mb.jsonl`)), opts.report);
}

/**
 * `ase list` over a Claude Code store of 1,000 transcripts (hard links of the real ones
 * and the generated ones, 100 projects): the first listing reads each file's head and
 * tail; later ones come from the cache while the files are unchanged.
 */
function benchListing(real: string[], generated: string[], report: (what: string, got: string, target: string, ok: boolean) => void): void {
  const root = mkdtempSync(join(tmpdir(), "ase-bench-cc-list-"));
  const cache = mkdtempSync(join(tmpdir(), "ase-bench-cc-cache-"));
  try {
    let total = 0;
    for (let k = 0; k < 1000; k++) {
      const dir = join(root, "projects", `-bench-project-${k % 100}`);
      mkdirSync(dir, { recursive: true });
      const src = k % 250 === 0 && generated.length ? generated[(k / 250) % generated.length] : real[k % real.length];
      linkSync(src, join(dir, `cb${String(k).padStart(6, "0")}-0000-4000-8000-000000000000.jsonl`));
      total += statSync(src).size;
    }
    const run = () => {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, ["dist/cli.js", "list", "--dir", `claude-code=${root}`, "--json"], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: cache }, maxBuffer: 256 * MB });
      if (r.status !== 0) throw new Error(`ase list failed: ${r.stderr}`);
      const n = (JSON.parse(r.stdout) as { projects: Array<{ sessions: unknown[] }> }).projects.reduce((a, p) => a + p.sessions.length, 0);
      if (n !== 1000) throw new Error(`ase list found ${n} Claude Code sessions, expected 1000`);
      return performance.now() - t0;
    };
    const cold = run();
    const warm = median([run(), run(), run()]);
    console.log(`  1,000 Claude Code transcripts, ${(total / MB).toFixed(0)} MB: first listing ${cold.toFixed(0)} ms (${(total / MB / (cold / 1000)).toFixed(0)} MB/s of files)`);
    report("ase list over 1,000 Claude Code transcripts, warm", `${warm.toFixed(0)} ms (${(cold / warm).toFixed(1)}x faster than the first)`, "< 1000 ms", warm < 1000);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}
