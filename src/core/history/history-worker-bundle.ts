// Entry of dist/history-worker.js: the per-file history's second thread, which reads
// sessions while the main thread reads others (2 cores halve a cold index), or holds the
// extension's whole index and answers its lookups (history-thread.ts). Started from
// its own file (it holds every format, too much to ride in every bundle as source text);
// only its file's name is resolved on the main thread (touch-thread.ts).
import { isMainThread, parentPort } from "node:worker_threads";
import { lookupFileHistory } from "./lookup";
import { readSessionTouches } from "./read-touches";
import type { ThreadReply, ThreadRequest } from "./touch-thread";

const port = parentPort;
if (!isMainThread && port) {
  port.on("message", (req: ThreadRequest) => {
    const progress = (done: number, total: number) => port.postMessage({ id: req.id, progress: [done, total] } satisfies ThreadReply);
    const work =
      "lookup" in req
        ? lookupFileHistory(req.lookup.file, { ...req.lookup.opts, onProgress: req.lookup.progress ? progress : undefined })
        : readSessionTouches(req.path, req.cwd, { secondThread: false, formatId: req.formatId });
    work.then(
      // A read's touches stay here: the index keeps their rows (one string) until a lookup needs them.
      (got) => port.postMessage(Array.isArray(got) ? { id: req.id, touches: got } : { id: req.id, rows: got.rows, paths: got.paths, name: got.name }),
      (err: unknown) => port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
