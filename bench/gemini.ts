import { spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { formatOf, openSession } from "../src/core/formats/registry";
import { generateGeminiSession } from "./generate-gemini";

const MB = 2 ** 20;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

type Report = (what: string, got: string, target: string, ok: boolean) => void;

/** The floor of any reader: read the file, split it into lines and JSON.parse each, keep nothing. */
function bareParse(file: string): { ms: number; cpuMs: number } {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let n = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line) continue;
    JSON.parse(line);
    n++;
  }
  if (!n) throw new Error(`${file}: no lines`);
  return { ms: performance.now() - t0, cpuMs: cpuMs(c0) };
}

/** This process's CPU time since `from`: on a loaded machine it moves far less than the wall clock. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(from);
  return (c.user + c.system) / 1000;
}

/**
 * Gemini CLI sessions built from the recorded fixtures: load and index of a 100 MB session
 * with many checkpoints (the whole replay included: every record, every `$set.messages`),
 * against the bare JSON.parse floor measured in the same run; and `ase list` over a store of
 * 1,000 sessions (issue 28).
 */
export async function benchGemini(opts: { work: string; fixtures: string; sizes: number[]; runs: number; report: Report }): Promise<void> {
  mkdirSync(opts.work, { recursive: true });
  const big: string[] = [];
  for (const sizeMb of opts.sizes) {
    const file = join(opts.work, `gemini-${sizeMb}mb.jsonl`);
    const g = generateGeminiSession({ fixtures: opts.fixtures, targetBytes: sizeMb * MB, out: file, seed: sizeMb });
    if (g.lines >= 0) console.log(`  generated ${file}: ${(g.bytes / MB).toFixed(0)} MB, ${g.lines} lines, ${g.checkpoints} checkpoints (${g.compressions} compressions, ${g.rewinds} rewinds)`);
    big.push(file);
    const size = statSync(file).size;
    const loads: number[] = [];
    const loadCpu: number[] = [];
    const floors: number[] = [];
    const floorCpu: number[] = [];
    let entries = 0;
    // Interleaved, so drift on a shared machine hits both alike.
    for (let k = 0; k < opts.runs; k++) {
      // A path of its own per run (a hard link): a file this process read before is only read
      // on from where that read ended (GeminiSession.open), which is not a load.
      const run = join(opts.work, `gemini-${sizeMb}mb.run${k}.jsonl`);
      rmSync(run, { force: true });
      linkSync(file, run);
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const s = await openSession(run);
      loads.push(performance.now() - t0);
      loadCpu.push(cpuMs(c0));
      rmSync(run);
      entries = s.metas.length;
      if (formatOf(s).id !== "gemini-cli") throw new Error(`${file} was read as ${formatOf(s).id}, not gemini-cli`);
      const f = bareParse(file);
      floors.push(f.ms);
      floorCpu.push(f.cpuMs);
    }
    const mb = size / MB;
    const rate = mb / (median(loads) / 1000);
    const floor = mb / (median(floors) / 1000);
    console.log(`  ${sizeMb} MB Gemini CLI session, ${entries} messages in the tree: load+index ${median(loads).toFixed(0)} ms (${(median(loads) / mb).toFixed(2)} ms/MB; median of ${opts.runs}); bare read+split+JSON.parse ${median(floors).toFixed(0)} ms (${floor.toFixed(0)} MB/s)`);
    opts.report(`load+index, Gemini CLI ${sizeMb} MB (replay included)`, `${rate.toFixed(0)} MB/s`, ">= 150 MB/s", rate >= 150);
    console.log(`  load+index Gemini CLI ${sizeMb} MB vs bare JSON.parse of its lines: ${(rate / floor).toFixed(2)}x`);
    // CPU time: what the load costs whatever else the machine runs (GC threads included).
    console.log(`  by CPU time: load+index ${median(loadCpu).toFixed(0)} ms (${(mb / (median(loadCpu) / 1000)).toFixed(0)} MB/s of CPU), bare JSON.parse ${median(floorCpu).toFixed(0)} ms (${(mb / (median(floorCpu) / 1000)).toFixed(0)} MB/s of CPU); ${(median(floorCpu) / median(loadCpu)).toFixed(2)}x`);
    await benchLiveReload(file, opts.work, opts.runs);
  }
  benchGeminiListing(opts.fixtures, opts.work, big, opts.report);
}

/**
 * A live session: the explorer reads the file again at every line Gemini writes (a line may
 * rewrite earlier messages). On a copy, one turn appended at a time, each reload timed.
 */
