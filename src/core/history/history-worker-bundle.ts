// Entry of dist/history-worker.js: the per-file history's second thread, which reads
// sessions while the main thread reads others (2 cores halve a cold index), or holds the
// extension's whole index and answers its lookups (history-thread.ts). Started from
// its own file (it holds every format, too much to ride in every bundle as source text);
// only its file's name is resolved on the main thread (touch-thread.ts).
import { isMainThread, parentPort } from "node:worker_threads";
import { lookupFileHistory } from "./lookup";
import { readSessionTouches } from "./read-touches";
import { claimNext, type SharedReads, type ThreadReply, type ThreadRequest } from "./touch-thread";

const port = parentPort;

/** This thread's share of sessions read by several (SharedReads): each answered as it is read, then `done`. */
async function readShared(id: number, shared: SharedReads, post: (m: ThreadReply) => void): Promise<void> {
  const claim = new Int32Array(shared.claim);
  const { items } = shared;
  for (let k = shared.first >= 0 ? shared.first : claimNext(claim); k < items.length; k = claimNext(claim)) {
    const { path, cwd, formatId } = items[k];
    try {
      const got = await readSessionTouches(path, cwd, { secondThread: false, formatId });
      post({ id, item: k, rows: got.rows, paths: got.paths, name: got.name });
    } catch (err) {
      post({ id, item: k, error: err instanceof Error ? err.message : String(err) });
    }
  }
  post({ id, done: true });
}

if (!isMainThread && port) {
  port.on("message", (req: ThreadRequest) => {
    if ("shared" in req) return void readShared(req.id, req.shared, (m) => port.postMessage(m));
    const progress = (done: number, total: number) => port.postMessage({ id: req.id, progress: [done, total] } satisfies ThreadReply);
    lookupFileHistory(req.lookup.file, { ...req.lookup.opts, onProgress: req.lookup.progress ? progress : undefined }).then(
      (touches) => port.postMessage({ id: req.id, touches } satisfies ThreadReply),
      (err: unknown) => port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
