// Keeps the heap of a long export near its live size. An export of a 100 MB session reads
// every entry's body (details, contexts of the timelines): megabytes of parsed text at a
// time that live just long enough to be promoted, and V8 lets such garbage reach several
// hundred MB before its first full collection, as the process has memory to spare. The
// export's live data is a few tens of MB, so a full collection each time the heap has grown
// by TRIM_GROWTH since the last one keeps the peak RSS under twice the session's size
// (docs/benchmarks.md). The collector is reached as Jest does for --logHeapUsage: the
// expose-gc flag set at run time, then `gc` read from a fresh context.

import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Growth of the used heap since the last collection that calls for the next (bytes). */
export const TRIM_GROWTH = 32 * 1024 * 1024;

let collect: (() => void) | null | undefined;

/** The full collection, or null where the runtime does not give it (then trims do nothing). */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as unknown;
    collect = typeof gc === "function" ? () => (gc as () => void)() : null;
  } catch {
    collect = null;
  }
  return collect;
}

/** Calls a full collection when the heap has grown by `growth` since the last one this trimmer ran. */
export class HeapTrim {
  private base = getHeapStatistics().used_heap_size;
  /** Full collections run so far (tests and the bench read it). */
  runs = 0;

  constructor(private readonly growth = TRIM_GROWTH) {}

  /** Cheap when nothing is due: one read of the heap's figures. A stage may ask for a smaller growth than the trimmer's. */
  maybe(growth = this.growth): void {
    if (getHeapStatistics().used_heap_size - this.base < growth) return;
    this.now();
  }

  /** A full collection now (after a stage whose data is dropped). */
  now(): void {
    const gc = collector();
    if (!gc) return;
    gc();
    this.runs++;
    this.base = getHeapStatistics().used_heap_size;
  }
}
