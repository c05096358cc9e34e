import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as fs from "node:fs";
import { compactSession } from "../../src/core/formats/pi/compaction/compact";
import { appendEntry } from "../../src/core/formats/pi/store/append";
import { isOurTempFile } from "../../src/core/store/atomic-file";
import { listSessions } from "../../src/core/formats/pi/list";
import { forkSession } from "../../src/core/formats/pi/store/fork";
import { Session } from "../../src/core/formats/pi/pi-session";
import { useWriteFs, type WriteFs } from "../../src/core/store/write-fs";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");
/** SIGKILLs per command; ASE_KILL_RUNS=100 for the long run. */
const RUNS = Number(process.env.ASE_KILL_RUNS) || 12;

/**
 * Runs node with `argv` and kills it with SIGKILL `ms` after it starts, or after it prints
 * "go" when `afterGo` (or lets it finish when ms is undefined); resolves how it ended.
 */
function runKilledAfter(
  argv: string[],
  ms: number | undefined,
  opts: { afterGo?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<{ killed: boolean; code: number | null; elapsed: number; err: string }> {
  return new Promise((done) => {
    let t0 = performance.now();
    const child = spawn(process.execPath, argv, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, XDG_CACHE_HOME: tempDir(), ...opts.env } });
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      t0 = performance.now();
      if (ms !== undefined) timer = setTimeout(() => child.kill("SIGKILL"), ms);
    };
    if (!opts.afterGo) arm();
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      const had = out.includes("go\n");
      out += d.toString();
      if (opts.afterGo && !had && out.includes("go\n")) arm();
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      done({ killed: signal === "SIGKILL", code, elapsed: performance.now() - t0, err });
    });
  });
}

/** ~3 MB, so a fork's write takes long enough to be hit. */
function bigSession(dir: string): string {
  const lines = [header()];
  let parent: string | null = null;
  for (let i = 0; i < 600; i++) {
    const u = `u${String(i).padStart(7, "0")}`;
    const a = `a${String(i).padStart(7, "0")}`;
    lines.push(user(u, parent, `question ${i} `.repeat(100)), assistant(a, u, `answer ${i} `.repeat(300)));
    parent = a;
  }
  return writeSession(lines, { dir });
}

/** Every line whole JSON, ending in a newline. */
function wholeLines(file: string): number {
  const text = readFileSync(file, "utf8");
  assert.ok(text.endsWith("\n"), `${file} ends with a whole line`);
  const lines = text.slice(0, -1).split("\n");
  for (const l of lines) JSON.parse(l);
  return lines.length;
}

interface Tally {
  completed: number;
  killed: number;
  /** Killed, yet its line or fork is whole on disk (killed after the write). */
  killedAfterWrite: number;
  /** Killed with its temp or lock file on disk (killed while writing). */
  killedMidWrite: number;
}

interface Trial {
  name: string;
  /** The node arguments of one run on `file`. */
  argv: (file: string) => string[];
  /** Kills are timed from the child's "go" (its write begins) instead of its start. */
  afterGo?: boolean;
  env?: (file: string) => NodeJS.ProcessEnv;
  /** It appends to the session (else it forks). */
  grows: boolean;
}

/**
 * Runs `t` RUNS times, each killed at a random moment within about as long as one whole
 * run takes, and checks after each: the session is as before or one whole line longer,
 * every other *.jsonl is a whole fork, anything else is a hidden temp or lock file of
 * ours, and a listing shows exactly the whole sessions.
 */
async function killTrial(t: Trial): Promise<string> {
  const dir = tempDir();
  const file = bigSession(dir);
  const probeDir = tempDir();
  const probeFile = bigSession(probeDir);
  const probe = await runKilledAfter(t.argv(probeFile), undefined, { afterGo: t.afterGo, env: t.env?.(probeFile) });
  assert.equal(probe.code, 0, probe.err);
  const forkLines = t.grows ? 0 : wholeLines(readdirSync(probeDir).filter((n) => n.endsWith(".jsonl") && n !== "session.jsonl").map((n) => join(probeDir, n))[0]);
  const tally: Tally = { completed: 0, killed: 0, killedAfterWrite: 0, killedMidWrite: 0 };
  let hidden = new Set<string>();
  let forks = 0;
  let lines = wholeLines(file);
  // Kill moments are spread over about one whole run. On a busy machine a run takes
  // longer than the probe did: after 8 kills in a row that came before any write, the
  // window grows by half, so the kills keep landing in and after the write too.
  let window = probe.elapsed * 1.1;
  const firstWindow = window;
  let early = 0;
  for (let run = 0; run < RUNS; run++) {
    const before = readFileSync(file);
    const at = Math.random() * window;
    const r = await runKilledAfter(t.argv(file), at, { afterGo: t.afterGo, env: t.env?.(file) });
    if (r.killed) tally.killed++;
    else {
      assert.equal(r.code, 0, `run ${run}: not killed, so it must have finished: ${r.err}`);
      tally.completed++;
    }
    // The session: byte-identical, or exactly one whole line more.
    const now = readFileSync(file);
    assert.ok(now.subarray(0, before.length).equals(before), `run ${run}: old bytes kept`);
    const added = now.length - before.length;
    const n = wholeLines(file);
    assert.ok(added === 0 ? n === lines : n === lines + 1 && t.grows, `run ${run} (killed after ${at.toFixed(0)} ms): ${added} bytes, ${n - lines} lines added`);
    if (!r.killed && t.grows) assert.equal(n, lines + 1, `run ${run}: a finished run wrote its line`);
    lines = n;
    const names = readdirSync(dir);
    const sessions = names.filter((x) => x.endsWith(".jsonl"));
    for (const x of sessions) if (join(dir, x) !== file) assert.equal(wholeLines(join(dir, x)), forkLines, `run ${run}: ${x} is a whole fork`);
    const nowHidden = names.filter((x) => !x.endsWith(".jsonl"));
    for (const x of nowHidden) assert.ok(isOurTempFile(x) || x === ".session.jsonl.ase-lock", `run ${run}: ${x} is a temp or lock file of ours`);
    const mid = r.killed && nowHidden.some((x) => !hidden.has(x));
    const after = r.killed && (added > 0 || sessions.length - 1 > forks);
    if (mid) tally.killedMidWrite++;
    if (after) tally.killedAfterWrite++;
    early = r.killed && !mid && !after ? early + 1 : 0;
    if (early >= 8) {
      window *= 1.5;
      early = 0;
    }
    forks = sessions.length - 1;
    hidden = new Set(nowHidden);
    const listed = await listSessions(dir);
    assert.deepEqual(listed.projects.flatMap((p) => p.sessions.map((x) => x.path)).sort(), sessions.map((x) => join(dir, x)).sort(), `run ${run}: the listing shows whole sessions only`);
    assert.deepEqual(listed.skipped, []);
  }
  const spread = window === firstWindow ? `${window.toFixed(0)} ms` : `${firstWindow.toFixed(0)} ms, widened to ${window.toFixed(0)} ms`;
  return `${t.name}: ${RUNS} runs, kills spread over ${spread}: ${tally.killed} killed (${tally.killedMidWrite} leaving a temp or lock file, ${tally.killedAfterWrite} after the line or fork was whole), ${tally.completed} finished; 0 torn`;
}

