import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { cleanStaleTemps, isOurTempFile, NewFileError, writeNewFile } from "../../src/core/store/atomic-file";
import { listSessions } from "../../src/core/formats/pi/list";
import { forkSession } from "../../src/core/formats/pi/store/fork";
import { Session } from "../../src/core/formats/pi/pi-session";
import { TokenCache } from "../../src/core/tokens/token-cache";
import { withFaults } from "../helpers/faulty-fs";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";
import { formatOf, openSession } from "../../src/core/formats/registry";
import * as cc from "../formats/claude-code/lines";
import * as clawd from "../formats/clawdcode/lines";
import * as seed from "../formats/seed-000/helpers";

function small(dir = tempDir(), extra: Record<string, unknown> = {}): string {
  return writeSession(
    [
      header(extra),
      user("00000001", null, "a question"),
      assistant("00000002", "00000001", "an answer ".repeat(10)),
      entry("label", "00000003", "00000002", { targetId: "00000001", label: "start" }),
      user("00000004", "00000003", "more"),
    ],
    { dir },
  );
}

const isTemp = (p: string) => p.endsWith(".ase-tmp");
const ls = (dir: string) => readdirSync(dir).sort();

describe("new files (forks, caches) under faults: whole or absent", () => {
  it("fork: ENOSPC and EIO at every byte offset leave no new file and no temp file, and say nothing was written", async function () {
    this.timeout(120_000);
    const dir = tempDir();
    const file = small(dir);
    const s = await Session.load(file);
    const probe = forkSession(s, "00000004", { dir: tempDir() });
    const len = readFileSync(probe.path).length;
    const before = ls(dir);
    let tried = 0;
    for (const code of ["ENOSPC", "EIO"]) {
      for (let at = 0; at < len; at++) {
        const err = await withFaults({ match: isTemp, writeLimit: at, writeError: code }, () => {
          try {
            forkSession(s, "00000004");
            return undefined;
          } catch (e) {
            return e as Error;
          }
        });
        assert.ok(err instanceof NewFileError, `${code} at ${at}: ${err}`);
        const what = at ? `short write \\(${at} of ${len} bytes: .*\\(${code}\\)\\)` : `cannot write: .*\\(${code}\\)`;
        assert.match(err.message, new RegExp(`^nothing written: ${dir}/[^/]+\\.jsonl: ${what}$`));
        assert.deepEqual(ls(dir), before, `${code} at ${at}`);
        tried++;
      }
    }
    assert.equal(tried, 2 * len);
    console.log(`      fork: ${tried} faults injected (a ${len}-byte file x ENOSPC, EIO at every offset), no file left each time`);
  });

  it("fork: a failed fsync, close or link leaves nothing; a temp file that cannot be removed is named and never listed", async () => {
    const dir = tempDir();
    const file = small(dir);
    const s = await Session.load(file);
    const before = ls(dir);
    for (const [op, re] of [
      ["fsyncSync", /could not be synced to disk: i\/o error \(EIO\)$/],
      ["closeSync", /could not be closed: i\/o error \(EIO\)$/],
    ] as const) {
      await withFaults({ match: isTemp, fail: { [op]: "EIO" } }, () => assert.throws(() => forkSession(s, "00000004"), re));
      assert.deepEqual(ls(dir), before, op);
    }
    await withFaults({ match: (p) => p.endsWith(".jsonl") && p !== file, fail: { linkSync: "EIO" } }, () =>
      assert.throws(() => forkSession(s, "00000004"), /^NewFileError: nothing written: .*\.jsonl: cannot put it in place: i\/o error \(EIO\)$/),
    );
    assert.deepEqual(ls(dir), before, "link");
    // The temp file cannot be removed either: the message names it; it is hidden, and no listing shows it.
    const err = await withFaults({ match: isTemp, fail: { fsyncSync: "EIO", unlinkSync: "EIO" } }, () => {
      try {
        forkSession(s, "00000004");
      } catch (e) {
        return e as Error;
      }
    });
    assert.match(String(err), /could not be synced to disk: i\/o error \(EIO\); its temp file .*\/\.[^/]+\.jsonl\.\d+\.[0-9a-f]+\.ase-tmp is left \(hidden from listings; removed by a later run\)/);
    const left = ls(dir).filter((n) => !before.includes(n));
    assert.equal(left.length, 1);
    assert.ok(isOurTempFile(left[0]) && left[0].startsWith(".") && !left[0].endsWith(".jsonl"), left[0]);
    const listed = await listSessions(dir);
    assert.deepEqual(listed.projects.flatMap((p) => p.sessions.map((x) => x.path)), [file]);
    assert.deepEqual(listed.skipped, []);
  });

  it("a new file never replaces an existing one (hard link); a cache does (rename)", async () => {
    const dir = tempDir();
    const target = join(dir, "taken.jsonl");
    writeFileSync(target, "theirs\n");
    assert.throws(() => writeNewFile(target, "ours\n", { replace: false }), /^NewFileError: nothing written: .*taken\.jsonl: a file of that name exists already$/);
    assert.equal(readFileSync(target, "utf8"), "theirs\n");
    assert.deepEqual(ls(dir), ["taken.jsonl"]);
    // Without hard links (some file systems): still refused when the name is taken, else written.
    for (const code of ["EPERM", "ENOTSUP"]) {
      await withFaults({ fail: { linkSync: code } }, () => {
        assert.throws(() => writeNewFile(target, "ours\n", { replace: false }), /exists already/);
        writeNewFile(join(dir, `new-${code}.jsonl`), "ours\n", { replace: false });
      });
      assert.equal(readFileSync(join(dir, `new-${code}.jsonl`), "utf8"), "ours\n");
    }
    const cache = join(dir, "cache.json");
    writeNewFile(cache, "1", { replace: true });
    writeNewFile(cache, "2", { replace: true });
    assert.equal(readFileSync(cache, "utf8"), "2");
    assert.deepEqual(ls(dir).filter((n) => n.startsWith(".")), []);
  });

  it("caches under faults: the old cache stays whole, the listing still answers", async () => {
    const root = tempDir();
    small(root);
    const cacheFile = join(tempDir(), "list-cache.json");
    await listSessions(root, { cacheFile });
    const good = readFileSync(cacheFile, "utf8");
    writeSession([header(), user("00000001", null, "second")], { dir: root, name: "b.jsonl" });
    for (let at = 0; at < good.length; at += 7) {
      const res = await withFaults({ match: isTemp, writeLimit: at }, () => listSessions(root, { cacheFile }));
      assert.equal(res.projects[0].sessions.length, 2);
      assert.equal(readFileSync(cacheFile, "utf8"), good, `at ${at}: the cache is the old one, whole`);
    }
    assert.deepEqual(ls(join(cacheFile, "..")), ["list-cache.json"]);
    // The token cache too.
    const tokenFile = join(tempDir(), "tokens.json");
    const tc = TokenCache.open(tokenFile, "test");
    tc.bindFile({ size: 1, mtimeMs: 1 });
    tc.save();
    const saved = readFileSync(tokenFile, "utf8");
    tc.bindFile({ size: 2, mtimeMs: 2 });
    await withFaults({ match: isTemp, writeLimit: 5 }, () => assert.throws(() => tc.save(), /short write \(5 of/));
    assert.equal(readFileSync(tokenFile, "utf8"), saved);
  });

  it("stale temp files of ours (older than 10 minutes) are cleaned when writing and listing; fresh ones and others' files stay", async () => {
    const dir = tempDir();
    const file = small(dir);
    const old = new Date(Date.now() - 11 * 60_000);
    const names = [".x.jsonl.123.0a1b2c3d.ase-tmp", ".123.1700000000000.tmp", ".fresh.jsonl.9.ff.ase-tmp", ".someone-elses.tmp", "notes.txt"];
    for (const n of names) writeFileSync(join(dir, n), "{}\n");
    for (const n of names.filter((x) => x !== ".fresh.jsonl.9.ff.ase-tmp")) utimesSync(join(dir, n), old, old);
    const s = await Session.load(file);
    const res = forkSession(s, "00000002");
    assert.deepEqual(ls(dir), [".fresh.jsonl.9.ff.ase-tmp", ".someone-elses.tmp", "notes.txt", "session.jsonl", res.path.split("/").pop()].sort());
    writeFileSync(join(dir, ".y.jsonl.5.ab.ase-tmp"), "{}\n");
    utimesSync(join(dir, ".y.jsonl.5.ab.ase-tmp"), old, old);
    await listSessions(dir);
    assert.equal(existsSync(join(dir, ".y.jsonl.5.ab.ase-tmp")), false, "listing cleans too");
    assert.equal(cleanStaleTemps(dir, Date.now() + 11 * 60_000), 1, "the fresh one, once it is old");
  });

  it("fork of a session of unknown version is refused; parentSession is absolute even from a relative path", async function () {
    this.timeout(60_000);
    const dir = tempDir();
    const v99 = small(dir, { version: 99 });
    const s = await Session.load(v99);
    assert.throws(() => forkSession(s, "00000002"), /nothing written: .*: unknown session version 99/);
    assert.deepEqual(ls(dir), ["session.jsonl"]);

    const dir2 = tempDir();
    small(dir2);
    const r = spawnSync(process.execPath, [resolve("dist/cli.js"), "fork", "session.jsonl", "--at", "00000002"], { cwd: dir2, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const forked = r.stdout.trim();
    const head = JSON.parse(readFileSync(forked, "utf8").split("\n")[0]) as { parentSession: string };
    assert.equal(head.parentSession, join(dir2, "session.jsonl"));
  });
});

/** One session file per format that forks, and the entry to fork at (its last line). */
const forkingFormats: Array<{ agent: string; file: (dir: string) => string }> = [
  { agent: "pi", file: (dir) => small(dir) },
  { agent: "ClawdCode", file: (dir) => writeSession(clawd.tenMessages().map((r) => JSON.stringify(r)), { dir }) },
  { agent: "Seed 000", file: (dir) => writeSession([seed.user("u1", null, "first"), seed.assistant("a1", "u1", "answer")].map((r) => JSON.stringify(r)), { dir }) },
  {
    agent: "Claude Code",
    file: (dir) => writeSession([cc.user("c1", null, "first question"), cc.fragment("c2", "c1", "msg_1", cc.text("first answer"))].map((r) => JSON.stringify(r)), { dir }),
  },
];

describe("every format's fork goes through the one new-file helper, under the same faults", () => {
  for (const f of forkingFormats) {
    it(`${f.agent}: the writer's fork, short at every 5th byte, leaves no file; then it writes one whole file of the same format`, async () => {
      const dir = tempDir();
      const s = await openSession(f.file(dir));
      assert.equal(formatOf(s).agent, f.agent);
      const writer = formatOf(s).writer;
      assert.ok(writer?.capabilities.fork, `${f.agent} forks`);
      const at = s.table.idAt(s.metas.length - 1);
      const before = ls(dir);
      let faults = 0;
      for (let limit = 0; limit < 200; limit += 5) {
        const err = await withFaults({ match: isTemp, writeLimit: limit, writeError: "ENOSPC" }, () => {
          try {
            writer.fork(s, at);
            return undefined;
          } catch (e) {
            return e as Error;
          }
        });
        if (err === undefined) break; // the whole file fit under the limit
        assert.ok(err instanceof NewFileError, `ENOSPC at ${limit}: ${err}`);
        assert.deepEqual(ls(dir), before, `ENOSPC at ${limit}: a file or temp file was left`);
        faults++;
      }
      assert.ok(faults >= 5, `only ${faults} faults injected`);
      for (const name of ls(dir)) if (!before.includes(name)) rmSync(join(dir, name));
      const res = writer.fork(s, at);
      assert.equal(formatOf(await openSession(res.path)).agent, f.agent, "the fork reads back as its format");
      assert.ok(readFileSync(res.path, "utf8").endsWith("\n"), "whole lines");
    });
  }
});
