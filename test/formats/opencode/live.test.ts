import { strict as assert } from "node:assert";
import { appendFileSync, copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sessionRowsStamp } from "../../../src/core/formats/opencode/db-read";
import { OpencodeSession } from "../../../src/core/formats/opencode/session";
import { openDatabase } from "../../../src/core/formats/opencode/sqlite-db";
import { openSession } from "../../../src/core/formats/registry";
import { RowsChangedError } from "../../../src/core/store/file-stamp";
import { isLiveSession } from "../../../src/explorer/live-session";
import { asstMsg, OcDb, text, userMsg } from "./oc-db";

const FIXTURE = join(process.cwd(), "test", "fixtures", "opencode", "text", "data", "opencode", "opencode.db");
const SESSION = "ses_de8d93e6effepDNUbk4194qWX9";

describe("OpenCode: a session the explorer can keep open", () => {
  let dir = "";
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "ase-oc-live-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is a live session: its size is the store's, a refresh with nothing changed adds nothing", async () => {
    const db = join(dir, "opencode.db");
    copyFileSync(FIXTURE, db);
    const s = await openSession(`${db}#${SESSION}`);
    assert.ok(isLiveSession(s), "size, stamp and refresh, as the explorer needs");
    assert.ok(s.size > 0);
    assert.deepEqual(await s.refresh(), { added: 0 });
    // The rows stamp a load takes from the rows it read is the one SQLite gives of the database (what a refresh compares).
    assert.ok(s instanceof OpencodeSession && s.stored.rowsStamp);
    assert.equal(sessionRowsStamp(await openDatabase(db), SESSION), s.stored.rowsStamp);
  });

  it("a change to its rows makes it stale (read again, a rows change rather than a rewrite); writes that leave its rows as they were do not", async () => {
    const db = join(dir, "opencode.db");
    const store = (extraOf?: string, streamed?: boolean) => {
      const o = new OcDb().session({ id: "ses_a" }).session({ id: "ses_b" }).message("ses_a", "msg_1", userMsg("q"), [["prt_1", text("first question")]]).message("ses_b", "msg_2", userMsg("q"), [["prt_2", text("another session")]]);
      if (extraOf) o.message(extraOf, "msg_9", asstMsg("msg_1"), [["prt_9", text("a new reply")]]);
      // A part rewritten in place as OpenCode streams it: its data and its time_updated.
      if (streamed) o.add("UPDATE part SET data = ?, time_updated = time_updated + 1 WHERE id = 'prt_9'", [JSON.stringify(text("a new reply, streamed on"))]);
      return o.write(db);
    };
    await store();
    const s = await openSession(`${db}#ses_a`);
    assert.ok(isLiveSession(s));
    // Bytes that commit nothing: a -wal without a valid header.
    appendFileSync(`${db}-wal`, Buffer.alloc(32));
    assert.deepEqual(await s.refresh(), { added: 0 });
    // Another session's new message, written in place as a new picture of the database.
    await store("ses_b");
    assert.deepEqual(await s.refresh(), { added: 0 });
    assert.equal(s.stamp.size, statSync(db).size + 32, "the stamp moves on to the store it looked at");
    await store("ses_a");
    await assert.rejects(s.refresh(), (err: Error) => err instanceof RowsChangedError && err.message.includes(`${db}#ses_a`));
    const again = await openSession(`${db}#ses_a`);
    assert.ok(isLiveSession(again));
    await store("ses_a", true);
    await assert.rejects(again.refresh(), RowsChangedError, "a part rewritten in place is a change");
  });
});
