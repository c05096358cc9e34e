/** What the .zst thread (zst-worker.ts) and the loading thread (zst-stream.ts) say to each other. */

/** Slot of the shared counters: blocks posted and not yet indexed. */
export const IN_FLIGHT = 0;
/** Slot of the shared counters: set when the load stopped (an error, a cancel): the thread posts no more. */
export const STOP = 1;

export interface ZstWorkerData {
  /** The .zst. */
  path: string;
  /** The plain copy, opened for writing by the loading thread (which closes it once the thread is gone). */
  fd: number;
  /** Two Int32 slots: IN_FLIGHT and STOP. */
  shared: SharedArrayBuffer;
  maxInFlight: number;
}

export type ZstWorkerMessage =
  /** A block of decompressed bytes (its buffer transferred), the compressed bytes read so far and the .zst's size. */
  | { chunk: Uint8Array; read: number; size: number }
  /** The whole stream was read (`error`: a corrupt or truncated frame stopped it, what came before was posted). */
  | { end: { bytes: number; size: number; error?: string } }
  /** The thread could not go on (the file could not be read). */
  | { fail: string };
