import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { resolve } from "node:path";

/**
 * `ase context` against pi itself (devDependency @mariozechner/pi-coding-agent): the
 * context of the leaf a session continues from, each in a fresh process, the two
 * interleaved so drift on a shared machine hits both alike. Wall time from spawn to
 * exit and peak RSS (read by a preloaded bench/max-rss.cjs), median of `runs`.
 * Targets: at least 1.5x pi's speed and at most 0.3x its peak memory, at every size.
 */
const MB = 1024 * 1024;

interface Run {
  ms: number;
  rss: number;
  /** Bytes printed on stdout: the two contexts have to be the same size. */
  outBytes: number;
}

function timed(args: string[]): Run | { failed: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--require", resolve("bench/max-rss.cjs"), ...args], { encoding: "utf8", maxBuffer: 1024 * MB, stdio: ["ignore", "pipe", "pipe"] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const m = /ASE_BENCH_MAXRSS (\d+)/.exec(r.stderr ?? "");
  if (r.status !== 0 || !m) {
    const why = r.error?.message ?? r.signal ?? `exit ${r.status}`;
    return { failed: `${why}: ${(r.stderr ?? "").trim().split("\n").slice(-3).join(" | ").slice(0, 300)}` };
  }
  return { ms, rss: Number(m[1]), outBytes: Buffer.byteLength(r.stdout) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

type Report = (name: string, value: string, target: string, ok: boolean) => void;

export function benchVersusPi(sizeMb: number, file: string, runs: number, report: Report): void {
  const size = statSync(file).size;
  const ours: Run[] = [];
  const pis: Run[] = [];
  for (let k = 0; k < runs; k++) {
    // Who goes first alternates too: the page cache is warm for both after the first run.
    const order = k % 2 === 0 ? (["ours", "pi"] as const) : (["pi", "ours"] as const);
    for (const who of order) {
      const r = who === "ours" ? timed(["dist/cli.js", "context", file]) : timed(["bench/pi-context.mjs", file]);
      if ("failed" in r) {
        // pi running out of heap on a large file is a finding, not a failure of ours.
        if (who === "pi") console.log(`  ${sizeMb} MB: pi did not finish (${r.failed}); no ratio`);
        else report(`ase context, ${sizeMb} MB`, `failed: ${r.failed}`, "finishes", false);
        return;
      }
      (who === "ours" ? ours : pis).push(r);
    }
  }
  if (ours[0].outBytes !== pis[0].outBytes) console.log(`  note: the printed contexts differ in size (ours ${ours[0].outBytes} bytes, pi ${pis[0].outBytes})`);
  const oMs = median(ours.map((r) => r.ms));
  const pMs = median(pis.map((r) => r.ms));
  const oRss = median(ours.map((r) => r.rss));
  const pRss = median(pis.map((r) => r.rss));
  console.log(
    `  ${sizeMb} MB (${(size / MB).toFixed(0)} MB file, context ${(ours[0].outBytes / MB).toFixed(1)} MB of JSON), median of ${runs}: ase context ${oMs.toFixed(0)} ms, peak RSS ${(oRss / MB).toFixed(0)} MB; pi ${pMs.toFixed(0)} ms, peak RSS ${(pRss / MB).toFixed(0)} MB`,
  );
  const speed = pMs / oMs;
  const memory = oRss / pRss;
  report(`ase context vs pi, speed, ${sizeMb} MB`, `${speed.toFixed(2)}x pi's speed (${oMs.toFixed(0)} vs ${pMs.toFixed(0)} ms)`, ">= 1.5x", speed >= 1.5);
  report(`ase context vs pi, peak memory, ${sizeMb} MB`, `${memory.toFixed(2)}x pi's peak RSS (${(oRss / MB).toFixed(0)} vs ${(pRss / MB).toFixed(0)} MB)`, "<= 0.3x", memory <= 0.3);
}
