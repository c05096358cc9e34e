import { closeSync, readSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { IndexHooks } from "./index-hooks";
import { lineCount, MIN_ENTRY_BYTES, SAMPLE } from "./entry-guess";
import type { RangeIndex, RangeRequest } from "./index-range";
import { openRegular } from "../util/safe-open";

/**
 * Source text of the index worker (src/core/formats/index-worker.ts), put into every
 * bundle by esbuild.mjs. Where it is missing (code run without our build), every
 * load is single-threaded.
 */
declare const ASE_INDEX_WORKER_SOURCE: string | undefined;

/**
 * Sessions from this size on are indexed by two threads, half each. Below it a second
 * thread gains nothing: starting it, and V8 warming up our code a second time, cost
 * what the half saves, and the thread adds ~15 MB. Measured on 2 cores, medians against
 * one thread: 50 MB no faster; 75 MB 1.18x; 100 MB 1.28x; 400 MB 1.49x.
 */
export const PARALLEL_MIN_BYTES = 64 * 2 ** 20;

let sourceOverride: string | undefined | null = null;

/** For tests: run this source as the worker (undefined: no worker); null goes back to the bundled one. */
export function overrideIndexWorkerSource(source: string | undefined | null): void {
  sourceOverride = source;
}

export function indexWorkerSource(): string | undefined {
  if (sourceOverride !== null) return sourceOverride;
  return typeof ASE_INDEX_WORKER_SOURCE === "string" ? ASE_INDEX_WORKER_SOURCE : undefined;
}

/** Whether a load of this size should use a second thread (`force` ignores the size). */
export function wantsSecondThread(size: number, force?: boolean): boolean {
  if (force === false || !indexWorkerSource() || availableParallelism() < 2) return false;
  return force === true || size >= PARALLEL_MIN_BYTES;
}

export interface SplitPlan {
  split: number;
  header: Record<string, unknown> | undefined;
  version: number;
  /** A guess at the file's entry count, from the lines around its start and its middle. */
  entriesGuess: number;
}

/**
 * Where a second thread can take over: the start of the first line past the middle of
 * bytes from..size (from: a line start past the header), when the format has no header
 * or the file's first line is a header its hooks call splittable (pi: version 2/3).
 * Anything else (pi v1, whose ids come from line numbers; a file that opens with junk; a
 * last line that runs from the middle to the end) is left to the single pass, which
 * also gives the right errors.
 */
export function planSplit(path: string, size: number, from: number, hooks: IndexHooks): SplitPlan | undefined {
  const fd = openRegular(path);
  try {
    const head = Buffer.allocUnsafe(Math.min(size, SAMPLE));
    const got = readSync(fd, head, 0, head.length, 0);
    const nl = head.subarray(0, got).indexOf(10);
    if (nl < 0) return undefined;
    let header: Record<string, unknown> | undefined;
    let version = 0;
    if (hooks.header) {
      try {
        header = JSON.parse(head.toString("utf8", 0, nl)) as Record<string, unknown>;
      } catch {
        return undefined;
      }
      const got = hooks.header.accept(header, 1);
      if (typeof got === "string" || !hooks.header.splittable(header)) return undefined;
      version = got.version;
    }
    const mid = Buffer.allocUnsafe(SAMPLE);
    let pos = Math.max(from + Math.floor((size - from) / 2), nl + 1);
    let n = readSync(fd, mid, 0, mid.length, pos);
    // Room set aside from this guess is only touched when used, so it leans high.
    const perLine = (got + n) / Math.max(1, lineCount(head, got) + lineCount(mid, n));
    const entriesGuess = Math.ceil(Math.min(((size - from) / perLine) * 1.5, (size - from) / MIN_ENTRY_BYTES));
    while (n > 0) {
      const k = mid.subarray(0, n).indexOf(10);
      if (k >= 0) {
        const split = pos + k + 1;
        return split < size ? { split, header, version, entriesGuess } : undefined;
      }
      pos += n;
      n = readSync(fd, mid, 0, mid.length, pos);
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** A worker thread indexing one range; `result` settles once, and the thread is gone after. */
export class RangeWorker {
  readonly result: Promise<RangeIndex>;
  /** Bytes of the range indexed so far (coarse: the worker reports every few MB). */
  progress = 0;
  private readonly worker: Worker;

  constructor(req: RangeRequest, onProgress?: () => void, signal?: AbortSignal) {
    const source = indexWorkerSource();
    if (!source) throw new Error("the index worker is not bundled");
    // A small young generation: the worker's garbage is JSON.parse output it drops at
    // once, and a large one only adds to the process's peak memory (measured: 100 MB
    // session 94-95 MB peak with 4 MB, 95-100 MB with V8's default; no slower).
    // Required here, not at the top: node:worker_threads costs every CLI command ~1.5 ms
    // to load, and only loads of 64 MB and more start a worker.
    const { Worker: WorkerThread } = require("node:worker_threads") as typeof import("node:worker_threads");
    this.worker = new WorkerThread(source, { eval: true, workerData: req, resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    this.result = new Promise<RangeIndex>((resolve, reject) => {
      const fail = (err: Error) => {
        reject(err);
        void this.worker.terminate();
      };
      const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new Error("load aborted"));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.worker.on("message", (m: { progress?: number; result?: RangeIndex; error?: string }) => {
        if (m.progress !== undefined) {
          this.progress = m.progress;
          onProgress?.();
        } else if (m.result) {
          signal?.removeEventListener("abort", onAbort);
          this.progress = req.to - req.from;
          onProgress?.();
          resolve(m.result);
          void this.worker.terminate();
        } else fail(new Error(`${req.path}: indexing bytes ${req.from}-${req.to} failed: ${m.error}`));
      });
      this.worker.on("error", (err) => fail(new Error(`${req.path}: the index worker failed: ${err.message}`)));
      this.worker.on("exit", (code) => fail(new Error(`${req.path}: the index worker stopped (exit code ${code}) before it finished`)));
    });
    // Rejections are handled by whoever awaits `result`; none is left unhandled meanwhile.
    this.result.catch(() => undefined);
  }

  terminate(): void {
    void this.worker.terminate();
  }
}
