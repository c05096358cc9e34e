import type { ListAllOptions } from "../formats/list-all";

/**
 * The stores to index, as the session list takes them; the cache folder also holds the
 * index's own `history-cache.json` (none: no cache file).
 */
export type HistoryOptions = Pick<ListAllOptions, "dirs" | "only" | "cacheDir" | "env" | "signal"> & {
  /** Sessions larger than this are not read (see MAX_SESSION_BYTES); tests lower it. */
  maxSessionBytes?: number;
  /**
   * Threads that read sessions, this one included: 1, this one only; more, that many whatever
   * the size; left out, one per core (up to 1 + MAX_READER_THREADS) for a large cold index
   * (readerThreads).
   */
  threads?: number;
  /** Told how many of the sessions a refresh reads are read so far (a cold index of many sessions takes a while). */
  onProgress?: HistoryProgress;
};

/** Sessions read so far of those a refresh reads (`done` from 0 to `total`). */
export type HistoryProgress = (done: number, total: number) => void;
