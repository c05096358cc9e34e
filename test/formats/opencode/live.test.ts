import { strict as assert } from "node:assert";
import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSession } from "../../../src/core/formats/registry";
import { StaleSessionError } from "../../../src/core/store/file-stamp";
import { isLiveSession } from "../../../src/explorer/live-session";

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
  });

  it("a write to the database or a new -wal makes it stale (the explorer reads it again)", async () => {
    const db = join(dir, "opencode.db");
    copyFileSync(FIXTURE, db);
    const s = await openSession(`${db}#${SESSION}`);
    assert.ok(isLiveSession(s));
    appendFileSync(`${db}-wal`, Buffer.alloc(32));
    await assert.rejects(s.refresh(), StaleSessionError);
  });
});
