import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listAllSessions } from "../../../src/core/formats/list-all";
import { listOpencode, opencodeDatabases, opencodeRoot } from "../../../src/core/formats/opencode/discover";
import { openSession } from "../../../src/core/formats/registry";
import { tempDir } from "../../helpers/session-builder";
import { asstMsg, OcDb, text, userMsg } from "./oc-db";

function legacy(data: string, project: string, id: string, parentID?: string): void {
  const dir = join(data, "storage");
  mkdirSync(join(dir, "session", project), { recursive: true });
  writeFileSync(join(dir, "session", project, `${id}.json`), JSON.stringify({ id, projectID: project, directory: "/legacy/proj", title: `legacy ${id}`, version: "1.1.0", time: { created: 1_700_000_000_000, updated: 1_700_000_001_000 }, ...(parentID ? { parentID } : {}) }));
  mkdirSync(join(dir, "message", id), { recursive: true });
  writeFileSync(join(dir, "message", id, "msg_l1.json"), JSON.stringify({ id: "msg_l1", sessionID: id, ...userMsg("x"), time: { created: 1 } }));
  mkdirSync(join(dir, "part", "msg_l1"), { recursive: true });
  writeFileSync(join(dir, "part", "msg_l1", "prt_l1.json"), JSON.stringify({ id: "prt_l1", messageID: "msg_l1", sessionID: id, ...text("hello from the old tree") }));
}

