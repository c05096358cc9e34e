import { spawnSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { compressRollout, generateCodexRollout } from "./generate-codex";

const MB = 2 ** 20;

type Report = (what: string, got: string, target: string, ok: boolean) => void;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The recorded rollouts (test/fixtures/codex/home), the sources of the synthetic ones. */
function recordedRollouts(): string[] {
  const dir = join(process.cwd(), "test", "fixtures", "codex", "home", "sessions", "2026", "11", "26");
  return readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .sort()
    .map((n) => join(dir, n));
}

/** One load in a fresh process (load-child.ts: `open` as the explorer opens it, `index-parse` the limit): its time and its own peak RSS. */
function childLoad(self: string, file: string, mode = "open"): { ms: number; maxRssBytes: number; entries: number } {
  const r = spawnSync(process.execPath, [join(dirname(self), "load-child.js"), mode, file], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`load of ${file} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() as string);
}

/** The bench's Codex rollout of `sizeMb` MB in `work`/codex-home (generated when missing). */
export function codexRollout(work: string, sizeMb: number): string {
  const day = join(work, "codex-home", "sessions", "2026", "11", "26");
  mkdirSync(day, { recursive: true });
  const plain = join(day, `rollout-2026-11-26T00-00-00-01a20000-0000-7000-8000-${String(sizeMb).padStart(12, "0")}.jsonl`);
  const g = generateCodexRollout({ sources: recordedRollouts(), targetBytes: sizeMb * MB, out: plain });
  if (g.lines >= 0) console.log(`  generated ${plain}: ${(g.bytes / MB).toFixed(0)} MB, ${g.lines} lines`);
  return plain;
}

/**
 * Issue 27's targets for Codex rollouts: load+index of a 100 MB rollout >= 150 MB/s, of
 * the same rollout as .jsonl.zst >= 100 MB/s of decompressed data, peak RSS below the
 * file's size (each load in a fresh process, so its peak is its own), and `ase list` of
 * 1,000 rollouts warm < 1 s. The rollouts are built in the bench's work folder from the
 * recorded fixtures and never committed.
 */
export function benchCodex(opts: { work: string; self: string; sizeMb: number; runs: number; report: Report }): void {
  const plain = codexRollout(opts.work, opts.sizeMb);
  // The .zst in a home of its own: beside its plain twin the plain file would win.
  const zhome = join(opts.work, "codex-zst-home", "sessions", "2026", "11", "26");
  mkdirSync(zhome, { recursive: true });
  const made = compressRollout(plain);
  const zst = join(zhome, `${plain.split("/").pop()}.zst`);
  if (made) {
    rmSync(zst, { force: true });
    linkSync(made, zst);
  }
  const size = statSync(plain).size;
  const runs = { plain: [] as number[], zst: [] as number[], limit: [] as number[] };
  const rss = { plain: 0, zst: 0 };
  let entries = 0;
  // Interleaved, so drift on a shared machine hits both alike.
  for (let k = 0; k < opts.runs; k++) {
    const p = childLoad(opts.self, plain);
    runs.plain.push(p.ms);
    rss.plain = Math.max(rss.plain, p.maxRssBytes);
    entries = p.entries;
    // The streaming index-parse limit on the same file and machine, in the same run: the ratio carries over to another machine.
    runs.limit.push(childLoad(opts.self, plain, "index-parse").ms);
    if (!made) continue;
    const z = childLoad(opts.self, zst);
    if (z.entries !== p.entries) throw new Error(`the .zst loaded ${z.entries} entries, the plain rollout ${p.entries}`);
    runs.zst.push(z.ms);
    rss.zst = Math.max(rss.zst, z.maxRssBytes);
  }
  const rate = (ms: number[]) => size / MB / (median(ms) / 1000);
  console.log(`  ${opts.sizeMb} MB rollout, ${entries} entries: load+index ${median(runs.plain).toFixed(0)} ms (median of ${opts.runs}, fresh process each)`);
  opts.report(`load+index, Codex rollout ${opts.sizeMb} MB`, `${rate(runs.plain).toFixed(0)} MB/s (${(median(runs.plain) / (size / MB)).toFixed(2)} ms per MB)`, ">= 150 MB/s", rate(runs.plain) >= 150);
  const ratio = rate(runs.plain) / rate(runs.limit);
  opts.report(`load+index, Codex rollout ${opts.sizeMb} MB vs the streaming index-parse limit`, `${ratio.toFixed(2)}x (the limit ran at ${rate(runs.limit).toFixed(0)} MB/s in this run)`, ">= 0.65x", ratio >= 0.65);
  opts.report(`peak RSS / file size, Codex rollout ${opts.sizeMb} MB`, `${(rss.plain / size).toFixed(2)}x (${(rss.plain / MB).toFixed(0)} MB)`, "< 1x", rss.plain < size);
  if (!made) {
    console.log("  no zstd command: the .zst case is not run");
    return;
  }
  const zsize = statSync(zst).size;
  console.log(`  the same as .jsonl.zst (${(zsize / MB).toFixed(1)} MB, zstd -3): indexed while a second thread decompresses it, ${median(runs.zst).toFixed(0)} ms; ${(median(runs.zst) / median(runs.plain)).toFixed(2)}x the plain load's time`);
  opts.report(`load+index, Codex .zst of ${opts.sizeMb} MB (decompressed MB/s)`, `${rate(runs.zst).toFixed(0)} MB/s (${(median(runs.zst) / (size / MB)).toFixed(2)} ms per MB)`, ">= 100 MB/s", rate(runs.zst) >= 100);
  opts.report(`peak RSS / decompressed size, Codex .zst of ${opts.sizeMb} MB`, `${(rss.zst / size).toFixed(2)}x (${(rss.zst / MB).toFixed(0)} MB)`, "< 1x", rss.zst < size);
}

/**
 * `ase list` over a Codex home of 1,000 rollouts (hard links of the recorded ones and,
 * every 100th, of the recorded .zst, over 28 day folders): the first listing reads each
 * head (a .zst is decompressed); later ones come from the cache while files are unchanged.
 */
export function benchCodexList(report: Report): void {
  const fixtures = join(process.cwd(), "test", "fixtures", "codex");
  const sources = recordedRollouts();
  const zdir = join(fixtures, "zst-home", "sessions", "2026", "11", "26");
  const zst = join(zdir, readdirSync(zdir)[0]);
  const root = mkdtempSync(join(tmpdir(), "ase-bench-codex-list-"));
  const cache = mkdtempSync(join(tmpdir(), "ase-bench-codex-cache-"));
  try {
    for (let k = 0; k < 1000; k++) {
      const dir = join(root, "sessions", "2026", "11", String(1 + (k % 28)).padStart(2, "0"));
      mkdirSync(dir, { recursive: true });
      const id = `01a20000-0000-7000-8000-${String(k).padStart(12, "0")}`;
      const src = k % 100 === 0 ? zst : sources[k % sources.length];
      linkSync(src, join(dir, `rollout-2026-11-01T00-00-00-${id}.jsonl${src.endsWith(".zst") ? ".zst" : ""}`));
    }
    const run = () => {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, ["dist/cli.js", "list", "--dir", `codex=${root}`, "--json"], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: cache }, maxBuffer: 256 * MB });
      if (r.status !== 0) throw new Error(`ase list failed: ${r.stderr}`);
      const n = (JSON.parse(r.stdout) as { projects: Array<{ sessions: unknown[] }> }).projects.reduce((a, p) => a + p.sessions.length, 0);
      if (n !== 1000) throw new Error(`ase list found ${n} Codex rollouts, expected 1000`);
      return performance.now() - t0;
    };
    const cold = run();
    const warm = median([run(), run(), run()]);
    console.log(`  1,000 Codex rollouts (10 of them .zst): first listing ${cold.toFixed(0)} ms, ${(cold / 1000).toFixed(2)} ms per rollout`);
    report("ase list over 1,000 Codex rollouts, warm", `${warm.toFixed(0)} ms (${(cold / warm).toFixed(1)}x faster than the first, ${(warm / 1000).toFixed(2)} ms per rollout)`, "< 1000 ms", warm < 1000);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}
