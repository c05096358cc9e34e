import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SEARCH_CHUNK } from "../src/core/search/scan-file";
import { searchSessions } from "../src/core/search/search-sessions";
import { sessionFiles } from "../src/core/store/discover";
import { linkBenchStore } from "./linked-store";

const MB = 1024 * 1024;

type Report = (name: string, value: string, target: string, ok: boolean) => void;

/** A word no source holds: written into one small extra session only. */
const RARE = "Quetzalcoatlus7731";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Reads every file start to end in the search's chunk size, as fast as the file system gives it: the baseline. */
async function plainRead(files: string[]): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  const buf = Buffer.allocUnsafe(SEARCH_CHUNK);
  let bytes = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const f of files) {
    const fh = await open(f, "r");
    try {
      for (let pos = 0; ; ) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
        if (!bytesRead) break;
        pos += bytesRead;
        bytes += bytesRead;
      }
    } finally {
      await fh.close();
    }
  }
  return { ms: performance.now() - t0, cpuMs: cpuMs(c0), bytes };
}

/** CPU time of this process (all its threads) since c0: steadier than wall time on a shared machine. */
function cpuMs(c0: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

async function search(root: string, caseSensitive: boolean): Promise<{ ms: number; cpuMs: number; firstMs: number; bytes: number; hits: number; files: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let firstMs = Number.NaN;
  let hits = 0;
  const s = searchSessions({ pattern: RARE.toLowerCase(), caseSensitive, dirs: { pi: root }, only: ["pi"], env: {} });
  for await (const r of s) {
    if (Number.isNaN(firstMs)) firstMs = performance.now() - t0;
    hits += r.hits.length;
  }
  return { ms: performance.now() - t0, cpuMs: cpuMs(c0), firstMs, bytes: s.scanned.bytes, hits, files: s.scanned.files };
}

/**
 * Issue 16: `ase search` without an index, over the 1,000 hard-linked files of the listing
 * bench (about 4 GB) plus one small session holding a rare word, against a plain read of
 * the same files in the same chunk size (page-cached alike: the first pass warms them).
 */
export async function benchSearch(opts: { sources: string[]; count: number; runs: number; report: Report; log: (line: string) => void }): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "ase-bench-search-"));
  try {
    const total = linkBenchStore(root, opts.sources, opts.count);
    // The session you worked in last holds the word: the newest file, as people search.
    const extra = join(root, "--bench-project-0--", "2026-02-01T00-00-00-000Z_rare.jsonl");
    const t = new Date().toISOString();
    writeFileSync(extra, `${JSON.stringify({ type: "session", version: 3, id: "rare", timestamp: t, cwd: "/bench" })}\n${JSON.stringify({ type: "message", id: "r1", parentId: null, timestamp: t, message: { role: "user", content: [{ type: "text", text: `where did the ${RARE} go?` }] } })}\n`);
    const future = new Date(Date.now() + 60_000);
    utimesSync(extra, future, future);
    const files = await sessionFiles(root, undefined, false);
    opts.log(`  ${files.length} files, ${(total / 1024 ** 3).toFixed(2)} GB (hard links to ${opts.sources.length} sources); the word is in one small file`);
    await plainRead(files);
    const reads: number[] = [];
    const readCpu: number[] = [];
    const folded: Array<Awaited<ReturnType<typeof search>>> = [];
    const exact: number[] = [];
    for (let r = 0; r < opts.runs; r++) {
      const p = await plainRead(files);
      reads.push(p.ms);
      readCpu.push(p.cpuMs);
      const s = await search(root, false);
      if (s.hits !== 1 || s.files !== files.length || s.bytes !== p.bytes) throw new Error(`search found ${s.hits} hit(s) in ${s.files} file(s), ${s.bytes} bytes; expected 1 in ${files.length}, ${p.bytes} bytes`);
      folded.push(s);
      exact.push((await search(root, true)).ms);
    }
    const read = median(reads);
    const find = median(folded.map((s) => s.ms));
    const first = median(folded.map((s) => s.firstMs));
    const rate = (ms: number) => total / MB / (ms / 1000);
    opts.log(`  CPU time (all threads): plain read ${median(readCpu).toFixed(0)} ms, search ${median(folded.map((s) => s.cpuMs)).toFixed(0)} ms`);
    opts.log(`  plain read ${read.toFixed(0)} ms (${rate(read).toFixed(0)} MB/s); search ${find.toFixed(0)} ms (${rate(find).toFixed(0)} MB/s); case-sensitive ${median(exact).toFixed(0)} ms (${rate(median(exact)).toFixed(0)} MB/s); median of ${opts.runs}`);
    opts.report(`search ${files.length} files (${(total / 1024 ** 3).toFixed(1)} GB) for a rare word, case-insensitive, vs a plain read`, `${(read / find).toFixed(2)}x (${rate(find).toFixed(0)} MB/s against ${rate(read).toFixed(0)} MB/s)`, ">= 0.5x", read / find >= 0.5);
    opts.report("search: time to the first hit (newest session holds it)", `${first.toFixed(0)} ms`, "< 200 ms", first < 200);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
