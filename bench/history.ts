import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cacheDir as productCacheDir } from "../src/cli/commands/list";
import { HistoryIndex, historyCacheFile } from "../src/core/history/history-index";
import { lookupFileHistory } from "../src/core/history/lookup";
import { linkBenchStore } from "./linked-store";

const MB = 1024 * 1024;

type Report = (name: string, value: string, target: string, ok: boolean) => void;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Wall time of a fresh `ase` process (the CLI as a person runs it). */
function cli(args: string[], cache: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["dist/cli.js", ...args], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: cache }, maxBuffer: 256 * MB });
  if (r.status !== 0) throw new Error(`ase ${args[0]} failed: ${r.stderr}`);
  return performance.now() - t0;
}

/**
 * Issue 31: the per-file history index over the listing bench's 1,000 hard-linked sessions
 * (the same layout as `ase list`'s bench), cold against `ase list --no-cache` of the same
 * folder (fresh processes, interleaved), and a warm lookup in a process that has the index.
 */
export async function benchHistory(opts: { sources: string[]; count: number; runs: number; report: Report; log: (line: string) => void }): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "ase-bench-history-"));
  try {
    const total = linkBenchStore(root, opts.sources, opts.count);
    const list: number[] = [];
    const cold: number[] = [];
    const warmCli: number[] = [];
    let cacheBytes = 0;
    for (let r = 0; r < opts.runs; r++) {
      list.push(cli(["list", "--dir", root, "--no-cache", "--json"], mkdtempSync(join(tmpdir(), "ase-bench-cache-"))));
      const cache = mkdtempSync(join(tmpdir(), "ase-bench-cache-"));
      cold.push(cli(["history", "/proc/self/status", "--dir", root, "--json"], cache));
      // The index is incremental by file stamp: a second `ase history` reads its cache file, no session.
      warmCli.push(cli(["history", "/proc/self/status", "--dir", root, "--json"], cache));
      const file = historyCacheFile(productCacheDir({ XDG_CACHE_HOME: cache }));
      cacheBytes = existsSync(file) ? statSync(file).size : 0;
      rmSync(cache, { recursive: true, force: true });
    }
    const ratio = median(cold) / median(list);
    opts.log(`  ${opts.count} files, ${(total / 1024 ** 3).toFixed(2)} GB: ase list --no-cache ${median(list).toFixed(0)} ms, history index cold ${median(cold).toFixed(0)} ms (medians of ${opts.runs}, fresh processes)`);
    opts.log(`  history cache file ${(cacheBytes / MB).toFixed(1)} MB (${((100 * cacheBytes) / total).toFixed(2)}% of the sessions); ase history again from it: median ${median(warmCli).toFixed(0)} ms`);
    opts.report(`history cache of ${opts.count} sessions written`, `${(cacheBytes / MB).toFixed(1)} MB`, "written (< 512 MB)", cacheBytes > 0);
    opts.report(`history index of ${opts.count} sessions, cold`, `${median(cold).toFixed(0)} ms, ${ratio.toFixed(2)}x ase list --no-cache`, "<= 2x", ratio <= 2);

    const index = new HistoryIndex({ dirs: { pi: root }, only: ["pi"], env: {} });
    await index.refresh();
    // A file the sessions touch: the one they touch most.
    const probe = index.touchedFiles()[0] ?? join(root, "none");
    const cacheDir = mkdtempSync(join(tmpdir(), "ase-bench-cache-"));
    // The lookup the view and the MCP server make: the process's index, refreshed by stamp.
    const lookupOpts = { dirs: { pi: root }, only: ["pi"], cacheDir, env: {} };
    const first = await lookupFileHistory(probe, lookupOpts);
    const warm: number[] = [];
    let found = first.length;
    for (let r = 0; r < 7; r++) {
      const t0 = performance.now();
      found = (await lookupFileHistory(probe, lookupOpts)).length;
      warm.push(performance.now() - t0);
    }
    // The same lookup made to look at every store again (a session may have changed): a listing by stamp.
    const restamped: number[] = [];
    for (let r = 0; r < 5; r++) {
      const t0 = performance.now();
      await lookupFileHistory(probe, { ...lookupOpts, refreshAfterMs: 0 });
      restamped.push(performance.now() - t0);
    }
    opts.log(`  warm lookups: ${warm.map((m) => m.toFixed(1)).join(", ")} ms (${found} touches; the index holds ${index.sessionCount} sessions); with a re-check of every session's stamp: median ${median(restamped).toFixed(0)} ms`);
    opts.report("history lookup of a file, warm", `${median(warm).toFixed(1)} ms`, "< 50 ms", median(warm) < 50);
    rmSync(cacheDir, { recursive: true, force: true });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
