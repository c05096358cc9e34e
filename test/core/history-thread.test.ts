import { strict as assert } from "node:assert";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { HistoryIndex } from "../../src/core/history/history-index";
import { HistoryThreadLookups } from "../../src/core/history/history-thread";
import { lookupFileHistory } from "../../src/core/history/lookup";
import { MAX_READER_THREADS, readerThreads, THREAD_MIN_BYTES } from "../../src/core/history/touch-thread";
import { availableParallelism } from "node:os";
import { buildHistoryWorld } from "../helpers/history-world";
import { assistant } from "../helpers/session-builder";

/** The history world's stores, and an index of them made in this thread to compare with. */
async function indexedWorld() {
  const w = buildHistoryWorld();
  const opts = { dirs: w.dirs, only: Object.keys(w.dirs), env: w.env };
  const here = new HistoryIndex(opts);
  await here.refresh();
  return { w, opts, here };
}

describe("per-file history: how many threads read a cold index", () => {
  it("as asked; else one per core past this one's, up to MAX_READER_THREADS, and none for a small refresh", () => {
    assert.equal(readerThreads(10 * THREAD_MIN_BYTES, 1), 0);
    assert.equal(readerThreads(0, 2), 1, "asked for: whatever the size");
    assert.equal(readerThreads(0, 4), 3);
    assert.equal(readerThreads(THREAD_MIN_BYTES - 1), 0, "a small refresh stays on this thread");
    assert.equal(readerThreads(THREAD_MIN_BYTES), Math.min(MAX_READER_THREADS, availableParallelism() - 1));
  });
});

describe("per-file history on a thread of its own (the editor's lookups)", () => {
  it("answers every file as the index in this thread does, keeps its index between lookups, and starts again after it was ended", async function () {
    this.timeout(300_000);
    const { w, opts, here } = await indexedWorld();
    const files = here.touchedFiles();
    assert.ok(files.length >= 3, `only ${files.length} files touched`);
    const lookups = new HistoryThreadLookups();
    try {
      for (const f of files) assert.deepEqual(await lookups.lookup(f, opts), here.lookup(f), f);
      assert.equal(lookups.started, 1, "one thread for every lookup (built: dist/history-worker.js)");
      // A session written since: the thread's index reads it on a lookup that looks at the stores again.
      const app = join(w.main, "src", "app.ts");
      const before = (await lookups.lookup(app, { ...opts, refreshAfterMs: 0 })).length;
      appendFileSync(
        w.piFile,
        `${JSON.stringify({ ...assistant("late", "p5", "", { toolCalls: [{ id: "c9", name: "read", arguments: { path: "src/app.ts" } }] }), timestamp: "2026-08-01T10:00:00.000Z" })}\n`,
      );
      const after = await lookups.lookup(app, { ...opts, refreshAfterMs: 0 });
      assert.equal(after.length, before + 1, JSON.stringify(after.map((t) => t.entryId)));
      assert.equal(after[0].entryId, "late");
      lookups.dispose();
      assert.deepEqual(await lookups.lookup(app, { ...opts, refreshAfterMs: 0 }), after);
      assert.equal(lookups.started, 2);
    } finally {
      lookups.dispose();
    }
  });

  it("a lookup that waits on a refresh is told how many sessions it has read, of how many, on the thread and in this thread", async function () {
    this.timeout(300_000);
    const { w, opts, here } = await indexedWorld();
    const sessions = here.sessionReads;
    assert.ok(sessions >= 3, `only ${sessions} sessions`);
    const app = join(w.main, "src", "app.ts");
    const check = (seen: Array<[number, number]>, where: string) => {
      assert.deepEqual(seen[0], [0, sessions], `${where}: ${JSON.stringify(seen)}`);
      assert.deepEqual(seen.at(-1), [sessions, sessions], `${where}: ${JSON.stringify(seen)}`);
      assert.ok(seen.every(([d], k) => k === 0 || d === seen[k - 1][0] + 1), `${where}: one step per session: ${JSON.stringify(seen)}`);
    };
    const lookups = new HistoryThreadLookups();
    try {
      const seen: Array<[number, number]> = [];
      const got = await lookups.lookup(app, opts, (d, t) => seen.push([d, t]));
      assert.deepEqual(got, here.lookup(app));
      check(seen, "on the thread");
      // Indexed already: a lookup that reads nothing is told nothing.
      const again: Array<[number, number]> = [];
      await lookups.lookup(app, { ...opts, refreshAfterMs: 0 }, (d, t) => again.push([d, t]));
      assert.deepEqual(again, []);
    } finally {
      lookups.dispose();
    }
    const seen: Array<[number, number]> = [];
    // This thread's own index of the same stores (keyed apart by a cache folder of its own).
    await lookupFileHistory(app, { ...opts, cacheDir: join(w.base, "cache-here"), onProgress: (d, t) => seen.push([d, t]) });
    check(seen, "in this thread");
  });
});
