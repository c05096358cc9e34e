import { strict as assert } from "node:assert";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { geminiRoot } from "../../../src/core/formats/gemini-cli/discover";
import { projectHash } from "../../../src/core/formats/gemini-cli/store-files";
import { listAllSessions } from "../../../src/core/formats/list-all";
import { tempDir } from "../../helpers/session-builder";
import { contextMsg, geminiMsg, lines, meta, SESSION_ID, store, userMsg } from "./helpers";

const list = (home: string) => listAllSessions({ dirs: { "gemini-cli": home }, only: ["gemini-cli"], env: {} });

describe("Gemini CLI discovery: $GEMINI_CLI_HOME/.gemini/tmp/<project>/chats, one session per id, stubs hidden", () => {
  it("the home is the explicit folder, else $GEMINI_CLI_HOME, else the home directory", () => {
    assert.equal(geminiRoot("/x", { GEMINI_CLI_HOME: "/y" }), "/x");
    assert.equal(geminiRoot(undefined, { GEMINI_CLI_HOME: "/y", HOME: "/h" }), "/y");
    assert.equal(geminiRoot(undefined, { HOME: "/h" }), "/h");
  });

  it("lists the newest file of a session id, hides its stub and the sub-agent transcripts, groups under the real project root, names it by its summary", async () => {
    const home = tempDir();
    const root = "/work/some project";
    const chats = store(home, root);
    const older = join(chats, "session-2026-11-26T06-00-0a1b2c3d.jsonl");
    writeFileSync(older, lines([meta(root), userMsg("u1", "first question"), geminiMsg("g1", "an answer")]));
    // The same session resumed into a new file later (a legacy .json continued as .jsonl does this).
    const newer = join(chats, "session-2026-11-26T06-05-0a1b2c3d.jsonl");
    writeFileSync(newer, lines([meta(root, { lastUpdated: "2026-11-26T06:05:00.000Z" }), { $set: { messages: [contextMsg(), userMsg("u1", "first question"), geminiMsg("g1", "an answer")] } }, userMsg("u2", "second"), { $set: { summary: "A named session", lastUpdated: "2026-11-26T06:06:00.000Z" } }]));
    // A stub: a start's metadata and the session context alone.
    const stub = join(chats, "session-2026-11-26T06-09-0a1b2c3d.jsonl");
    writeFileSync(stub, lines([meta(root, { lastUpdated: "2026-11-26T06:09:00.000Z" }), { $set: { messages: [contextMsg()] } }]));
    // A sub-agent transcript in chats/<parent>/: not a session of its own, listed under it.
    mkdirSync(join(chats, SESSION_ID));
    writeFileSync(join(chats, SESSION_ID, "agent-1.jsonl"), lines([{ ...meta(root), sessionId: "agent-1", kind: "subagent" }, userMsg("s1", "sub task")]));
    // The older file's mtime is the newest: lastUpdated decides, not the clock of the copy.
    const t = Date.now() / 1000 + 100;
    utimesSync(older, t, t);
    const res = await list(home);
    const all = res.projects.flatMap((p) => p.sessions);
    assert.deepEqual(all.map((s) => s.path), [newer]);
    assert.equal(res.projects[0].cwd, root);
    assert.equal(all[0].id, SESSION_ID);
    assert.equal(all[0].name, "A named session");
    assert.equal(all[0].firstMessage, "first question");
    assert.deepEqual(all[0].subagents?.map((a) => a.agentId), ["agent-1"]);
  });

  it("large files are read at their edges only: the newest of an id is still found when a long checkpoint ends it; a stub with a long directory listing is still hidden", async () => {
    const home = tempDir();
    const root = "/work/big";
    const chats = store(home, root);
    const filler = "x".repeat(3000);
    const turns = Array.from({ length: 20 }, (_, k) => [userMsg(`u${k}`, `question ${k} ${filler}`), geminiMsg(`g${k}`, `answer ${k}`)]).flat();
    const older = join(chats, "session-2026-11-26T06-00-0a1b2c3d.jsonl");
    writeFileSync(older, lines([meta(root), ...turns, { $set: { lastUpdated: "2026-11-26T06:30:00.000Z" } }]));
    // Resumed later into a new file that ends with a checkpoint far longer than 4 KiB.
    const newer = join(chats, "session-2026-11-26T07-00-0a1b2c3d.jsonl");
    writeFileSync(newer, lines([meta(root, { lastUpdated: "2026-11-26T07:00:00.000Z" }), { $set: { lastUpdated: "2026-11-26T07:00:01.000Z" } }, { $set: { messages: [contextMsg(), ...turns] } }]));
    // A stub whose session context lists many files: over 4 KiB, still nothing to resume.
    const listing = Array.from({ length: 200 }, (_, k) => `  ├───src/some/deeper/folder/file-number-${k}.ts`).join("\n");
    const stub = join(chats, "session-2026-11-26T07-05-0a1b2c3d.jsonl");
    writeFileSync(stub, lines([meta(root, { lastUpdated: "2026-11-26T07:05:00.000Z" }), { $set: { messages: [userMsg("d04923d38bb0f6017037e74183378ef4", `<session_context>\n${listing}\n</session_context>`)] } }]));
    // The older file's mtime is the newest: lastUpdated decides.
    const t = Date.now() / 1000 + 100;
    utimesSync(older, t, t);
    const res = await list(home);
    assert.deepEqual(res.projects.flatMap((p) => p.sessions).map((s) => s.path), [newer]);
  });

  it("reads an older sha256-named project folder (no .project_root) and a legacy .json session, and accepts the .gemini folder itself as the root", async () => {
    const home = tempDir();
    const root = "/old/project";
    const dir = join(home, ".gemini", "tmp", projectHash(root), "chats");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(home, ".gemini", "projects.json"), JSON.stringify({ projects: { [root]: "project" } }));
    const legacy = join(dir, "session-2026-01-02T03-04-0a1b2c3d.json");
    writeFileSync(legacy, JSON.stringify({ ...meta(root), messages: [userMsg("u1", "an old prompt"), geminiMsg("g1", "old answer")] }, null, 2));
    for (const r of [home, join(home, ".gemini")]) {
      const res = await list(r);
      assert.deepEqual(res.skipped, []);
      const all = res.projects.flatMap((p) => p.sessions);
      assert.deepEqual(all.map((s) => s.path), [legacy]);
      assert.equal(all[0].cwd, root);
      assert.equal(all[0].firstMessage, "an old prompt");
      assert.equal(all[0].entryCount, 2);
    }
  });

  it("an unknown project hash without a registry falls back to the session's directories, and junk files are not listed", async () => {
    const home = tempDir();
    const dir = join(home, ".gemini", "tmp", "ffff", "chats");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "session-a-11111111.jsonl"), lines([meta("/nowhere", { sessionId: "11111111-x", projectHash: "ab".repeat(32), directories: ["/from/meta"] }), userMsg("u", "hi")]));
    writeFileSync(join(dir, "session-b-22222222.jsonl"), "not json at all\n");
    const res = await list(home);
    const all = res.projects.flatMap((p) => p.sessions);
    assert.deepEqual(all.map((s) => s.cwd), ["/from/meta"]);
  });
});
