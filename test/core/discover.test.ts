import { strict as assert } from "node:assert";
import { appendFileSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listSessions } from "../../src/core/formats/pi/list";
import { projectDirName, resolveSessionsDir } from "../../src/core/formats/pi/sessions-dir";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";

function setMtime(file: string, secondsAgo: number): void {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, t, t);
}

describe("session discovery", () => {
  it("resolves the sessions dir: explicit, then PI_CODING_AGENT_DIR, then ~/.pi/agent/sessions", () => {
    assert.equal(resolveSessionsDir("/x", { PI_CODING_AGENT_DIR: "/y" }), "/x");
    assert.equal(resolveSessionsDir(undefined, { PI_CODING_AGENT_DIR: "/y" }), "/y/sessions");
    assert.match(resolveSessionsDir(undefined, {}), /\.pi\/agent\/sessions$/);
    assert.equal(projectDirName("/home/ana/proj"), "--home-ana-proj--");
    assert.equal(projectDirName("C:\\work\\x"), "--C--work-x--");
  });

  it("groups by cwd, newest first, with name or first user message, entry count and size", async () => {
    const root = tempDir();
    const a = join(root, projectDirName("/home/ana/a"));
    const b = join(root, projectDirName("/home/ana/b"));
    mkdirSync(a);
    mkdirSync(b);
    const a1 = writeSession([header({ cwd: "/home/ana/a" }), user("00000001", null, "first   question\nhere"), assistant("00000002", "00000001", "x")], { dir: a, name: "a1.jsonl" });
    const a2 = writeSession([header({ cwd: "/home/ana/a" }), user("00000001", null, "q"), entry("session_info", "00000002", "00000001", { name: "Named one" })], { dir: a, name: "a2.jsonl" });
    const b1 = writeSession([header({ cwd: "/home/ana/b", parentSession: a1 }), user("00000001", null, "b question")], { dir: b, name: "b1.jsonl" });
    writeFileSync(join(b, "notes.jsonl"), "not a session\n");
    writeFileSync(join(b, "readme.txt"), "ignored");
    setMtime(a1, 300);
    setMtime(a2, 100);
    setMtime(b1, 10);
    const res = await listSessions(root);
    assert.deepEqual(res.projects.map((p) => p.cwd), ["/home/ana/b", "/home/ana/a"]);
    assert.deepEqual(res.projects[1].sessions.map((s) => s.path), [a2, a1]);
    const [s2, s1] = res.projects[1].sessions;
    assert.equal(s2.name, "Named one");
    assert.equal(s1.firstMessage, "first question here");
    assert.equal(s1.entryCount, 2);
    assert.equal(res.projects[0].sessions[0].parentSession, a1);
    assert.equal(res.skipped.length, 1);
    assert.match(res.skipped[0].reason, /not a pi session: no JSON line/);
  });

  it("a warm listing comes from the cache; a grown file is scanned only from where it stopped", async () => {
    const root = tempDir();
    const dir = join(root, projectDirName("/p"));
    mkdirSync(dir);
    const cacheFile = join(root, "cache", "list.json");
    const files = Array.from({ length: 20 }, (_, k) => writeSession([header({ cwd: "/p" }), user("00000001", null, `q${k}`)], { dir, name: `s${k}.jsonl` }));
    const cold = await listSessions(root, { cacheFile });
    assert.equal(cold.stats.fromCache, 0);
    const warm = await listSessions(root, { cacheFile });
    assert.equal(warm.stats.fromCache, 20);
    assert.equal(warm.stats.scannedBytes, 0);
    const grownBy = `${JSON.stringify(entry("session_info", "00000002", "00000001", { name: "renamed" }))}\n`;
    appendFileSync(files[3], grownBy);
    const after = await listSessions(root, { cacheFile });
    assert.equal(after.stats.fromCache, 19);
    assert.equal(after.stats.scannedBytes, Buffer.byteLength(grownBy));
    const s3 = after.projects[0].sessions.find((s) => s.path === files[3]);
    assert.equal(s3?.name, "renamed");
    assert.equal(s3?.entryCount, 2);
  });

  it("does not count an unterminated (torn) last line as an entry; rescans it once finished", async () => {
    const root = tempDir();
    const cacheFile = join(root, "c.json");
    const file = writeSession([header({ cwd: "/p" }), user("00000001", null, "q"), '{"type":"session_info","id":"00000002","parentId":"00000001","timestamp":"x","name":"half'], { dir: root, name: "s.jsonl", trailingNewline: false });
    const first = await listSessions(root, { cacheFile });
    assert.equal(first.projects[0].sessions[0].entryCount, 1);
    assert.equal(first.projects[0].sessions[0].name, undefined);
    appendFileSync(file, ' done"}\n');
    const second = await listSessions(root, { cacheFile });
    assert.equal(second.projects[0].sessions[0].entryCount, 2);
    assert.equal(second.projects[0].sessions[0].name, "half done");
  });

  it("a missing sessions dir lists nothing instead of failing", async () => {
    const res = await listSessions(join(tempDir(), "nope"));
    assert.deepEqual(res.projects, []);
  });
});
