import { closeSync, openSync, rmSync } from "node:fs";
import type { Worker } from "node:worker_threads";
import { releaseNow } from "../../store/release-memory";
import { copyOut, type Decompressed, decompressRollout } from "./zst";
import { frameContentSize } from "./zst-frame";
import { IN_FLIGHT, STOP, type ZstWorkerData, type ZstWorkerMessage } from "./zst-protocol";

/** Source text of zst-worker.ts, put into every bundle by esbuild.mjs; without it a .zst is decompressed on this thread first. */
declare const ASE_ZST_WORKER_SOURCE: string | undefined;

/**
 * Blocks (fzstd's, up to 128 KB of text each) posted and not yet indexed. Enough that the
 * indexing thread never waits on the decompressing one while it is ahead (fzstd is ~2-3
 * times as fast as the index), few enough that memory stays flat.
 */
const MAX_IN_FLIGHT = 8;

let sourceOverride: string | undefined | null = null;

/** For tests: run this source as the .zst thread (undefined: none); null goes back to the bundled one. */
export function overrideZstWorkerSource(source: string | undefined | null): void {
  sourceOverride = source;
}

function workerSource(): string | undefined {
  if (sourceOverride !== null) return sourceOverride;
  return typeof ASE_ZST_WORKER_SOURCE === "string" ? ASE_ZST_WORKER_SOURCE : undefined;
}

let started = 0;
let running = 0;

/** .zst threads this process started, and those not yet exited (tests: none is left after an error or a cancel). */
export function zstThreads(): { started: number; running: number } {
  return { started, running };
}

/** Decompressed blocks of a .zst as they come, and a guess at the whole size (from the share of the .zst read). */
export interface ChunkStream extends AsyncIterable<Uint8Array> {
  total(): number;
  /** The size the .zst's first frame declares (zst-frame.ts), when it does. */
  sizeHint(): number | undefined;
}

/** A .zst being decompressed: its blocks to index, and its plain copy once whole. */
export interface ZstStream {
  /** The copy's path while it is being made ("" when it was made before: `copy` names it). */
  plain: string;
  /** Undefined when the copy was made before (or no thread could be started): load `plain` once `copy` settles. */
  chunks?: ChunkStream;
  copy: Promise<Decompressed>;
}

/**
 * Decompresses a `.jsonl.zst` rollout on a thread of its own while this thread indexes its
 * blocks from `chunks` (two cores, no wait for the whole copy). The copy is written by the
 * same thread as it goes, for the entries a session reads later. Stopping the iteration
 * early (an error, `signal`) ends the thread and removes the copy.
 */
export function streamRollout(path: string, signal?: AbortSignal): ZstStream {
  let chunks: ChunkStream | undefined;
  let plain = "";
  const copy = decompressRollout(path, (zst, out) => {
    plain = out;
    const source = workerSource();
    if (!source) return copyOut(zst, out);
    const s = onThread(source, zst, out, signal);
    chunks = s.chunks;
    return s.copy;
  });
  return chunks ? { plain, chunks, copy } : { plain, copy };
}

function onThread(source: string, path: string, plain: string, signal?: AbortSignal): { chunks: ChunkStream; copy: Promise<Decompressed> } {
  const fd = openSync(plain, "w", 0o600);
  const shared = new SharedArrayBuffer(8);
  const state = new Int32Array(shared);
  const data: ZstWorkerData = { path, fd, shared, maxInFlight: MAX_IN_FLIGHT };
  // Required here: node:worker_threads costs every CLI command ~1.5 ms to load.
  const { Worker: WorkerThread } = require("node:worker_threads") as typeof import("node:worker_threads");
  // A small young generation: the thread's garbage is fzstd's, dropped at once (zst-worker.ts).
  const worker: Worker = new WorkerThread(source, { eval: true, workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 1 } });
  started++;
  running++;
  const queue: Uint8Array[] = [];
  let read = 0;
  let zsize = 0;
  let taken = 0;
  let ended: { bytes: number; size: number; error?: string } | undefined;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const stop = (why: Error) => {
    failure ??= why;
    Atomics.store(state, STOP, 1);
    Atomics.notify(state, IN_FLIGHT);
    void worker.terminate();
    poke();
  };
  const onAbort = () => stop(signal?.reason instanceof Error ? signal.reason : new Error("load aborted"));
  signal?.addEventListener("abort", onAbort, { once: true });
  worker.on("message", (m: ZstWorkerMessage) => {
    if ("chunk" in m) {
      queue.push(m.chunk);
      read = m.read;
      zsize = m.size;
    } else if ("end" in m) ended = m.end;
    else stop(new Error(`${path}: cannot be decompressed: ${m.fail}`));
    poke();
  });
  worker.on("error", (err) => stop(new Error(`${path}: the decompressing thread failed: ${err.message}`)));
  const exited = new Promise<void>((resolve) =>
    worker.on("exit", (code) => {
      running--;
      signal?.removeEventListener("abort", onAbort);
      // The thread is gone: nothing writes the copy any more.
      closeSync(fd);
      if (!ended) stop(new Error(`${path}: the decompressing thread stopped (exit code ${code}) before the end`));
      resolve();
    }),
  );
  const copy = exited.then(() => {
    if (failure || !ended) {
      rmSync(plain, { force: true });
      throw failure ?? new Error(`${path}: not decompressed`);
    }
    return { plain, bytes: ended.bytes, ...(ended.error ? { error: ended.error } : {}) };
  });
  copy.catch(() => undefined);
  const declared = frameContentSize(path);
  const chunks: ChunkStream = {
    sizeHint: () => declared,
    total: () => (ended ? ended.bytes : read > 0 ? Math.max(taken, Math.round((taken * zsize) / read)) : taken),
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const c = queue.shift();
          if (c) {
            yield c;
            taken += c.length;
            Atomics.sub(state, IN_FLIGHT, 1);
            Atomics.notify(state, IN_FLIGHT);
            // Indexed: its memory goes now, not at V8's next collection.
            releaseNow(c);
            continue;
          }
          if (failure) throw failure;
          if (ended) return;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
      } finally {
        // Stopped early (an error while indexing, a cancel): the thread ends, the copy goes.
        if (!ended || failure) stop(failure ?? new Error(`${path}: the load stopped`));
      }
    },
  };
  return { chunks, copy };
}
