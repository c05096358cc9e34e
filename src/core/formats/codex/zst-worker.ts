/**
 * Entry point of the thread that decompresses a `.jsonl.zst` rollout while the loading
 * thread indexes it (see zst-stream.ts). Bundled on its own by esbuild.mjs (fzstd and
 * little else) and run from source text. Each block is written to the plain copy (the
 * session reads entries from it by offset later) and then transferred, not copied, to the
 * loading thread; at most `maxInFlight` blocks are on their way at once, so neither
 * thread's memory grows with the file.
 */
import { parentPort, workerData } from "node:worker_threads";
import { streamZst, writeAll } from "./zst";
import { IN_FLIGHT, STOP, type ZstWorkerData, type ZstWorkerMessage } from "./zst-protocol";

/** Blocks between two nudges of the young generation (see `scavenge`). */
const SCAVENGE_EVERY = 8;

let sink: unknown;

/**
 * Makes V8 collect the young generation now. fzstd allocates a 128 KB scratch array per
 * block besides the block it hands on; their memory is outside V8's heap and goes when the
 * young generation is next scavenged, which this thread's few heap objects rarely ask for
 * (V8 waits for tens of MB of such memory: the thread alone peaked at 91 MB RSS on a 100 MB
 * rollout). A few hundred KB of short-lived objects per 1 MB of output fill the small
 * young generation (resourceLimits, zst-stream.ts) and free them: 66 MB, CPU unchanged.
 */
function scavenge(): void {
  for (let i = 0; i < 16384; i++) sink = [i, i, i, i];
}

const port = parentPort;
if (port) {
  const req = workerData as ZstWorkerData;
  const state = new Int32Array(req.shared);
  let blocks = 0;
  let read = 0;
  let size = 0;
  const post = (m: ZstWorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  // Called once fzstd has copied the block into its window: it is ours to give away.
  const handOn = (block: Uint8Array) => {
    // Blocking here is what a worker may do: the loading thread wakes us when it took one.
    for (;;) {
      const n = Atomics.load(state, IN_FLIGHT);
      if (n < req.maxInFlight || Atomics.load(state, STOP)) break;
      Atomics.wait(state, IN_FLIGHT, n, 1000);
    }
    if (Atomics.load(state, STOP)) return;
    if (++blocks % SCAVENGE_EVERY === 0) scavenge();
    Atomics.add(state, IN_FLIGHT, 1);
    post({ chunk: block, read, size }, [block.buffer as ArrayBuffer]);
  };
  streamZst(req.path, (block) => writeAll(req.fd, block), handOn, (compressed, total) => {
    read = compressed;
    size = total;
  }).then(
    (r) => post({ end: { bytes: r.bytes, size: r.size, ...(r.error ? { error: r.error } : {}) } }),
    (err: unknown) => post({ fail: err instanceof Error ? err.message : String(err) }),
  );
  void sink;
}
