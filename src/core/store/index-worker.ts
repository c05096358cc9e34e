/**
 * Entry point of the thread that indexes the second half of a large session (see
 * range-worker.ts). Bundled on its own by esbuild.mjs and run from source text.
 */
import { parentPort, workerData } from "node:worker_threads";
import { indexRange, type RangeRequest, transferList } from "./index-range";

/** Progress is posted every this many bytes, not per chunk. */
const PROGRESS_STEP = 8 * 2 ** 20;

const port = parentPort;
if (port) {
  const req = workerData as RangeRequest;
  let posted = req.from;
  indexRange(req, (offset) => {
    if (offset - posted >= PROGRESS_STEP) {
      port.postMessage({ progress: offset - req.from });
      posted = offset;
    }
  }).then(
    (result) => port.postMessage({ result }, transferList(result)),
    (err: unknown) => port.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
}