async function benchLiveReload(file: string, work: string, runs: number): Promise<void> {
  const live = join(work, "gemini-live.jsonl");
  copyFileSync(file, live);
  try {
    let s = await openSession(live);
    const ms: number[] = [];
    for (let k = 0; k < runs; k++) {
      const id = `bench-live-${k}`;
      appendFileSync(live, `${JSON.stringify({ id, timestamp: "2026-11-26T10:00:00.000Z", type: "user", content: [{ text: `one more prompt ${k}` }] })}\n${JSON.stringify({ $set: { lastUpdated: "2026-11-26T10:00:00.000Z" } })}\n`);
      const t0 = performance.now();
      s = await openSession(live);
      ms.push(performance.now() - t0);
      if (s.metas.at(-1)?.id !== id) throw new Error(`${live}: the reload does not end with the appended message`);
    }
    console.log(`  live session of ${(statSync(live).size / MB).toFixed(0)} MB read again after Gemini appended a turn: ${median(ms).toFixed(0)} ms (median of ${runs}; the appended lines replayed onto the last read's state, the index built again)`);
  } finally {
    rmSync(live, { force: true });
  }
}

/**
 * `ase list` over a Gemini CLI store of 1,000 sessions in 100 projects, each session its own
 * id (Gemini lists one per id), most small, some of a few MB, the big generated ones among
 * them; plus a stub file per ten sessions (hidden, as Gemini hides them). The first listing
 * reads each file; later ones come from the cache while the files are unchanged.
 */
function benchGeminiListing(fixtures: string, work: string, big: string[], report: Report): void {
  const root = mkdtempSync(join(tmpdir(), "ase-bench-gemini-list-"));
  const cache = mkdtempSync(join(tmpdir(), "ase-bench-gemini-cache-"));
  try {
    const gemini = join(root, ".gemini");
    const projects: Record<string, string> = {};
    let total = 0;
    for (let k = 0; k < 1000; k++) {
      const slug = `project-${k % 100}`;
      const projectRoot = `/bench/${slug}`;
      projects[projectRoot] = slug;
      const chats = join(gemini, "tmp", slug, "chats");
      mkdirSync(chats, { recursive: true });
      writeFileSync(join(gemini, "tmp", slug, ".project_root"), projectRoot);
      const id = `${String(k).padStart(8, "0")}-0000-4000-8000-000000000000`;
      const name = `session-2026-11-01T09-00-${id.slice(0, 8)}.jsonl`;
      // Sizes as a store of real use has them: mostly tens of KB, some hundreds, a few MB.
      const kb = k % 100 === 0 ? 3000 : k % 10 === 0 ? 400 : k % 3 === 0 ? 120 : 30;
      const out = join(chats, name);
      if (k < big.length) {
        // The big generated sessions, under their own ids.
        writeFileSync(out, readFileSync(big[k], "utf8").replaceAll(/"sessionId":"[^"]+"/g, `"sessionId":"${id}"`));
      } else {
        generateGeminiSession({ fixtures, targetBytes: kb * 1024, out, seed: k + 1000, sessionId: id, projectRoot });
      }
      total += statSync(out).size;
      if (k % 10 === 5) {
        // A resume in a later minute leaves a stub of the same id (doc section 4).
        const stub = readFileSync(out, "utf8").split("\n").slice(0, 2).join("\n") + "\n";
        writeFileSync(join(chats, `session-2026-11-01T09-01-${id.slice(0, 8)}.jsonl`), stub);
        total += stub.length;
      }
    }
    writeFileSync(join(gemini, "projects.json"), JSON.stringify({ projects }));
    const cpu: number[] = [];
    const run = () => {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, ["--require", resolve("bench/max-rss.cjs"), "dist/cli.js", "list", "--dir", `gemini-cli=${root}`, "--json"], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: cache }, maxBuffer: 256 * MB });
      if (r.status !== 0) throw new Error(`ase list failed: ${r.stderr}`);
      const n = (JSON.parse(r.stdout) as { projects: Array<{ sessions: unknown[] }> }).projects.reduce((a, p) => a + p.sessions.length, 0);
      if (n !== 1000) throw new Error(`ase list found ${n} Gemini CLI sessions, expected 1000`);
      // bench/max-rss.cjs writes the child's CPU time (microseconds) as it exits.
      const m = /ASE_BENCH_MAXRSS \d+ (\d+)/.exec(r.stderr);
      if (m) cpu.push(Number(m[1]) / 1000);
      return performance.now() - t0;
    };
    const cold = run();
    cpu.length = 0;
    const warm = median([run(), run(), run()]);
    console.log(`  1,000 Gemini CLI sessions (+100 stubs), ${(total / MB).toFixed(0)} MB: first listing ${cold.toFixed(0)} ms (${(total / MB / (cold / 1000)).toFixed(0)} MB/s of files)`);
    if (cpu.length) console.log(`  warm listing by CPU time (the whole process, start-up included): ${median(cpu).toFixed(0)} ms a run`);
    report("ase list over 1,000 Gemini CLI sessions, warm", `${warm.toFixed(0)} ms (${(cold / warm).toFixed(1)}x faster than the first; ${(warm / 1000).toFixed(2)} ms per session)`, "< 1000 ms", warm < 1000);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
}
