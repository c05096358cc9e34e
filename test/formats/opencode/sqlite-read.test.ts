import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { copyFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseBusyError, readSnapshot } from "../../../src/core/formats/opencode/db-snapshot";
import { BadDatabaseError, openDatabase } from "../../../src/core/formats/opencode/sqlite-db";
import { tempDir } from "../../helpers/session-builder";
import { hasPython, startWriter } from "./sqlite-writer";

/** Every file of a folder with its size and mtime: what "nothing written" is checked against. */
function picture(dir: string): string {
  return readdirSync(dir)
    .sort()
    .map((n) => {
      const st = statSync(join(dir, n));
      return `${n}:${st.size}:${st.mtimeMs}`;
    })
    .join("\n");
}

const count = async (db: string) => Number((await openDatabase(db)).all("SELECT count(*) AS n FROM t")[0].n);

describe("OpenCode's SQLite read: a live WAL-mode database, read without locks or writes", function () {
  before(function () {
    if (!hasPython()) throw new Error("these tests need python3 with its sqlite3 module (the writer process)");
  });

  it("rows still only in the -wal are seen, and nothing in the folder changes (no -shm made, nothing written)", async () => {
    const dir = tempDir();
    const db = join(dir, "opencode.db");
    const w = await startWriter(db);
    try {
      await w.send({ op: "sql", sql: [["CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)", []]] });
      await w.send({ op: "checkpoint", mode: "TRUNCATE" });
      await w.send({ op: "sql", sql: [["INSERT INTO t(v) VALUES (1)", []], ["INSERT INTO t(v) VALUES (2)", []]] });
      await w.send({ op: "sql", sql: [["INSERT INTO t(v) VALUES (3)", []]] });
      assert.ok(statSync(`${db}-wal`).size > 0, "the rows are in the -wal");
      const before = picture(dir);
      const snap = await readSnapshot(db);
      assert.equal(snap.walCommits, 2, "two commits read from the -wal");
      assert.equal(await count(db), 3);
      assert.equal(picture(dir), before, "the reader wrote nothing and made no file");
    } finally {
      await w.close();
    }
  });

  it("a writer process inserting rows while we read: both make progress and we see only committed, growing counts", async () => {
    const dir = tempDir();
    const db = join(dir, "opencode.db");
    // Checkpoints every 20 pages: the -wal restarts under the reader many times.
    const w = await startWriter(db, 20);
    try {
      await w.send({ op: "sql", sql: [["CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)", []], ["CREATE TABLE c(n INTEGER)", []], ["INSERT INTO c VALUES (0)", []]] });
      await count(db); // SQLite's WebAssembly is compiled once, before the race.
      const total = 1500;
      // Each commit adds a row to t and counts it in c: a torn picture would break the equality.
      const writing = w.send({ op: "loop", n: total, counter: true });
      let finished = false;
      void writing.then(() => (finished = true));
      const seen: number[] = [];
      while (!finished) {
        const open = await openDatabase(db);
        const [row] = open.all("SELECT (SELECT count(*) FROM t) AS rows, (SELECT n FROM c) AS counted");
        assert.equal(row.rows, row.counted, "one commit's picture: the rows and their count agree");
        seen.push(Number(row.rows));
        await new Promise((r) => setImmediate(r));
      }
      await writing;
      seen.push(await count(db));
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i] >= seen[i - 1], `counts never go back: ${seen[i - 1]} then ${seen[i]}`);
      assert.equal(seen.at(-1), total, "the last read sees every committed row");
      assert.ok(new Set(seen).size >= 2, `the reader read while the writer wrote (saw ${[...new Set(seen)].join(", ")})`);
    } finally {
      await w.close();
    }
  });

  it("a database and -wal copied without their -shm: the -wal's rows are read and no -shm is made", async () => {
    const dir = tempDir();
    const db = join(dir, "opencode.db");
    const w = await startWriter(db);
    const copy = join(tempDir(), "opencode.db");
    try {
      await w.send({ op: "sql", sql: [["CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)", []]] });
      await w.send({ op: "checkpoint", mode: "TRUNCATE" });
      await w.send({ op: "sql", sql: [["INSERT INTO t(v) VALUES (1)", []]] });
      copyFileSync(db, copy);
      copyFileSync(`${db}-wal`, `${copy}-wal`);
    } finally {
      await w.close();
    }
    assert.equal(await count(copy), 1);
    assert.deepEqual(readdirSync(join(copy, "..")).sort(), ["opencode.db", "opencode.db-wal"]);
  });

  it("a -wal frame with a bad checksum ends the log: the commits before it are read, nothing after", async () => {
    const dir = tempDir();
    const db = join(dir, "opencode.db");
    const w = await startWriter(db);
    let walBytes: Buffer;
    try {
      await w.send({ op: "sql", sql: [["CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)", []]] });
      await w.send({ op: "checkpoint", mode: "TRUNCATE" });
      await w.send({ op: "sql", sql: [["INSERT INTO t(v) VALUES (1)", []]] });
      await w.send({ op: "sql", sql: [["INSERT INTO t(v) VALUES (2)", []]] });
      walBytes = (await import("node:fs")).readFileSync(`${db}-wal`);
    } finally {
      await w.close();
    }
    // The writer checkpointed on close; lay the old -wal back with its last frame damaged.
    const copy = join(tempDir(), "opencode.db");
    const fs = await import("node:fs");
    const sqlite = (await import("node:child_process")).spawnSync("python3", ["-c", `import sqlite3,sys\nc=sqlite3.connect(sys.argv[1])\nc.execute("PRAGMA journal_mode=DELETE")\nc.execute("DELETE FROM t")\nc.commit()`, db]);
    assert.equal(sqlite.status, 0, String(sqlite.stderr));
    fs.copyFileSync(db, copy);
    walBytes[walBytes.length - 1] ^= 0xff;
    writeFileSync(`${copy}-wal`, walBytes);
    assert.equal(await count(copy), 1, "the first commit counts, the damaged second does not");
  });

  it("a file that is no database is a clear error naming it", async () => {
    const path = join(tempDir(), "opencode.db");
    writeFileSync(path, "this is not sqlite".repeat(100));
    await assert.rejects(openDatabase(path), (err: Error) => err instanceof BadDatabaseError && err.message.startsWith(`${path}: not a readable SQLite database`));
  });

  it("a database that keeps changing under every read is a clear busy error after the retries", async () => {
    const dir = tempDir();
    const db = join(dir, "opencode.db");
    const w = await startWriter(db);
    try {
      await w.send({ op: "sql", sql: [["CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER)", []]] });
      let reads = 0;
      // The -wal restarts (a new header) between our two looks at it, every time.
      const restart = () => {
        reads++;
        writeFileSync(`${db}-wal`, randomBytes(32 + reads));
      };
      await assert.rejects(readSnapshot(db, { tries: 3, betweenReads: restart }), (err: Error) => err instanceof DatabaseBusyError && err.message.includes(db) && /kept changing/.test(err.message));
      assert.equal(reads, 3);
    } finally {
      await w.close();
    }
  });
});
