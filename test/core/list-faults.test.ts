import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listSessions } from "../../src/core/formats/pi/list";
import { Session } from "../../src/core/formats/pi/pi-session";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

/** Fails instead of hanging: a listing that blocks on a FIFO never settles. */
function within<T>(ms: number, p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish in ${ms} ms`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

describe("ase list on odd files", () => {
  it("a FIFO named *.jsonl (in the root or a project folder) does not hang the listing", async function () {
    this.timeout(60_000);
    const root = tempDir();
    const proj = join(root, projectDirName("/home/ana/p"));
    mkdirSync(proj);
    const good = writeSession([header({ cwd: "/home/ana/p" }), user("00000001", null, "hello")], { dir: proj, name: "good.jsonl" });
    execFileSync("mkfifo", [join(proj, "pipe.jsonl")]);
    execFileSync("mkfifo", [join(root, "top.jsonl")]);
    // A link to a FIFO passes the directory entry check; the stat catches it.
    symlinkSync(join(proj, "pipe.jsonl"), join(proj, "link-to-pipe.jsonl"));
    const res = await within(20_000, listSessions(root), "listing");
    assert.deepEqual(res.projects.flatMap((p) => p.sessions.map((s) => s.path)), [good]);
    assert.deepEqual(res.skipped, [{ path: join(proj, "link-to-pipe.jsonl"), reason: "not a regular file" }]);
  });

  it("a `null` line, junk and a torn line: the session is listed, only real entries are counted (as the loader counts them)", async () => {
    const root = tempDir();
    const file = writeSession(
      [
        header({ cwd: "/p" }),
        "null",
        user("00000001", null, "the first question"),
        "not json at all",
        "[1,2]",
        "   ",
        assistant("00000002", "00000001", "an answer"),
        '{"type":"message","id":"00000003","parentId":"00000002","message":{"role":"user","con',
      ],
      { dir: root, name: "s.jsonl", trailingNewline: false },
    );
    const res = await listSessions(root);
    assert.deepEqual(res.skipped, []);
    const [s] = res.projects[0].sessions;
    assert.equal(s.path, file);
    assert.equal(s.firstMessage, "the first question");
    assert.equal(s.entryCount, 2);
    const loaded = await Session.load(file);
    assert.equal(loaded.metas.length, s.entryCount, "the same count as a load");
  });

  it("a `null` line before the header does not make the file 'not a session'", async () => {
    const root = tempDir();
    writeSession(["null", header({ cwd: "/p" }), user("00000001", null, "q")], { dir: root, name: "s.jsonl" });
    const res = await listSessions(root);
    assert.deepEqual(res.skipped, []);
    assert.equal(res.projects[0].sessions[0].entryCount, 1);
  });

  it("a cache written by an earlier version (every non-blank line counted; no agent named) is not trusted", async () => {
    const root = tempDir();
    const file = writeSession([header({ cwd: "/p" }), user("00000001", null, "q"), "garbage"], { dir: root, name: "s.jsonl" });
    const cacheFile = join(tempDir(), "c.json");
    await listSessions(root, { cacheFile });
    const cache = JSON.parse(readFileSync(cacheFile, "utf8")) as { version: number; records: Record<string, { entryCount: number; lines: number }> };
    assert.equal(cache.version, 5);
    // The same record as version 1 wrote it: 2 entries.
    cache.version = 1;
    cache.records[file].entryCount = 2;
    cache.records[file].lines = 3;
    writeFileSync(cacheFile, JSON.stringify(cache));
    const res = await listSessions(root, { cacheFile });
    assert.equal(res.stats.fromCache, 0);
    assert.equal(res.projects[0].sessions[0].entryCount, 1);
  });
});
