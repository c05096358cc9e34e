/**
 * Entry point of the thread a regex search runs on (see regex-thread.ts). Bundled on its
 * own by esbuild.mjs and run from source text. It runs the search as the main thread
 * would, posting each hit, each file and each session as they come, and marks every
 * regex match in the shared cells, so the main thread sees a match that never ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type SearchOptions, SessionSearch } from "./search-sessions";
import { type SearchThreadRequest, type ThreadMessage, WATCH } from "./regex-thread";

const port = parentPort;

function post(m: ThreadMessage): void {
  port?.postMessage(m);
}

async function run(req: SearchThreadRequest): Promise<void> {
  const cells = new Int32Array(req.watch);
  let skippedPosted = 0;
  const state = () => {
    const skipped = search.skipped.slice(skippedPosted);
    skippedPosted = search.skipped.length;
    return { scanned: { ...search.scanned }, skipped };
  };
  const opts: SearchOptions = {
    ...req.opts,
    threaded: false,
    onFile: (path) => post({ type: "file", path, ...state() }),
    onHit: (session, hit) => post({ type: "hit", session, hit }),
    watch: {
      start(line) {
        Atomics.store(cells, WATCH.line, line);
        Atomics.add(cells, WATCH.count, 1);
        Atomics.store(cells, WATCH.busy, 1);
      },
      end() {
        Atomics.store(cells, WATCH.busy, 0);
      },
    },
  };
  const search = new SessionSearch(opts);
  for await (const session of search) post({ type: "result", session, ...state() });
  post({ type: "end", ...state() });
}

if (port) {
  run(workerData as SearchThreadRequest).catch((err: unknown) => post({ type: "error", message: err instanceof Error ? err.message : String(err) }));
}
