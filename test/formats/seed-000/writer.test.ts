import { strict as assert } from "node:assert";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { seed000Format } from "../../../src/core/formats/seed-000/format";
import type { Seed000Line } from "../../../src/core/formats/seed-000/line";
import { appendSeed000Entries, appendSeed000Lines, forkSeed000, SEED000_CAPABILITIES } from "../../../src/core/formats/seed-000/writer";
import type { FileStamp } from "../../../src/core/session/session-reader";
import { type JsonlSession, StaleSessionError } from "../../../src/core/session/jsonl-session";
import { lockPathFor, SessionBusyError } from "../../../src/core/store/session-lock";
import { NothingWrittenError } from "../../../src/core/store/append-line";
import { withFaults } from "../../helpers/faulty-fs";
import { assistant, load, OWN_FIXTURES, user } from "./helpers";

function stampOf(path: string): FileStamp {
  const st = statSync(path);
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
}

describe("seed-000 writer", () => {
  let dir: string;
  let src: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ase-seed000-"));
    src = join(dir, "branchy.jsonl");
    copyFileSync(join(OWN_FIXTURES, "branchy.jsonl"), src);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("offers fork only, and says why not the rest", () => {
    assert.equal(seed000Format.writer?.capabilities, SEED000_CAPABILITIES);
    assert.deepEqual([SEED000_CAPABILITIES.fork, SEED000_CAPABILITIES.label, SEED000_CAPABILITIES.compact], [true, false, false]);
    assert.match(SEED000_CAPABILITIES.why ?? "", /write nothing/);
  });

  describe("fork", () => {
    for (const leaf of ["a2", "r3b", "a3", "c3"]) {
      it(`at ${leaf}: a new file beside the source with root..${leaf}; same context; the source byte for byte as it was`, async () => {
        const before = readFileSync(src);
        const session = await load(src);
        const at = session.requireIndex(leaf);
        const out = seed000Format.writer?.fork(session, leaf, { now: new Date(0) });
        assert.ok(out);
        assert.equal(dirname(out.path), dir);
        assert.match(basename(out.path), /^branchy-fork-[0-9a-f]{8}\.jsonl$/);
        assert.equal(out.sessionId, basename(out.path, ".jsonl"));
        const path = session.tree.path(at);
        assert.equal(out.entryCount, path.length);
        assert.deepEqual(readFileSync(src), before);
        const fork = await load(out.path);
        assert.equal(fork.problemCount, 0);
        assert.deepEqual(fork.metas.map((m) => m.id), path.map((i) => session.metas[i].id));
        assert.equal(fork.metas[seed000Format.defaultLeaf(fork)].id, leaf, "the fork resumes where it was made");
        assert.deepEqual(seed000Format.context(fork, seed000Format.defaultLeaf(fork)), seed000Format.context(session, at));
        assert.deepEqual(seed000Format.info(fork), { id: out.sessionId, cwd: "/work/lexer-demo" });
        // Each line is the record as read (the fixture is written compactly, so byte for byte).
        const srcLines = before.toString("utf8").split("\n");
        const forkLines = readFileSync(out.path, "utf8").split("\n");
        assert.equal(forkLines.pop(), "", "ends in a newline");
        assert.deepEqual(forkLines, path.map((i) => srcLines[session.metas[i].line - 1]));
        assert.deepEqual(readdirSync(dir).sort(), [basename(out.path), "branchy.jsonl"].sort(), "no temp file left");
      });
    }

    it("into another directory; two forks of one entry are two files", async () => {
      const other = mkdtempSync(join(tmpdir(), "ase-seed000-out-"));
      try {
        const session = await load(src);
        const a = forkSeed000(session, "a1", { dir: other });
        const b = forkSeed000(session, "a1", { dir: other });
        assert.notEqual(a.path, b.path);
        assert.equal(dirname(a.path), other);
        assert.deepEqual(readFileSync(a.path), readFileSync(b.path));
        assert.equal(a.entryCount, 4);
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    it("an unknown entry id is an error naming the file, and nothing is written", async () => {
      const session = await load(src);
      assert.throws(() => forkSeed000(session, "nope"), new RegExp(`${src.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: no entry with id nope`));
      assert.deepEqual(readdirSync(dir), ["branchy.jsonl"]);
    });
  });

  describe("append", () => {
    const next = (): Seed000Line => user("u9", "a3", "And the parser?");

    it("appends whole lines that read back as entries", async () => {
      const before = readFileSync(src);
      appendSeed000Lines(src, stampOf(src), [next(), assistant("a9", "u9", "Next time.")]);
      const after = readFileSync(src);
      assert.deepEqual(after.subarray(0, before.length), before);
      const s = await load(src);
      assert.deepEqual(s.metas.slice(-2).map((m) => m.id), ["u9", "a9"]);
      assert.deepEqual(seed000Format.context(s, seed000Format.defaultLeaf(s)).messages.map((m) => m.entryId).slice(-4), ["r3", "a3", "u9", "a9"]);
    });

    it("a file whose last line lacks its newline gets one first: no line is joined", async () => {
      writeFileSync(src, readFileSync(src, "utf8").trimEnd());
      appendSeed000Lines(src, stampOf(src), [next()]);
      const s = await load(src);
      assert.equal(s.problemCount, 0);
      assert.deepEqual(s.metas.slice(-2).map((m) => m.id), ["a3", "u9"]);
    });

    it("refuses when the file changed since it was read, and writes nothing", () => {
      const stamp = stampOf(src);
      writeFileSync(src, `${readFileSync(src, "utf8")}${JSON.stringify(assistant("x1", "a3", "agent wrote"))}\n`);
      const before = readFileSync(src);
      assert.throws(() => appendSeed000Lines(src, stamp, [next()]), (err: unknown) => err instanceof StaleSessionError && /changed on disk/.test(err.message));
      assert.deepEqual(readFileSync(src), before);
    });

    it("refuses a bad line before touching the file, naming which one and what is wrong", () => {
      const before = readFileSync(src);
      const bad = { ...next(), type: "system" } as unknown as Seed000Line;
      assert.throws(() => appendSeed000Lines(src, stampOf(src), [next(), bad]), /nothing written: .*branchy\.jsonl: new line 2 of 2: entry u9: type is not one of/);
      assert.deepEqual(readFileSync(src), before);
    });

    it("to a loaded session: new ids only, known parents (or earlier new lines), then read in", async () => {
      const s = (await load(src)) as JsonlSession;
      const before = readFileSync(src);
      const bad: Array<[Seed000Line[], RegExp]> = [
        [[user("a3", "a2", "dup")], /new line 1 of 1: id a3 is already used/],
        [[user("n1", "a3", "x"), user("n1", "n1", "y")], /new line 2 of 2: id n1 is already used/],
        [[user("n1", "ghost", "x")], /new line 1 of 1: parent ghost is not an entry of the session/],
        [[{ ...user("n1", "a3", "x"), content: 5 } as unknown as Seed000Line], /new line 1 of 1: entry n1: content is a number/],
      ];
      for (const [lines, re] of bad) await assert.rejects(appendSeed000Entries(s, lines), re);
      assert.deepEqual(readFileSync(src), before);
      await appendSeed000Entries(s, [user("n1", "a3", "more"), assistant("n2", "n1", "ok")]);
      assert.deepEqual(s.metas.slice(-2).map((m) => [m.id, m.line]), [["n1", 14], ["n2", 15]]);
      assert.deepEqual(seed000Format.context(s, seed000Format.defaultLeaf(s)).messages.map((m) => m.entryId).slice(-3), ["a3", "n1", "n2"]);
      writeFileSync(src, `${readFileSync(src, "utf8")}${JSON.stringify(user("x9", "n2", "the agent wrote"))}\n`);
      await assert.rejects(appendSeed000Entries(s, [user("n3", "n2", "late")]), /changed on disk/);
    });

    it("a full disk mid-line: cut back to the bytes as loaded, the session still writable after", async () => {
      const s = (await load(src)) as JsonlSession;
      const before = readFileSync(src);
      await withFaults({ match: (p) => p === src, writeLimit: 10 }, async () => {
        await assert.rejects(appendSeed000Entries(s, [user("n1", "a3", "a line longer than ten bytes")]), (err: unknown) => err instanceof NothingWrittenError && /back to its \d+ bytes/.test(err.message));
      });
      assert.deepEqual(readFileSync(src), before);
      await appendSeed000Entries(s, [user("n1", "a3", "once there is room")]);
      assert.equal(s.metas.at(-1)?.id, "n1");
    });

    it("a session locked by another writer is refused at once, unchanged", () => {
      const before = readFileSync(src);
      writeFileSync(lockPathFor(src), JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now() }));
      assert.throws(() => appendSeed000Lines(src, stampOf(src), [next()]), SessionBusyError);
      assert.deepEqual(readFileSync(src), before);
    });
  });
});
