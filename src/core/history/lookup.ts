import type { FileTouch } from "./file-touch";
import { HistoryIndex } from "./history-index";
import type { HistoryOptions, HistoryProgress } from "./history-options";

export type { FileTouch } from "./file-touch";

/** One index per set of stores in a process: a second lookup reads only what changed since the first. */
const indexes = new Map<string, { index: HistoryIndex; refreshing?: Promise<void>; refreshedAt?: number; listeners: Set<HistoryProgress> }>();

/**
 * An index refreshed this recently answers without looking at the stores again: a person
 * switching editors or an agent asking about several files in a row does not pay a listing
 * of every store per file. A session written since shows on the next lookup after this.
 */
export const REFRESH_AFTER_MS = 2000;

function keyOf(opts: HistoryOptions): string {
  const dirs = Object.entries(opts.dirs ?? {}).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify([dirs, opts.only ?? null, opts.cacheDir ?? "", opts.env?.HOME ?? ""]);
}

/** The process's index over these stores, brought up to date (lookups at the same time share one refresh). */
export async function historyIndexFor(opts: HistoryOptions, refreshAfterMs = REFRESH_AFTER_MS): Promise<HistoryIndex> {
  const key = keyOf(opts);
  let slot = indexes.get(key);
  if (!slot) {
    const listeners = new Set<HistoryProgress>();
    // Every lookup waiting on a refresh is told its progress, whichever started it.
    const onProgress: HistoryProgress = (done, total) => listeners.forEach((l) => l(done, total));
    indexes.set(key, (slot = { index: new HistoryIndex({ dirs: opts.dirs, only: opts.only, cacheDir: opts.cacheDir, env: opts.env, onProgress }), listeners }));
  }
  const s = slot;
  if (!s.refreshing && s.refreshedAt !== undefined && Date.now() - s.refreshedAt < refreshAfterMs) return s.index;
  const listener = opts.onProgress;
  if (listener) s.listeners.add(listener);
  s.refreshing ??= s.index.refresh().then(
    () => {
      s.refreshedAt = Date.now();
      s.refreshing = undefined;
    },
    (err: unknown) => {
      s.refreshing = undefined;
      throw err;
    },
  );
  try {
    await s.refreshing;
  } finally {
    if (listener) s.listeners.delete(listener);
  }
  return s.index;
}

/**
 * Every entry of every session of every agent that read, wrote or edited a file, newest
 * first; entries of other checkouts of the file's repository are marked otherCheckout.
 * The path is taken as given (made absolute against the process's cwd when relative).
 */
export async function lookupFileHistory(absolutePath: string, opts: HistoryOptions & { refreshAfterMs?: number } = {}): Promise<FileTouch[]> {
  const index = await historyIndexFor(opts, opts.refreshAfterMs);
  return index.lookup(absolutePath);
}
