import type { FileStamp, SessionReader } from "../core/session/session-reader";

/** How reading on may be watched and stopped (the rest of a first part, appended lines). */
export interface ReadOnOptions {
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
}

/**
 * A session read from a file that it keeps reading while the explorer is open: what a
 * first part left out, then whatever is appended. The explorer and the host work through
 * this, so neither names the reader class behind it (today the indexed JSONL reader).
 */
export interface LiveSession extends SessionReader {
  /** Bytes of the file indexed so far. */
  readonly size: number;
  /** The file as last looked at: its size is what a first part is part of. */
  readonly stamp: FileStamp;
  /** Threads the index was read on (2 when a worker read part of it). */
  readonly threads: number;
  /** Why the index worker failed, when it did (the file was then read on one thread). */
  readonly workerFailure: string | undefined;
  /**
   * Reads what is not indexed yet: the rest after a first part, or appended lines.
   * A file rewritten or shrunk since throws StaleSessionError (src/core/store/session.ts).
   */
  refresh(opts?: ReadOnOptions): Promise<{ added: number }>;
}

/** Whether a loaded session reads on from its file (an in-memory one does not). */
export function isLiveSession(s: SessionReader): s is LiveSession {
  const live = s as Partial<LiveSession>;
  return typeof live.refresh === "function" && typeof live.size === "number";
}
