/**
 * Entry point of the thread that indexes the second half of a large session (see
 * src/core/store/range-worker.ts). Bundled on its own by esbuild.mjs and run from source text.
 * It lives with the registry: it is the one place off the main thread that knows every
 * format (by id, since functions do not cross threads).
 */
import { parentPort, workerData } from "node:worker_threads";
import { hooksFor } from "./hooks-by-id";
import { indexRange, type RangeRequest, transferList } from "../store/index-range";

/** Progress is posted every this many bytes, not per chunk. */
const PROGRESS_STEP = 8 * 2 ** 20;

const port = parentPort;
if (port) {
  const req = workerData as RangeRequest;
  let posted = req.from;
  indexRange(req, hooksFor(req.formatId), (offset) => {
    if (offset - posted >= PROGRESS_STEP) {
      port.postMessage({ progress: offset - req.from });
      posted = offset;
    }
  }).then(
    (result) => port.postMessage({ result }, transferList(result)),
    (err: unknown) => port.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
}
