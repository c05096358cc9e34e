import type { Worker } from "node:worker_threads";
import { clipPattern, SearchInputError } from "./pattern";
import { pushAll } from "../util/push-all";
import type { SearchOptions } from "./search-options";
import type { SearchHit, SearchStats, SessionHits } from "./search-types";


/** The parts of a search the thread reports into (its pattern, counts and skipped files). */
export interface SearchTally {
  readonly pattern: { readonly source: string };
  readonly scanned: SearchStats;
  readonly skipped: Array<{ path: string; reason: string }>;
  hitCount: number;
}

/*
 * A user's regex runs on a thread of its own. JavaScript regexes backtrack: (a+)+$ on a
 * 50,000-character prompt runs for longer than anyone waits, in one call nothing on its
 * thread can interrupt (an AbortSignal is only looked at between chunks). A worker can be
 * terminated mid-match, within milliseconds, so Cancel works and a match that runs past
 * its deadline is stopped. A linear-time engine (RE2) was the other way; it drops
 * look-arounds and back-references, and its JavaScript ports run far slower than V8's.
 */

/**
 * Source text of the search thread (src/core/search/search-worker.ts), put into every
 * bundle by esbuild.mjs. Where it is missing (code run without our build), a regex runs
 * on the caller's thread, with no deadline.
 */
declare const ASE_SEARCH_WORKER_SOURCE: string | undefined;

export function searchThreadSource(): string | undefined {
  return typeof ASE_SEARCH_WORKER_SOURCE === "string" ? ASE_SEARCH_WORKER_SOURCE : undefined;
}

/** The most one match of a regex may take on one entry's text, unless a search says otherwise. */
export const DEFAULT_REGEX_DEADLINE_MS = 2000;

/** Cells of the shared memory the thread marks each match in. */
export const WATCH = { count: 0, busy: 1, line: 2, size: 3 } as const;

/** What the search thread is given. */
export interface SearchThreadRequest {
  /** The search's options, less what cannot cross threads (signal, callbacks). */
  opts: SearchOptions;
  /** Int32 cells (WATCH): matches started, one running, the line it runs on. */
  watch: SharedArrayBuffer;
}

type ThreadState = { scanned: SearchStats; skipped: Array<{ path: string; reason: string }> };

/** What the search thread posts. */
export type ThreadMessage =
  | ({ type: "file"; path: string } & ThreadState)
  | { type: "hit"; session: Omit<SessionHits, "hits">; hit: SearchHit }
  | ({ type: "result"; session: SessionHits } & ThreadState)
  | ({ type: "end" } & ThreadState)
  | { type: "error"; message: string };

/** A regex match ran past the deadline (catastrophic backtracking): the search was stopped. */
export class RegexDeadlineError extends SearchInputError {
  constructor(
    readonly pattern: string,
    readonly deadlineMs: number,
    readonly path: string | undefined,
    readonly line: number,
  ) {
    const where = path ? ` (line ${line} of ${path})` : "";
    super(`the regular expression /${clipPattern(pattern)}/ ran for more than ${seconds(deadlineMs)} on one entry${where} and was stopped: it backtracks too much (nested repeats like (a+)+ or (.*a){20} do); simplify it`);
    this.name = "RegexDeadlineError";
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** Options that cross to the thread: no signal, no callbacks, the environment copied. */
function portable(o: SearchOptions): SearchOptions {
  const { signal: _signal, onFile: _onFile, onHit: _onHit, watch: _watch, ...rest } = o;
  return { ...rest, ...(o.env ? { env: { ...o.env } } : {}) };
}

/**
 * Runs `search` on the search thread and yields its sessions as they come, keeping the
 * search's counts (scanned, skipped, hitCount) up to date. An abort terminates the
 * thread at once (the iteration rejects with the signal's reason); a match running past
 * `deadlineMs` terminates it too: the hits of the file it was in so far are yielded as
 * that session's, then the iteration rejects with RegexDeadlineError.
 */
export async function* threadedSearch(search: SearchTally, o: SearchOptions, source: string, deadlineMs: number): AsyncGenerator<SessionHits> {
  const watch = new SharedArrayBuffer(WATCH.size * Int32Array.BYTES_PER_ELEMENT);
  const cells = new Int32Array(watch);
  // Required here: node:worker_threads costs every CLI command time to load, and only regexes need it.
  const { Worker: WorkerThread } = require("node:worker_threads") as typeof import("node:worker_threads");
  const request: SearchThreadRequest = { opts: portable(o), watch };
  const worker: Worker = new WorkerThread(source, { eval: true, workerData: request });
  const queue: ThreadMessage[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  let stuck: RegexDeadlineError | undefined;
  const rouse = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  worker.on("message", (m: ThreadMessage) => {
    queue.push(m);
    rouse();
  });
  worker.on("error", (err: Error) => {
    failure ??= err;
    rouse();
  });
  worker.on("exit", () => {
    failure ??= new Error("the search thread stopped");
    rouse();
  });
  const onAbort = () => rouse();
  o.signal?.addEventListener("abort", onAbort, { once: true });
  let file: string | undefined;
  // The deadline: a match still running, with none started since, for deadlineMs.
  let seen = -1;
  let since = Date.now();
  const timer = setInterval(
    () => {
      const count = Atomics.load(cells, WATCH.count);
      if (!Atomics.load(cells, WATCH.busy) || count !== seen) {
        seen = count;
        since = Date.now();
      } else if (Date.now() - since >= deadlineMs && !stuck) {
        stuck = new RegexDeadlineError(search.pattern.source, deadlineMs, file, Atomics.load(cells, WATCH.line));
        rouse();
      }
    },
    Math.max(10, Math.min(100, deadlineMs / 5)),
  );
  // Hits of the file being read, posted one by one: kept if the thread is stopped in it.
  let partial: SessionHits | undefined;
  const update = (s: ThreadState) => {
    search.scanned.files = s.scanned.files;
    search.scanned.bytes = s.scanned.bytes;
    pushAll(search.skipped, s.skipped);
  };
  try {
    for (;;) {
      o.signal?.throwIfAborted();
      const m = queue.shift();
      if (m) {
        if (m.type === "file") {
          update(m);
          file = m.path;
          o.onFile?.(m.path);
        } else if (m.type === "hit") {
          if (partial?.path !== m.session.path) partial = { ...m.session, hits: [] };
          partial.hits.push(m.hit);
          o.onHit?.(m.session, m.hit);
        } else if (m.type === "result") {
          update(m);
          partial = undefined;
          search.hitCount += m.session.hits.length;
          yield m.session;
        } else if (m.type === "end") {
          update(m);
          return;
        } else throw new Error(m.message);
        continue;
      }
      if (stuck) {
        if (partial?.hits.length) {
          search.hitCount += partial.hits.length;
          const p = partial;
          partial = undefined;
          yield p;
        }
        throw stuck;
      }
      if (failure) throw failure;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    clearInterval(timer);
    o.signal?.removeEventListener("abort", onAbort);
    worker.removeAllListeners("exit");
    await worker.terminate();
  }
}
