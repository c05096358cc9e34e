import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import type { FileTouch } from "./file-touch";
import type { HistoryOptions, HistoryProgress } from "./history-options";
import type { SessionRead } from "./read-touches";

/**
 * Stale sessions of at least this many bytes in all are read on more threads than this
 * one: below it, starting a thread (and V8 warming our code up again) costs what it saves.
 */
export const THREAD_MIN_BYTES = 64 * 2 ** 20;

/**
 * Reader threads started beside this one at most: each holds a heap of its own, and a cold
 * index is read from the disk too (four readers keep a fast disk busy).
 */
export const MAX_READER_THREADS = 3;

/**
 * How many threads beside this one a refresh with this many bytes to read should start:
 * `threads` - 1 when asked (1: none), else one per core past this one's (up to
 * MAX_READER_THREADS) for a large one, none for a small one.
 */
export function readerThreads(staleBytes: number, threads?: number): number {
  if (threads !== undefined) return Math.max(0, Math.floor(threads) - 1);
  if (staleBytes < THREAD_MIN_BYTES) return 0;
  return Math.min(MAX_READER_THREADS, availableParallelism() - 1);
}

/**
 * The file of the second thread (dist/history-worker.js; esbuild.mjs resolves this name to
 * it, as it does the lazy bundles'); undefined where it is not built.
 */
function historyWorkerFile(): string | undefined {
  try {
    // Resolved, not required: the bundle's code runs on the thread only.
    return require.resolve("./history-worker-bundle");
  } catch {
    return undefined;
  }
}

/** A session to read: its file, the cwd its paths are resolved against, its format as listed. */
export interface ReadItem {
  path: string;
  cwd: string;
  formatId?: string;
}

/**
 * Sessions read by several threads at once (TouchThread.readShared): each thread reads the
 * item `first` (-1: none), then the items whose places it claims from `claim` (a counter in
 * shared memory every thread adds one to), until the count passes the last item.
 */
export interface SharedReads {
  items: ReadItem[];
  claim: SharedArrayBuffer;
  first: number;
}

/** What the thread is asked: the touches of sessions it reads with other threads, or a whole lookup over its own index. */
export type ThreadRequest = { id: number; shared: SharedReads } | { id: number; lookup: { file: string; opts: ThreadLookupOptions; progress: boolean } };

/** A lookup's options as they cross to the thread (no signal or callback: they cannot be sent). */
export type ThreadLookupOptions = Omit<HistoryOptions, "signal" | "onProgress"> & { refreshAfterMs?: number };

/**
 * The thread's answer (with a read session's own name), or (`progress`: sessions read, of how
 * many) news of a lookup still running, or (`item`: its place in SharedReads.items) one
 * shared read's answer; `done`: the thread claims no more of them.
 */
export type ThreadReply = { id: number; touches?: FileTouch[]; rows?: string; paths?: string[]; name?: string; error?: string; progress?: [number, number]; item?: number; done?: true };

/** A read's answer as the thread sends it: what it read, or (`error`) why it could not. */
export type ReadReply = Omit<SessionRead, "touches"> | { error: string };

/**
 * The history's own thread (dist/history-worker.js): reads its share of a cold index's
 * sessions, one at a time, and hands back each one's rows (plain data), or its error's
 * message, the same as the main thread's read would give (readShared); or keeps a whole index
 * of its own and answers lookups (TouchThread.lookup: the editor's history and blame, so the
 * extension host's thread never reads a session nor parses the index's cache).
 */
export class TouchThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (reply: ThreadReply) => void; reject: (e: Error) => void; onProgress?: HistoryProgress; onItem?: (reply: ThreadReply) => void }>();
  private next = 0;
  private failure: Error | undefined;

  /** Undefined where the thread's bundle is not built (code run without our build). */
  static start(): TouchThread | undefined {
    const file = historyWorkerFile();
    return file ? new TouchThread(file) : undefined;
  }

  private constructor(file: string) {
    // Required here: node:worker_threads costs every CLI command time to load.
    const { Worker: WorkerThread } = require("node:worker_threads") as typeof import("node:worker_threads");
    this.worker = new WorkerThread(file);
    this.worker.on("message", (m: ThreadReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.progress) return p.onProgress?.(m.progress[0], m.progress[1]);
      if (m.item !== undefined) return p.onItem?.(m);
      this.pending.delete(m.id);
      if (m.touches || m.done) p.resolve(m);
      else p.reject(new Error(m.error ?? "the history thread gave no answer"));
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on("error", (err) => fail(new Error(`the history thread failed: ${err.message}`)));
    this.worker.on("exit", (code) => fail(new Error(`the history thread stopped (exit code ${code})`)));
  }

  /** Whether the thread has failed or stopped (a new one is needed). */
  get failed(): boolean {
    return this.failure !== undefined;
  }

  private ask(req: Omit<ThreadRequest, "id">, onProgress?: HistoryProgress, onItem?: (reply: ThreadReply) => void): Promise<ThreadReply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress, onItem });
      this.worker.postMessage({ id, ...req });
    });
  }

  /**
   * Reads its share of `shared.items` (SharedReads) on the thread, each answer handed to
   * `onItem` with the item's place as it comes; settled when the thread claims no more. A
   * thread that fails rejects it: the items it had claimed and not answered are the caller's
   * to read.
   */
  async readShared(shared: SharedReads, onItem: (item: number, got: ReadReply) => void): Promise<void> {
    await this.ask({ shared }, undefined, (m) => onItem(m.item as number, readReply(m)));
  }

  /** A file's history from the thread's own index over these stores (lookupFileHistory there), its refresh's progress told to `onProgress`. */
  async lookup(file: string, opts: ThreadLookupOptions, onProgress?: HistoryProgress): Promise<FileTouch[]> {
    const reply = await this.ask({ lookup: { file, opts, progress: onProgress !== undefined } }, onProgress);
    return reply.touches as FileTouch[];
  }

  close(): void {
    void this.worker.terminate();
  }
}

function readReply(m: ThreadReply): ReadReply {
  if (m.error !== undefined) return { error: m.error };
  const got = { rows: m.rows ?? "", paths: m.paths ?? [] };
  return m.name === undefined ? got : { ...got, name: m.name };
}

/**
 * The next item a thread of SharedReads claims: its place, at least `count` when all are
 * claimed. The same counter serves every thread (Atomics: no two get one place).
 */
export function claimNext(claim: Int32Array): number {
  return Atomics.add(claim, 0, 1);
}