describe("OpenCode discovery: data dir, databases, OPENCODE_DB, the legacy tree, sessions once", () => {
  it("the data dir: the setting, else $XDG_DATA_HOME/opencode, else ~/.local/share/opencode", () => {
    assert.equal(opencodeRoot("/x", { XDG_DATA_HOME: "/d" }), "/x");
    assert.equal(opencodeRoot(undefined, { XDG_DATA_HOME: "/d" }), "/d/opencode");
    assert.equal(opencodeRoot(undefined, { HOME: "/home/ana" }), "/home/ana/.local/share/opencode");
  });

  it("databases: OPENCODE_DB (absolute as is, else a name in the data dir) first, then opencode.db and channel databases; :memory: is none", () => {
    const data = tempDir();
    for (const n of ["opencode.db", "opencode-beta2.db", "other.db", "mine.db"]) writeFileSync(join(data, n), "");
    const elsewhere = join(tempDir(), "x.db");
    writeFileSync(elsewhere, "");
    assert.deepEqual(opencodeDatabases(data, {}), [join(data, "opencode-beta2.db"), join(data, "opencode.db")]);
    assert.deepEqual(opencodeDatabases(data, { OPENCODE_DB: "mine.db" })[0], join(data, "mine.db"));
    assert.deepEqual(opencodeDatabases(data, { OPENCODE_DB: elsewhere })[0], elsewhere);
    assert.deepEqual(opencodeDatabases(data, { OPENCODE_DB: ":memory:" }).length, 2);
  });

  it("lists root sessions by directory with their task children under them; a session also in the legacy tree is listed once", async () => {
    const data = tempDir();
    await new OcDb()
      .session({ id: "ses_a", directory: "/w/one", title: "first" })
      .session({ id: "ses_b", directory: "/w/two", title: "second" })
      .session({ id: "ses_c", directory: "/w/one", parentId: "ses_a", title: "child (@general subagent)", agent: "general" })
      .message("ses_a", "msg_1", userMsg("q"), [["prt_1", text("synthetic", { synthetic: true })], ["prt_2", text("what now")]])
      .message("ses_a", "msg_2", asstMsg("msg_1"), [["prt_3", text("answer")]])
      .write(join(data, "opencode.db"));
    legacy(data, "global", "ses_a");
    legacy(data, "global", "ses_old");
    const res = await listOpencode(data, {});
    const all = res.projects.flatMap((p) => p.sessions);
    assert.deepEqual(all.map((s) => s.id).sort(), ["ses_a", "ses_b", "ses_old"]);
    const a = all.find((s) => s.id === "ses_a");
    assert.equal(a?.path, `${join(data, "opencode.db")}#ses_a`);
    assert.equal(a?.firstMessage, "what now");
    assert.equal(a?.entryCount, 2);
    assert.equal(a?.name, "first");
    assert.deepEqual(a?.subagents?.map((c) => [c.agentId, c.path, c.agentType]), [["ses_c", `${join(data, "opencode.db")}#ses_c`, "general"]]);
    assert.deepEqual(res.projects.map((p) => p.cwd).sort(), ["/legacy/proj", "/w/one", "/w/two"]);
    const old = all.find((s) => s.id === "ses_old");
    assert.ok(old?.path.endsWith(join("storage", "session", "global", "ses_old.json")));
    // The legacy session opens from its file, its parts read from storage/part.
    const s = await openSession(old?.path as string);
    assert.equal(s.metas[0].preview, "hello from the old tree");
  });

  it("a legacy session is listed with its messages counted, as a database session's rows are", async () => {
    const data = tempDir();
    legacy(data, "global", "ses_old");
    const msgDir = join(data, "storage", "message", "ses_old");
    writeFileSync(join(msgDir, "msg_l2.json"), JSON.stringify({ id: "msg_l2", sessionID: "ses_old", ...asstMsg("msg_l1"), time: { created: 2 } }));
    // Not a message file: a stray note beside them is not counted.
    writeFileSync(join(msgDir, "notes.txt"), "x");
    const res = await listOpencode(data, {});
    const old = res.projects.flatMap((p) => p.sessions).find((s) => s.id === "ses_old");
    assert.equal(old?.entryCount, 2);
  });

  it("a legacy session is listed with its first prompt: the first user message's first text that is not synthetic", async () => {
    const data = tempDir();
    legacy(data, "global", "ses_old");
    const storage = join(data, "storage");
    // An assistant message named before the user's (ids order by time) and a synthetic part first.
    writeFileSync(join(storage, "message", "ses_old", "msg_l0.json"), JSON.stringify({ id: "msg_l0", sessionID: "ses_old", ...asstMsg("msg_x"), time: { created: 0 } }));
    mkdirSync(join(storage, "part", "msg_l0"), { recursive: true });
    writeFileSync(join(storage, "part", "msg_l0", "prt_a.json"), JSON.stringify({ id: "prt_a", messageID: "msg_l0", sessionID: "ses_old", ...text("not a prompt") }));
    writeFileSync(join(storage, "part", "msg_l1", "prt_l0.json"), JSON.stringify({ id: "prt_l0", messageID: "msg_l1", sessionID: "ses_old", ...text("injected", { synthetic: true }) }));
    // A part file that is not JSON is passed over, not fatal to the listing.
    writeFileSync(join(storage, "part", "msg_l1", "prt_k.json"), "{oops");
    const res = await listOpencode(data, {});
    const old = res.projects.flatMap((p) => p.sessions).find((s) => s.id === "ses_old");
    assert.equal(old?.firstMessage, "hello from the old tree");
    assert.deepEqual(res.skipped, []);
  });

  it("ase's one listing takes OpenCode's root from the dirs like any agent's", async () => {
    const data = tempDir();
    await new OcDb().session({ id: "ses_z", directory: "/w/z" }).write(join(data, "opencode.db"));
    const res = await listAllSessions({ dirs: { opencode: data }, only: ["opencode"] });
    assert.deepEqual(res.roots, [{ agent: "opencode", root: data, sessions: 1 }]);
  });

  it("opencode:<id> resolves through the environment's data dir", async () => {
    const xdg = tempDir();
    mkdirSync(join(xdg, "opencode"));
    await new OcDb().session({ id: "ses_e" }).message("ses_e", "msg_1", userMsg("q"), [["prt_1", text("found by id")]]).write(join(xdg, "opencode", "opencode.db"));
    const saved = process.env.XDG_DATA_HOME;
    process.env.XDG_DATA_HOME = xdg;
    try {
      const s = await openSession("opencode:ses_e");
      assert.equal(s.path, `${join(xdg, "opencode", "opencode.db")}#ses_e`);
      assert.equal(s.metas[0].preview, "found by id");
    } finally {
      if (saved === undefined) delete process.env.XDG_DATA_HOME;
      else process.env.XDG_DATA_HOME = saved;
    }
  });
});
