import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";

/** How one CLI run ended, with what the checks need of its output. */
export interface CellRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  ms: number;
  /** The child's peak resident set (KiB), from the preload; undefined when it died before its exit handlers. */
  maxRssKiB?: number;
  /** The start and end of stdout (the middle of a 200 MB answer is not kept). */
  stdoutEdges: string;
  stdoutBytes: number;
  /** stderr, up to 1 MiB. */
  stderr: string;
  /** Whether any of the watched markers appeared anywhere in stdout or stderr. */
  markerSeen: boolean;
}

export interface CellSpawn {
  node: string;
  cli: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  budgetMs: number;
  heapMiB: number;
  preload: string;
  rssFile: string;
  marker: string;
}

const EDGE = 32 * 1024;
const STDERR_CAP = 1024 * 1024;

/** Keeps the first and last EDGE characters of a stream and watches it for a marker across chunk boundaries. */
class StreamWatch {
  head = "";
  tail = "";
  bytes = 0;
  seen = false;
  constructor(private readonly marker: string) {}
  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    const text = chunk.toString("latin1");
    if (!this.seen && (this.tail.slice(-this.marker.length) + text).includes(this.marker)) this.seen = true;
    if (this.head.length < EDGE) this.head += text.slice(0, EDGE - this.head.length);
    this.tail = (this.tail + text).slice(-EDGE);
  }
  edges(): string {
    return this.bytes <= EDGE ? this.head : `${this.head}\n[... ${this.bytes} bytes ...]\n${this.tail}`;
  }
}

/**
 * Runs the built CLI once under a time budget (the process group is killed when it is spent)
 * and a heap limit; the preload writes the child's peak RSS to `rssFile` at exit.
 */
export function spawnCell(s: CellSpawn): Promise<CellRun> {
  const started = Date.now();
  rmSync(s.rssFile, { force: true });
  const child = spawn(s.node, [`--max-old-space-size=${s.heapMiB}`, "--require", s.preload, s.cli, ...s.args], {
    cwd: s.cwd,
    env: { ...s.env, ASE_MATRIX_RSS_FILE: s.rssFile },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that a time-out kills whatever it started too.
    detached: true,
  });
  const out = new StreamWatch(s.marker);
  const err = new StreamWatch(s.marker);
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => {
    err.push(c);
    if (stderr.length < STDERR_CAP) stderr += c.toString("utf8");
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }, s.budgetMs);
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      let maxRssKiB: number | undefined;
      try {
        maxRssKiB = Number(readFileSync(s.rssFile, "utf8")) || undefined;
      } catch {
        maxRssKiB = undefined;
      }
      resolve({ code, signal, timedOut, ms: Date.now() - started, maxRssKiB, stdoutEdges: out.edges(), stdoutBytes: out.bytes, stderr, markerSeen: out.seen || err.seen });
    });
  });
}

/** The preload (CommonJS): the peak RSS of the process, written where the env says, at exit. */
export const RSS_PRELOAD = `process.on("exit", () => {
  try { require("fs").writeFileSync(process.env.ASE_MATRIX_RSS_FILE, String(process.resourceUsage().maxRSS)); } catch {}
});
`;

/** Runs `jobs` with at most `size` at a time; `stop()` true leaves the rest unstarted. */
export async function pool<T>(jobs: ReadonlyArray<() => Promise<T>>, size: number, stop: () => boolean): Promise<Array<T | undefined>> {
  const results: Array<T | undefined> = new Array(jobs.length).fill(undefined);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !stop()) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: size }, worker));
  return results;
}
