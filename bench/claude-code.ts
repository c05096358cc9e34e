import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { formatOf, openSession } from "../src/core/formats/registry";
import { firstPartFor } from "../src/core/store/first-look";
import { treeRows } from "../src/core/tree/tree-rows";
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
}
