import { resolve } from "node:path";
import type { FileTouch } from "./file-touch";
import type { HistoryProgress } from "./history-options";
import { lookupFileHistory } from "./lookup";
import { TouchThread, type ThreadLookupOptions } from "./touch-thread";

/**
 * File lookups answered on the history's own thread, which keeps the index: a cold index
 * of a thousand sessions is tens of seconds of reading and a warm one a cache file of tens
 * of MB to parse, and none of it may hold up the thread of the editor's extensions. The
 * thread starts at the first lookup and again after it failed; where its bundle is not
 * built (the code run without our build), lookups run in this thread as before.
 */
export class HistoryThreadLookups {
  private thread: TouchThread | undefined;
  /** Threads started so far (the tests count them). */
  started = 0;

  /** A file's history; `onProgress` is told how far a refresh it waits on has read. */
  lookup(file: string, opts: ThreadLookupOptions, onProgress?: HistoryProgress): Promise<FileTouch[]> {
    if (this.thread?.failed) this.dispose();
    if (!this.thread) {
      this.thread = TouchThread.start();
      if (this.thread) this.started++;
    }
    // Made absolute here: relative to this process's folder, whichever thread reads it.
    const path = resolve(file);
    return this.thread ? this.thread.lookup(path, opts, onProgress) : lookupFileHistory(path, { ...opts, onProgress });
  }

  /** Ends the thread (and its index); a later lookup starts another. */
  dispose(): void {
    this.thread?.close();
    this.thread = undefined;
  }
}
