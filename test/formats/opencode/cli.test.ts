import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../../helpers/session-builder";
import { asstMsg, OcDb, text, userMsg } from "./oc-db";
import { hasPython, startWriter } from "./sqlite-writer";

const CLI = resolve("dist/cli.js");

function ase(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const picture = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((n) => `${n}:${statSync(join(dir, n)).size}:${statSync(join(dir, n)).mtimeMs}`)
    .join("\n");

async function small(db: OcDb = new OcDb()): Promise<string> {
  const path = join(tempDir(), "opencode.db");
  await db
    .session({ id: "ses_1" })
    .message("ses_1", "msg_01", userMsg("a"), [["prt_01", text("hello")]])
    .message("ses_1", "msg_02", asstMsg("msg_01"), [["prt_02", text("hi there")]])
    .write(path);
  return path;
}

describe("ase on OpenCode sessions: context, refusals with the reason, bad input named, nothing written", () => {
  it("`ase context <db>#<id> --format native` prints {messages} in the wire shape", async () => {
    const db = await small();
    const r = ase(["context", `${db}#ses_1`, "--format", "native"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), { messages: [{ role: "user", content: "hello" }, { role: "assistant", content: "hi there" }] });
  });

  it("fork and compact are refused with OpenCode's reason, exit 2, and the folder is untouched", async () => {
    const db = await small();
    const before = picture(join(db, ".."));
    const fork = ase(["fork", `${db}#ses_1`, "--at", "prt_02"]);
    assert.equal(fork.code, 2);
    assert.match(fork.err, /OpenCode keeps its sessions in its database; fork from OpenCode itself/);
    assert.match(fork.err, /an OpenCode session/);
    assert.doesNotMatch(fork.err, /\ba OpenCode/);
    const compact = ase(["compact", `${db}#ses_1`]);
    assert.equal(compact.code, 2);
    assert.match(compact.err, /OpenCode keeps its sessions in its database/);
    assert.equal(picture(join(db, "..")), before);
  });

  it("a corrupt database: exit 2, one line naming the database and the session, no stack", () => {
    const db = join(tempDir(), "opencode.db");
    writeFileSync(db, Buffer.alloc(8192, 7));
    const r = ase(["context", `${db}#ses_1`, "--format", "native"]);
    assert.equal(r.code, 2);
    assert.ok(r.err.includes(`${db}#ses_1`), r.err);
    assert.match(r.err, /not a readable SQLite database/);
    assert.doesNotMatch(r.err, /\n\s+at /);
  });

  it("a part whose JSON does not parse and a part of an unknown type: the session opens, the problem names the part", async () => {
    const db = await small(new OcDb().message("ses_1", "msg_03", userMsg("b"), [["prt_03", { type: "hologram", beam: 1 }]]).add("INSERT INTO part VALUES ('prt_04','msg_03','ses_1',1,1,'{not json')", []));
    const r = ase(["tree", `${db}#ses_1`, "--all"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /part prt_04: its JSON does not parse/);
    assert.match(r.out, /hologram/);
  });

  it("no such session / no such database: exit 2 naming them", async () => {
    const db = await small();
    assert.match(ase(["tree", `${db}#ses_nope`]).err, new RegExp(`${db}: no session ses_nope in this database`));
    assert.match(ase(["tree", `${db}x#ses_1`]).err, /no such database \(session ses_1\)/);
  });

  it("a database locked by a writer's open transaction: read as last committed, nothing waited on or written", async function () {
    if (!hasPython()) throw new Error("needs python3 with sqlite3 (the writer process)");
    const db = await small();
    const w = await startWriter(db);
    try {
      await w.send({ op: "hold", sql: [["INSERT INTO message VALUES ('msg_09','ses_1',9e12,9e12,'{\"role\":\"user\"}')", []]] });
      const dir = join(db, "..");
      const before = picture(dir);
      const started = Date.now();
      const r = ase(["context", `${db}#ses_1`, "--format", "native"]);
      assert.equal(r.code, 0, r.err);
      assert.equal(JSON.parse(r.out).messages.length, 2, "the uncommitted message is not seen");
      assert.ok(Date.now() - started < 60_000);
      assert.equal(picture(dir), before, "the reader wrote nothing (no -shm of its own)");
    } finally {
      await w.close();
    }
  });
});
