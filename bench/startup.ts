import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Start-up of the CLI in fresh processes, against a bare `node -e 0` measured in the same
 * run (docs/performance.md: any command that counts no exact tokens within 60 ms and
 * 15 MB of it), and the peak memory of `ase context` end to end on a large session
 * (< 1x the file size at 100 MB). Runs interleave, so drift on a shared machine hits
 * every command alike; figures are medians.
 */

const MB = 1024 * 1024;
/** ASE_BENCH_CLI: another build of the CLI to measure (e.g. an older commit, for before/after figures). */
const CLI = resolve(process.env.ASE_BENCH_CLI ?? "dist/cli.js");
const TIME = "/usr/bin/time";

export interface StartupBenchOptions {
  /** A large session (the bench's 100 MB one) for the end-to-end peak of `ase context`. */
  bigSession?: string;
  runs?: number;
  log: (line: string) => void;
  report: (name: string, value: string, target: string, ok: boolean) => void;
}

interface Sample {
  ms: number;
  rssBytes: number;
}

/** A session of about 1 KB: a header, a question and an answer. */
function tinySession(dir: string): string {
  const file = join(dir, "tiny.jsonl");
  const lines = [
    { type: "session", version: 3, id: "bench-tiny", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/bench/project" },
    { type: "message", id: "a1", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "List the files in the project and say what the main entry point does." }], timestamp: 1767225601000 } },
    {
      type: "message",
      id: "a2",
      parentId: "a1",
      timestamp: "2026-01-01T00:00:02.000Z",
      message: {
        role: "assistant",
        content: [{ type: "text", text: "src/cli/main.ts parses the command line and runs one of eight commands; src/extension/extension.ts is the extension." }],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 1200, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 1240, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "stop",
        timestamp: 1767225602000,
      },
    },
  ];
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return file;
}

/**
 * Runs `node ARGS` once: wall time around the spawn, peak RSS from /usr/bin/time (no
 * instrumentation in the child), else from the child's own process.resourceUsage()
 * written at exit by a --require hook. Output goes to /dev/null, as to a terminal
 * that keeps up.
 */
function runOnce(args: string[], hook: string, rssFile: string): Sample {
  const useTime = existsSync(TIME);
  const [cmd, argv] = useTime ? [TIME, ["-f", "%M", "-o", rssFile, process.execPath, ...args]] : [process.execPath, ["--require", hook, ...args]];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ASE_RSS_FILE: rssFile }, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} failed (${r.status ?? r.signal}): ${r.stderr.slice(0, 500)}`);
  const kb = Number(readFileSync(rssFile, "utf8").trim().split("\n").pop());
  if (!Number.isFinite(kb) || kb <= 0) throw new Error(`no peak RSS for node ${args.join(" ")}`);
  return { ms, rssBytes: kb * 1024 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const ms = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(0)} ms`;
const mb = (x: number) => `${x >= 0 ? "+" : ""}${(x / MB).toFixed(1)} MB`;

export async function benchStartup(opts: StartupBenchOptions): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build first (node esbuild.mjs)`);
  const dir = mkdtempSync(join(tmpdir(), "ase-bench-startup-"));
  try {
    const hook = join(dir, "rss-hook.js");
    writeFileSync(hook, `process.on("exit", () => require("node:fs").writeFileSync(process.env.ASE_RSS_FILE, String(process.resourceUsage().maxRSS)));\n`);
    const rssFile = join(dir, "rss.txt");
    const tiny = tinySession(dir);
    const kinds: Array<{ name: string; args: string[] }> = [
      { name: "node -e 0", args: ["-e", "0"] },
      { name: "ase --help", args: [CLI, "--help"] },
      { name: "ase context (1 KB session)", args: [CLI, "context", tiny] },
    ];
    const runs = opts.runs ?? Number(process.env.ASE_BENCH_STARTUP_RUNS ?? 15);
    const samples = kinds.map(() => [] as Sample[]);
    // One warm-up round (disk cache, lazy kernel work), then interleaved timed rounds.
    for (const k of kinds) runOnce(k.args, hook, rssFile);
    for (let r = 0; r < runs; r++) kinds.forEach((k, i) => samples[i].push(runOnce(k.args, hook, rssFile)));
    const med = samples.map((s) => ({ ms: median(s.map((x) => x.ms)), rss: median(s.map((x) => x.rssBytes)) }));
    const bare = med[0];
    opts.log(`  node -e 0 (baseline, this run): ${bare.ms.toFixed(0)} ms, ${(bare.rss / MB).toFixed(1)} MB peak RSS; median of ${runs} fresh processes, interleaved; peak RSS by ${existsSync(TIME) ? TIME : "process.resourceUsage() at exit"}`);
    for (let i = 1; i < kinds.length; i++) {
      const dMs = med[i].ms - bare.ms;
      const dRss = med[i].rss - bare.rss;
      opts.report(
        `${kinds[i].name} over node -e 0`,
        `${ms(dMs)}, ${mb(dRss)} (${med[i].ms.toFixed(0)} ms, ${(med[i].rss / MB).toFixed(1)} MB)`,
        "<= +60 ms and <= +15 MB",
        dMs <= 60 && dRss <= 15 * MB,
      );
    }
    if (opts.bigSession) {
      const size = statSync(opts.bigSession).size;
      const big: Sample[] = [];
      for (let r = 0; r < Math.max(3, Math.ceil(runs / 5)); r++) big.push(runOnce([CLI, "context", opts.bigSession], hook, rssFile));
      const rss = median(big.map((x) => x.rssBytes));
      const ratio = rss / size;
      const sizeMb = (size / MB).toFixed(0);
      opts.report(
        `ase context of the ${sizeMb} MB session, peak RSS end to end / file size`,
        `${ratio.toFixed(2)}x (${(rss / MB).toFixed(0)} MB, max of runs ${(Math.max(...big.map((x) => x.rssBytes)) / MB).toFixed(0)} MB; ${median(big.map((x) => x.ms)).toFixed(0)} ms)`,
        "<= 1.0x",
        ratio <= 1,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