/** Sleeps without giving up the thread: the child is slow exactly where it writes. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The real file system, slowed down: 2 ms around every call, and new files written 8 KB
 * per call, so a kill lands inside the write as often as outside it. An append stays one
 * write call, as the kernel makes it for a line of this size.
 */
function slowFs(): WriteFs {
  const paths = new Map<number, string>();
  const slow =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      pause(2);
      const r = f(...a);
      pause(2);
      return r;
    };
  return {
    openSync: slow((p: string, fl: string | number, m?: number) => {
      const fd = fs.openSync(p, fl, m);
      paths.set(fd, p);
      return fd;
    }),
    writeSync: slow((fd: number, b: Uint8Array, o: number, l: number, pos?: number | null) => fs.writeSync(fd, b, o, paths.get(fd)?.endsWith(".ase-tmp") ? Math.min(l, 8192) : l, pos)),
    fsyncSync: slow((fd: number) => fs.fsyncSync(fd)),
    ftruncateSync: slow((fd: number, len: number) => fs.ftruncateSync(fd, len)),
    fstatSync: slow((fd: number) => fs.fstatSync(fd)),
    closeSync: slow((fd: number) => fs.closeSync(fd)),
    renameSync: slow((a: string, b: string) => fs.renameSync(a, b)),
    linkSync: slow((a: string, b: string) => fs.linkSync(a, b)),
    unlinkSync: slow((p: string) => fs.unlinkSync(p)),
  };
}

/** The child of the seam-level trials: load, say "go", write through the slow fs. */
async function killChild(op: string, file: string): Promise<void> {
  const s = await Session.load(file);
  useWriteFs(slowFs());
  process.stdout.write("go\n");
  if (op === "fork") forkSession(s, "a0000080");
  else if (op === "label") await appendEntry(s, { type: "label", parentId: s.metas[s.metas.length - 1].id, targetId: "u0000001", label: "killed?" });
  else await compactSession(s, { leafId: "a0000550", strategy: "truncate", settings: { keepRecentTokens: 2000 } });
}

if (process.env.ASE_KILL_CHILD) {
  const [op, file] = JSON.parse(process.env.ASE_KILL_CHILD) as [string, string];
  killChild(op, file).then(
    () => process.exit(0),
    (err: Error) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    },
  );
} else {
  describe("writers killed with SIGKILL at random moments", () => {
    const cli: Array<{ name: string; args: (file: string) => string[]; grows: boolean }> = [
      { name: "ase fork", args: (f) => ["fork", f, "--at", "a0000550"], grows: false },
      { name: "ase compact", args: (f) => ["compact", f, "--strategy", "truncate", "--keep-recent", "2000", "--leaf", "a0000550"], grows: true },
      { name: "ase branch", args: (f) => ["branch", f, "--to", "a0000300"], grows: true },
    ];
    for (const c of cli) {
      it(`${c.name}, killed anywhere in its run (${RUNS} times): the session intact or one whole line longer, no partial fork, only whole sessions listed`, async function () {
        this.timeout(60_000 + RUNS * 15_000);
        console.log(`      ${await killTrial({ name: c.name, argv: (f) => [CLI, ...c.args(f)], grows: c.grows })}`);
      });
    }
    // The CLI spends most of its run starting and reading; these kill inside the write.
    for (const op of ["fork", "label", "compaction"]) {
      it(`${op}, killed inside its write (slowed file system, ${RUNS} times): the same holds`, async function () {
        this.timeout(60_000 + RUNS * 15_000);
        const self = __filename;
        const env = (file: string) => ({ ASE_KILL_CHILD: JSON.stringify([op, file]) });
        console.log(`      ${await killTrial({ name: `${op} (write phase)`, argv: () => ["--enable-source-maps", self], afterGo: true, grows: op !== "fork", env })}`);
      });
    }
  });
}
