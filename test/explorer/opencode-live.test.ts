import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeFilesOf } from "../../src/core/formats/registry";
import { watchSession } from "../../src/extension/file-watch";
import { type LifecycleHost, SessionLifecycle } from "../../src/explorer/session-lifecycle";
import type { HostToWebview } from "../../src/protocol";
import { asstMsg, OcDb, text, userMsg } from "../formats/opencode/oc-db";
import { hasPython, startWriter, type Writer } from "../formats/opencode/sqlite-writer";

/** Waits for a condition the watcher and the lifecycle reach on their own; no fixed sleep. */
async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A message and its part, committed in one transaction, as OpenCode commits them (part data without ids). */
function insertMessage(session: string, msg: string, part: string, words: string, at: number): Array<[string, unknown[]]> {
  return [
    ["INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?)", [msg, session, at, at, JSON.stringify(asstMsg("msg_1"))]],
    ["INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?,?)", [part, msg, session, at, at, JSON.stringify(text(words))]],
  ];
}

/**
 * How the explorer keeps an OpenCode session open (without VS Code): the panel's watcher is
 * given `<db>#<id>`, which is no file; it watches the database and its -wal instead, and the
 * session is read again when its own rows change, not on a write to another session's.
 */
describe("OpenCode live refresh: the database and its -wal are watched, the session's rows decide", function () {
  let dir = "";
  let writer: Writer | undefined;
  before(function () {
    if (!hasPython()) throw new Error("these tests need python3 with its sqlite3 module (the writer process)");
  });
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "ase-oc-watch-"))));
  afterEach(async () => {
    await writer?.close();
    writer = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("the files behind an address: a database session's are the database and its -wal; a session file is itself", () => {
    const db = join(dir, "opencode.db");
    assert.deepEqual(storeFilesOf(`${db}#ses_a`), [db, `${db}-wal`]);
    assert.deepEqual(storeFilesOf(join(dir, "s.jsonl")), [join(dir, "s.jsonl")]);
  });

  it("a row committed to the -wal for another session is looked at and left; one for this session is read, with no warning", async () => {
    const db = join(dir, "opencode.db");
    await new OcDb()
      .session({ id: "ses_a" })
      .session({ id: "ses_b" })
      .message("ses_a", "msg_1", userMsg("q"), [["prt_1", text("the first question")]])
      .message("ses_b", "msg_2", userMsg("q"), [["prt_2", text("another session")]])
      .write(db);
    const sent: HostToWebview[] = [];
    const logs: string[] = [];
    const host: LifecycleHost = {
      withProgress: (_title, work) => work(() => undefined),
      send: (m) => sent.push(m),
      log: { info: (m) => logs.push(`info: ${m}`), warn: (m) => logs.push(`warn: ${m}`), error: (m) => logs.push(`error: ${m}`) },
      explorer: { trusted: () => true },
    };
    const address = `${db}#ses_a`;
    const life = new SessionLifecycle(address, host);
    const watch = watchSession(address, () => void life.fileChanged(), 100);
    try {
      await life.whenLoaded();
      await life.ready();
      assert.equal(life.session?.metas.length, 1, logs.join("\n"));
      const shown = life.session;
      writer = await startWriter(db);
      await writer.send({ op: "sql", sql: insertMessage("ses_b", "msg_8", "prt_8", "not this session's", 1_765_000_000_000) });
      // The refresh has looked at the store once the session's stamp is the store's (the -wal holds the commit now).
      const looked = () => life.session === shown && shown?.stamp.size === sizes(db);
      await until("the refresh to look at the other session's row", looked);
      assert.equal(life.stats.reloads, 0, "another session's row does not reload this one");
      await writer.send({ op: "sql", sql: insertMessage("ses_a", "msg_9", "prt_9", "a reply written while the explorer was open", 1_765_000_001_000) });
      await until("the new row in the explorer", () => (life.session?.metas.length ?? 0) === 2);
      assert.equal(life.session?.metas[1].preview, "a reply written while the explorer was open");
      assert.equal(life.stats.reloads, 1);
      assert.deepEqual(
        sent.filter((m) => m.type === "notice"),
        [],
        "a session read again because OpenCode wrote its rows is no warning",
      );
      assert.equal(sent.filter((m) => m.type === "init").length, 2, "the webview is sent the session read again");
    } finally {
      watch.dispose();
      life.dispose();
    }
  });
});

/** The database's and its -wal's sizes together (what a session's stamp adds up). */
function sizes(db: string): number {
  return [db, `${db}-wal`].reduce((n, f) => n + (statSync(f, { throwIfNoEntry: false })?.size ?? 0), 0);
}
