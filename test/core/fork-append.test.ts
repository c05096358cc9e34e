import { strict as assert } from "node:assert";
import { appendFileSync, copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { appendEntry } from "../../src/core/formats/pi/store/append";
import { forkSession } from "../../src/core/formats/pi/store/fork";
import { Session } from "../../src/core/formats/pi/pi-session";
import { fixture, needFixtures } from "../helpers/fixtures";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";

function branchy(dir?: string): string {
  return writeSession(
    [
      header(),
      user("00000001", null, "q"),
      assistant("00000002", "00000001", "a"),
      entry("label", "00000003", "00000002", { targetId: "00000001", label: "start" }),
      user("00000004", "00000003", "left"),
      entry("label", "00000005", "00000004", { targetId: "00000006", label: "other side" }),
      user("00000006", "00000002", "right"),
      entry("label", "00000007", "00000006", { targetId: "00000002", label: "answer" }),
    ],
    { dir },
  );
}

describe("fork", () => {
  it("writes a v3 file with the path root..X, labels re-created, same context as X", async () => {
    const dir = tempDir();
    const src = branchy(dir);
    const before = readFileSync(src);
    const s = await Session.load(src);
    const res = forkSession(s, "00000004");
    assert.ok(readFileSync(src).equals(before), "source file unchanged");
    assert.match(res.path, /\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith(".tmp") || f.startsWith(".")), [], "no temp file left");
    const lines = readFileSync(res.path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines[0].type, "session");
    assert.equal(lines[0].version, 3);
    assert.equal(lines[0].cwd, "/home/ana/proj");
    assert.equal(lines[0].parentSession, src);
    assert.equal(lines[0].id, res.sessionId);
    // Path without its label entry, then fresh labels for path targets only.
    assert.deepEqual(lines.slice(1, 4).map((e) => e.id), ["00000001", "00000002", "00000004"]);
    const labels = lines.slice(4);
    assert.deepEqual(labels.map((l) => [l.type, l.targetId, l.label]), [
      ["label", "00000001", "start"],
      ["label", "00000002", "answer"],
    ]);
    assert.equal(labels[0].parentId, "00000004");
    assert.equal(labels[1].parentId, labels[0].id);
    const forked = await Session.load(res.path);
    assert.deepEqual(buildContext(forked).parts.map((p) => p.llm), buildContext(s, "00000004").parts.map((p) => p.llm));
    assert.deepEqual([...forked.tree.labels], [["00000001", "start"], ["00000002", "answer"]]);
  });

  it("forks a real v1 session at a deep entry into v3 with the in-memory ids", async function () {
    needFixtures(this);
    const dir = tempDir();
    const src = join(dir, "src.jsonl");
    copyFileSync(fixture("before-compaction.jsonl"), src);
    const before = readFileSync(src);
    const s = await Session.load(src);
    const at = s.metas[800].id;
    const res = forkSession(s, at);
    assert.ok(readFileSync(src).equals(before));
    const forked = await Session.load(res.path);
    assert.equal(forked.version, 3);
    assert.deepEqual(forked.metas.map((m) => m.id), s.tree.path(800).map((i) => s.metas[i].id));
    assert.deepEqual(buildContext(forked).parts.map((p) => p.llm), buildContext(s, at).parts.map((p) => p.llm));
    assert.equal(forked.problems.length, 0);
  });

  it("refuses an unknown entry and writes nothing", async () => {
    const dir = tempDir();
    const s = await Session.load(branchy(dir));
    assert.throws(() => forkSession(s, "nope"), /no entry with id nope/);
    assert.equal(readdirSync(dir).length, 1);
  });
});

describe("append", () => {
  it("appends one whole line that reads back as a child of the given parent", async () => {
    const file = branchy();
    const before = readFileSync(file);
    const s = await Session.load(file);
    const e = await appendEntry(s, { type: "label", parentId: "00000007", targetId: "00000004", label: "here" });
    const after = readFileSync(file);
    assert.ok(after.subarray(0, before.length).equals(before), "old bytes untouched");
    const added = after.subarray(before.length).toString("utf8");
    assert.equal(added.split("\n").length, 2);
    assert.ok(added.endsWith("\n"));
    assert.deepEqual(JSON.parse(added), e);
    assert.match(e.id, /^[0-9a-f]{8}$/);
    assert.equal(s.tree.labels.get("00000004"), "here");
  });

  it("refuses when the file changed since it was loaded, and writes nothing", async () => {
    const file = branchy();
    const s = await Session.load(file);
    appendFileSync(file, `${JSON.stringify(user("00000099", "00000007", "agent wrote this"))}\n`);
    const before = readFileSync(file);
    await assert.rejects(appendEntry(s, { type: "label", parentId: null, targetId: "00000001", label: "x" }), /changed on disk/);
    assert.ok(readFileSync(file).equals(before));
    await s.refresh();
    await appendEntry(s, { type: "label", parentId: "00000099", targetId: "00000001", label: "x" });
    assert.equal(s.metas.length, 9);
  });

  it("refuses v1 and v2 files with a message to fork first", async () => {
    for (const version of [1, 2]) {
      const file = writeSession([header({ version: version === 1 ? undefined : 2 }), user("00000001", null, "q")]);
      const before = readFileSync(file);
      const s = await Session.load(file);
      await assert.rejects(appendEntry(s, { type: "label", parentId: null, targetId: s.metas[0].id, label: "x" }), /Fork it to a new version 3 file first/);
      assert.ok(readFileSync(file).equals(before));
    }
  });

  it("after a torn last line, starts its own line so the entry stays whole", async () => {
    const file = writeSession([header(), user("00000001", null, "q"), '{"type":"mess'], { trailingNewline: false });
    const s = await Session.load(file);
    const e = await appendEntry(s, { type: "label", parentId: "00000001", targetId: "00000001", label: "ok" });
    const lines = readFileSync(file, "utf8").split("\n");
    assert.equal(lines[2], '{"type":"mess');
    assert.deepEqual(JSON.parse(lines[3]), e);
    const again = await Session.load(file);
    assert.equal(again.tree.labels.get("00000001"), "ok");
  });
});

describe("live tail (refresh)", () => {
  it("indexes appended lines from the last offset, and a completed torn line", async () => {
    const file = writeSession([header(), user("00000001", null, "q")]);
    const s = await Session.load(file);
    const line = JSON.stringify(assistant("00000002", "00000001", "a"));
    appendFileSync(file, line.slice(0, 20));
    assert.deepEqual(await s.refresh(), { added: 0 });
    assert.equal(s.problems.filter((p) => p.kind === "torn-line").length, 1);
    appendFileSync(file, `${line.slice(20)}\n`);
    assert.deepEqual(await s.refresh(), { added: 1 });
    assert.equal(s.problems.length, 0);
    assert.equal(buildContext(s).parts.length, 2);
  });

  it("a rewritten file is detected instead of read at stale offsets", async () => {
    const file = writeSession([header(), user("00000001", null, "q"), user("00000002", "00000001", "r")]);
    const s = await Session.load(file);
    writeFileSync(file, `${[header(), user("0000000a", null, "completely different and longer"), user("0000000b", "0000000a", "x"), user("0000000c", "0000000b", "y")].map((l) => JSON.stringify(l)).join("\n")}\n`);
    await assert.rejects(s.refresh(), /changed on disk/);
  });
});
