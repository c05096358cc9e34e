// Entry of dist/history-worker.js: the per-file history's second thread, which reads
// sessions while the main thread reads others (2 cores halve a cold index). Started from
// its own file (it holds every format, too much to ride in every bundle as source text);
// only its file's name is resolved on the main thread (touch-thread.ts).
import { isMainThread, parentPort } from "node:worker_threads";
import { readSessionTouches } from "./read-touches";

/** What the main thread asks: the touches of one session. */
export interface TouchRequest {
  id: number;
  path: string;
  cwd: string;
}

const port = parentPort;
if (!isMainThread && port) {
  port.on("message", (req: TouchRequest) => {
    readSessionTouches(req.path, req.cwd, { secondThread: false }).then(
      (touches) => port.postMessage({ id: req.id, touches }),
      (err: unknown) => port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
