import { strict as assert } from "node:assert";
import { appendFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { openSession } from "../../src/core/formats/registry";
import { bytesDigest, placeOf, placer, readBack, SessionBytes, withTexts } from "../../src/core/history/edit-texts";
import { cacheBytes, readCache, recordTouches, RowWriter, rowsTouches, type SessionRecord } from "../../src/core/history/history-cache";
import type { StoredTouch } from "../../src/core/history/session-touches";
import { HistoryIndex, historyCacheFile } from "../../src/core/history/history-index";
import { readSessionTouches } from "../../src/core/history/read-touches";
import { readerThreads, type TouchThread } from "../../src/core/history/touch-thread";
import { sessionTouches } from "../../src/core/history/session-touches";
import { formatFixtures } from "../helpers/format-fixtures";
import { withFaults } from "../helpers/faulty-fs";
import { buildHistoryWorld } from "../helpers/history-world";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

const ROOTS = [resolve("test", "fixtures"), resolve("..", "shared", "fixtures")].filter((d) => existsSync(d));
const LARGE = resolve("..", "shared", "fixtures", "pi", "large-session.jsonl");

describe("per-file history: edits' texts kept as places in their session files", () => {
  it("every fixture of every format: the texts read back from their places equal the texts read with the session", async function () {
    this.timeout(600_000);
    let placed = 0;
    let files = 0;
    for (const root of ROOTS) {
      for (const format of readdirSync(root)) {
        for (const path of formatFixtures(root, format)) {
          let s;
          try {
            s = await openSession(path, { skim: true });
          } catch {
            continue; // Not a session (its own tests say why).
          }
          files++;
          const cwd = s.format.info(s).cwd;
          const inline = sessionTouches(s, cwd);
          const bytes = new SessionBytes(path);
          const kept = sessionTouches(s, cwd, placer(s.metas, bytes));
          bytes.close();
          placed += kept.filter((t) => t.oldAt || t.newAt).length;
          const back = withTexts(kept.map((t) => ({ ...t, sessionPath: path })));
          assert.deepEqual(back, inline.map((t) => ({ ...t, sessionPath: path })), path);
        }
      }
    }
    assert.ok(files >= 30, `only ${files} fixture files`);
    assert.ok(placed >= 50, `only ${placed} touches had their texts placed`);
  });

  it("a record's rows, as a read makes them or as the cache file gives them back, write the same bytes and make the read's touches", async () => {
    const w = buildHistoryWorld();
    const records = new Map<string, SessionRecord>();
    const touches = new Map<string, unknown>();
    for (const [path, cwd] of [[w.piFile, w.main], [LARGE, "/w"]]) {
      if (!existsSync(path)) continue;
      const read = await readSessionTouches(path, cwd);
      assert.ok(read.rows.length > 10);
      assert.deepEqual(read.paths, [...new Set(read.touches.map((t) => t.absolutePath))]);
      records.set(path, { agent: "pi", size: 1, mtimeMs: 2, cwd, title: 'a "title"', paths: read.paths, rows: read.rows });
      touches.set(path, read.touches);
    }
    const written = cacheBytes(records);
    assert.ok(written);
    const file = join(buildHistoryWorld().base, "history-cache.json");
    writeFileSync(file, written);
    const back = readCache(file);
    assert.equal(back.size, records.size);
    for (const [path, rec] of back) {
      // Read back as text: made into touches at the first ask only.
      assert.equal(rec.touches, undefined);
      assert.deepEqual(recordTouches(rec), touches.get(path), path);
      assert.deepEqual(recordTouches(records.get(path) as SessionRecord), touches.get(path), path);
    }
    assert.equal(cacheBytes(back)?.toString(), written.toString());
    // Rows not as written: that session has no touches and its stamp no longer matches (read again at the next refresh).
    const lines = written.toString().split("\n");
    const rows = JSON.parse(lines[2]);
    rows.entries[0][3] = [[7, 0, 0, 0]];
    lines[2] = JSON.stringify(rows);
    if (records.size > 1) lines[4] = "{not json";
    writeFileSync(file, lines.join("\n"));
    const damaged = readCache(file);
    assert.equal(damaged.size, records.size);
    for (const rec of damaged.values()) {
      assert.deepEqual(recordTouches(rec), []);
      assert.equal(rec.size, -1);
    }
    // Facts not as written, or a file cut short: the whole cache is dropped (every session read again).
    writeFileSync(file, written.toString().replace('"agent":"pi"', '"agent":7'));
    assert.equal(readCache(file).size, 0);
    writeFileSync(file, written.subarray(0, written.length - 10));
    assert.equal(readCache(file).size, 0);
  });

  it("a session's rows are written as its touches come: an entry's touches share a row, the text is JSON.stringify's of the tables, and they give the touches back", () => {
    const at = (n: number) => ({ at: n, bytes: 10 + n, digest: 1000 + n });
    const touches: StoredTouch[] = [
      { entryId: "e1", timestamp: "2026-01-01T00:00:00.000Z", prompt: "fix it", operation: "read", absolutePath: "/w/a.ts" },
      { entryId: "e1", timestamp: "2026-01-01T00:00:00.000Z", prompt: "fix it", operation: "edit", absolutePath: "/w/a.ts", oldAt: at(1), newText: "new \"text\"" },
      { entryId: "e2", prompt: "fix it", operation: "write", absolutePath: "/w/b.ts", newAt: at(2) },
      // The same id again at another time, then the first entry again after another: rows of their own.
      { entryId: "e2", timestamp: "2026-01-01T00:00:01.000Z", operation: "read", absolutePath: "/w/a.ts" },
      { entryId: "e1", timestamp: "2026-01-01T00:00:00.000Z", prompt: "fix it", operation: "read", absolutePath: "/w/c.ts" },
    ];
    const rows = new RowWriter();
    for (const t of touches) rows.touch({ id: t.entryId, timestamp: t.timestamp, prompt: t.prompt }, t.operation, t.absolutePath, t);
    const text = rows.text();
    // The tables, written out by hand.
    const tables = {
      paths: ["/w/a.ts", "/w/b.ts", "/w/c.ts"],
      prompts: ["fix it"],
      entries: [
        // Each touch flat: operation, path, then its old and new text (-1 for none, the text, or its place's three numbers).
        ["e1", "2026-01-01T00:00:00.000Z", 0, 0, 0, -1, -1, 2, 0, 1, 11, 1001, 'new "text"'],
        ["e2", "", 0, 1, 1, -1, 2, 12, 1002],
        ["e2", "2026-01-01T00:00:01.000Z", -1, 0, 0, -1, -1],
        ["e1", "2026-01-01T00:00:00.000Z", 0, 0, 2, -1, -1],
      ],
    };
    assert.equal(text, JSON.stringify(tables));
    assert.deepEqual(rows.pathList, tables.paths);
    assert.deepEqual(rowsTouches(text), touches);
    // Asked again, the same text; a session without touches has empty tables.
    assert.equal(rows.text(), text);
    const none = new RowWriter();
    assert.equal(none.text(), JSON.stringify({ paths: [], prompts: [], entries: [] }));
    assert.throws(() => rowsTouches('{"paths":[],"prompts":[],"entries":[["e",""]]}'), /not as written/);
    // A touch cut short, a path or a prompt not in the tables, a place of two numbers, a digest past 32 bits: not as written.
    for (const bad of [
      [["e", "", -1, 0]],
      [["e", "", -1, 0, 0, -1]],
      [["e", "", -1, 0, 1, -1, -1]],
      [["e", "", 0, 0, 0, -1, -1]],
      [["e", "", -1, 0, 0, 5, 6]],
      [["e", "", -1, 0, 0, -1, 5, 6, 2 ** 32]],
      [["e", "", -1, 3, 0, -1, -1]],
      [["e", "", -1, 0, 0, -2, -1]],
    ])
      assert.throws(() => rowsTouches(JSON.stringify({ paths: ["/w/a.ts"], prompts: [], entries: bad })), /not as written/, JSON.stringify(bad));
    assert.deepEqual(rowsTouches(JSON.stringify({ paths: ["/w/a.ts"], prompts: [], entries: [["e", "", -1, 0, 0, -1, 5, 6, 2 ** 32 - 1]] })), [{ entryId: "e", operation: "read", absolutePath: "/w/a.ts", newAt: { at: 5, bytes: 6, digest: 2 ** 32 - 1 } }]);
  });

  it("a session file changed under the cache (same size and time) gives a note for its edit's text, not another text; a short text is kept as it was read", async () => {
    const w = buildHistoryWorld();
    // An edit whose texts are long enough to be kept as their places (SHORT_TEXT_BYTES).
    const before = `export const greeting = 'hallo'; // ${"a long line ".repeat(6)}`;
    const after = `export const greeting = 'hello'; // ${"a long line ".repeat(6)}`;
    appendFileSync(w.piFile, `${JSON.stringify({ ...assistant("p6", "p5", "", { toolCalls: [{ id: "c3", name: "edit", arguments: { path: "src/app.ts", oldText: before, newText: after } }] }), timestamp: "2026-05-01T10:00:06.000Z" })}\n`);
    // A whole second, so the time set again below is the same to the last digit.
    const when = new Date("2026-05-01T12:00:00Z");
    utimesSync(w.piFile, when, when);
    const cacheDir = join(w.base, "cache");
    const first = new HistoryIndex({ dirs: w.dirs, only: Object.keys(w.dirs), cacheDir, env: w.env });
    await first.refresh();
    const app = join(w.main, "src", "app.ts");
    const edits = (index: HistoryIndex) => index.lookup(app).filter((t) => t.agent === "pi" && t.operation === "edit");
    assert.deepEqual(edits(first).map((t) => [t.entryId, t.oldText, t.newText]), [["p6", before, after], ["p4", "'hallo'", "'hello'"]]);
    // The same bytes count and time, other texts where the edits' were: the stamp cannot tell.
    writeFileSync(w.piFile, readFileSync(w.piFile, "utf8").replaceAll("'hello'", "'howdy'"));
    utimesSync(w.piFile, when, when);
    const fresh = new HistoryIndex({ dirs: w.dirs, only: Object.keys(w.dirs), cacheDir, env: w.env });
    await fresh.refresh();
    assert.equal(fresh.sessionReads, 0, "the stamp is unchanged: the session is taken from the cache");
    const [long, short] = edits(fresh);
    assert.equal(long.newText, undefined);
    assert.equal(long.oldText, before, "the old text's bytes are unchanged: still read back");
    assert.match(long.textNote ?? "", /changed since the history indexed it .*refresh the history/);
    assert.ok(long.textNote?.startsWith(w.piFile));
    // A short text is kept in the index as the session held it when it was read.
    assert.deepEqual([short.oldText, short.newText, short.textNote], ["'hallo'", "'hello'", undefined]);
  });

  it("a place's digest is of its bytes: a byte changed in place, or another digest, is a note, never a text", () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    const text = "const a = \"\u00e9t\u00e9\";\n".repeat(40);
    const line = Buffer.from(JSON.stringify({ type: "message", newText: text }));
    writeFileSync(file, line);
    const place = placeOf(text, line, 0);
    assert.ok(place);
    const bytes = new SessionBytes(file);
    try {
      assert.deepEqual(readBack(bytes, place), { text });
      // Another digest of the same bytes (a cache file damaged, or written by another digest).
      assert.ok("note" in readBack(bytes, { ...place, digest: (place.digest + 1) >>> 0 }));
      // One character of the text changed, same length: still a JSON string, another text.
      writeFileSync(file, Buffer.from(line.toString("latin1").replace("const a", "const b"), "latin1"));
      const got = readBack(bytes, place);
      assert.ok("note" in got && /changed since the history indexed it/.test(got.note), JSON.stringify(got));
      assert.notEqual(bytesDigest(Buffer.from("ab")), bytesDigest(Buffer.from("ba")));
    } finally {
      bytes.close();
    }
  });

  it("a bench-like store (a real session linked 40 times): the cache is small, a changed session is read again, the others not", async function () {
    if (!existsSync(LARGE)) this.skip();
    this.timeout(300_000);
    const store = tempDir();
    const n = 40;
    for (let k = 0; k < n; k++) {
      const dir = join(store, `--bench-project-${k % 4}--`);
      mkdirSync(dir, { recursive: true });
      linkSync(LARGE, join(dir, `2026-01-01T00-00-00-000Z_${String(k).padStart(8, "0")}.jsonl`));
    }
    const cacheDir = join(tempDir(), "cache");
    const opts = { dirs: { pi: store }, only: ["pi"], cacheDir, env: {} };
    const index = new HistoryIndex(opts);
    await index.refresh();
    assert.equal(index.sessionReads, n);
    const cache = statSync(historyCacheFile(cacheDir)).size;
    const sessions = n * statSync(LARGE).size;
    // Was 19% of the sessions' bytes with the edits' texts in it (830 MB at the bench's 1,000 sessions).
    assert.ok(cache < sessions * 0.03, `cache ${cache} bytes for ${sessions} bytes of sessions`);
    const probe = index.touchedFiles()[0];
    const before = index.lookup(probe);
    assert.ok(before.some((t) => t.newText !== undefined));

    // One session copied out of the links and grown: only it is read again.
    const grown = join(store, "--bench-project-1--", "2026-01-01T00-00-00-000Z_00000001.jsonl");
    const text = readFileSync(grown);
    writeFileSync(grown + ".tmp", text);
    renameSync(grown + ".tmp", grown);
    appendFileSync(grown, `${JSON.stringify(assistant("zz1", null, "more"))}\n`);
    const again = new HistoryIndex(opts);
    await again.refresh();
    assert.equal(again.sessionReads, 1, "only the grown session is read again");
    // The same touches with the same texts (those of equal times in any order).
    const picture = (ts: typeof before) => ts.map((t) => JSON.stringify([t.sessionPath, t.entryId, t.operation, t.oldText, t.newText, t.textNote])).sort();
    assert.deepEqual(picture(again.lookup(probe)), picture(before));
  });

  it("the cache file is written as the sessions are read and put in place whole; a failed write, or a refresh that fails, leaves no cache file and no temp file", async () => {
    const world = buildHistoryWorld();
    const make = (cacheDir: string, extra: Partial<ConstructorParameters<typeof HistoryIndex>[0]> = {}) => new HistoryIndex({ dirs: world.dirs, cacheDir, env: world.env, threads: 1, ...extra });
    // The history's cache file and its temp files (the folder holds the session lists' caches too).
    const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.includes("history-cache")) : []);

    // Whole: the same records a cache file written at the end holds (read back, they make the same index).
    const good = join(tempDir(), "cache");
    const first = make(good);
    await first.refresh();
    assert.deepEqual(files(good), ["history-cache.json"]);
    const back = readCache(historyCacheFile(good));
    assert.equal(back.size, first.sessionCount);
    const again = make(good);
    await again.refresh();
    assert.equal(again.sessionReads, 0, "the next index reads no session");
    assert.deepEqual(again.lookup(join(world.main, "src", "app.ts")), first.lookup(join(world.main, "src", "app.ts")));

    // A disk that fills after the first record: no cache file and no temp file, the index whole all the same.
    const full = join(tempDir(), "cache");
    const index = await withFaults({ match: (p) => p.startsWith(full), writeLimit: 200 }, async (f) => {
      const i = make(full);
      await i.refresh();
      assert.ok(f.log.some((l) => l.startsWith("writeSync")), f.log.join("\n"));
      return i;
    });
    assert.deepEqual(files(full), []);
    assert.deepEqual(index.lookup(join(world.main, "src", "app.ts")), first.lookup(join(world.main, "src", "app.ts")));

    // A refresh stopped halfway (its signal), records written already: no cache file, no temp file.
    for (let k = 0; k < 8; k++) writeFileSync(join(dirname(world.piFile), `2026-05-02T10-00-00-000Z_copy${k}.jsonl`), readFileSync(world.piFile));
    const stopped = join(tempDir(), "cache");
    const abort = new AbortController();
    let read = 0;
    const halfway = make(stopped, { signal: abort.signal, onProgress: (done) => (read = done) > 2 && abort.abort() });
    await assert.rejects(halfway.refresh(), /abort/i);
    assert.ok(read > 2 && read < 11, `${read} sessions read`);
    assert.deepEqual(files(stopped), []);
  });

  it("a cold index starts its reader threads while it lists the stores, and closes those a small store does not need; a warm one starts none", async () => {
    const world = buildHistoryWorld();
    const cacheDir = join(tempDir(), "cache");
    const cold = new HistoryIndex({ dirs: world.dirs, cacheDir, env: world.env });
    await cold.refresh();
    // None read: the stores are small (readerThreads), so this thread read every session.
    assert.equal(cold.threadsStarted, readerThreads(Infinity));
    assert.deepEqual([cold.threadReads, cold.readsByThread], [0, []]);
    assert.ok(cold.sessionReads >= 3);
    const warm = new HistoryIndex({ dirs: world.dirs, cacheDir, env: world.env });
    await warm.refresh();
    assert.deepEqual([warm.threadsStarted, warm.sessionReads], [0, 0]);
    const one = new HistoryIndex({ dirs: world.dirs, env: world.env, threads: 1 });
    await one.refresh();
    assert.equal(one.threadsStarted, 0, "one thread asked: none started");
  });

  it("a reader thread that stopped: this thread reads the sessions it claimed or was given and did not answer, and the index is the one one thread gives", async function () {
    this.timeout(120_000);
    const w = buildHistoryWorld();
    const piDir = join(w.dirs.pi, "--many--");
    mkdirSync(piDir, { recursive: true });
    for (let k = 0; k < 40; k++) {
      const calls = Array.from({ length: 30 }, (_, j) => ({ id: `c${k}-${j}`, name: "edit", arguments: { path: `f${k}-${j}.ts`, oldText: `old ${k} ${j}`, newText: `new ${k} ${j}` } }));
      writeSession([header({ cwd: w.main }), user(`u${k}`, null, `Task ${k}`), assistant(`a${k}`, `u${k}`, "", { toolCalls: calls })], { dir: piDir, name: `2026-03-${String(k + 1).padStart(2, "0")}T00-00-00-000Z_s.jsonl` });
    }
    const threads: TouchThread[] = [];
    class Watched extends HistoryIndex {
      protected override startThread(): TouchThread[] {
        const got = super.startThread();
        threads.push(...got);
        // Ended before it is asked anything: what it is given never comes back.
        for (const t of got) t.close();
        return got;
      }
    }
    const picture = (index: HistoryIndex) => ({ problems: index.problems, files: index.touchedFiles().map((f) => [f, index.lookup(f)]) });
    const one = new HistoryIndex({ dirs: w.dirs, only: Object.keys(w.dirs), env: w.env, threads: 1 });
    await one.refresh();
    // The session the reader thread is given first (the largest) is never answered by it.
    const stopped = new Watched({ dirs: w.dirs, only: Object.keys(w.dirs), env: w.env, threads: 2 });
    await stopped.refresh();
    assert.equal(threads.length, 1);
    assert.equal(stopped.threadReads, 0);
    assert.equal(stopped.sessionReads, one.sessionReads);
    assert.ok(one.touchedFiles().length >= 40 * 30);
    assert.deepEqual(picture(stopped), picture(one));
  });

  it("two threads give the index one thread gives: the same touches, texts, order and problems", async function () {
    this.timeout(300_000);
    const w = buildHistoryWorld();
    // More pi sessions beside the world's: real ones (the largest over the size limit set below: a problem), one with a bad line.
    const piDir = join(w.dirs.pi, "--more--");
    mkdirSync(piDir, { recursive: true });
    for (const f of formatFixtures(resolve("..", "shared", "fixtures"), "pi")) linkSync(f, join(piDir, `2026-01-0${readdirSync(piDir).length}T00-00-00-000Z_${readdirSync(piDir).length}.jsonl`));
    writeFileSync(join(piDir, "2026-01-09T00-00-00-000Z_bad.jsonl"), '{"type":"session","id":"s","version":3}\n' + "x".repeat(100) + "\n");
    // Enough sessions that every reader thread of three is handed some.
    for (let k = 0; k < 8; k++) {
      const call = { id: `c${k}`, name: "edit", arguments: { path: `small-${k}.ts`, oldText: `a${k}`, newText: `b${k}` } };
      writeSession([header({ cwd: w.main }), user(`u${k}`, null, `Small ${k}`), assistant(`a${k}`, `u${k}`, "", { toolCalls: [call] })], { dir: piDir, name: `2026-02-0${k}T00-00-00-000Z_small.jsonl` });
    }
    const picture = async (threads: number) => {
      const index = new HistoryIndex({ dirs: w.dirs, only: Object.keys(w.dirs), env: w.env, threads, maxSessionBytes: 2_000_000 });
      await index.refresh();
      return { index, picture: { reads: index.sessionReads, problems: index.problems, files: index.touchedFiles().map((f) => [f, index.lookup(f)]) } };
    };
    const { index: single, picture: one } = await picture(1);
    const { index: pair, picture: two } = await picture(2);
    // Three reader threads beside this one (as on a machine of four cores or more).
    const { index: four, picture: many } = await picture(4);
    assert.equal(single.threadReads, 0);
    assert.ok(pair.threadReads > 0, "the second thread read sessions");
    // The first sessions listed are read while the rest are (EarlyReads), by every thread.
    assert.ok(pair.earlyReads >= 1 && four.earlyReads >= 3, `early reads: ${pair.earlyReads}, ${four.earlyReads}`);
    assert.equal(four.readsByThread.length, 3);
    assert.ok(four.readsByThread.every((n) => n > 0), `reads by thread: ${four.readsByThread.join(", ")}`);
    assert.ok(one.files.length > 10, `only ${one.files.length} files touched`);
    assert.ok(one.problems.length >= 1);
    assert.deepEqual(two, one);
    assert.deepEqual(many, one);
  });
});
