import { strict as assert } from "node:assert";
import { appendFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { branchSession } from "../../src/core/formats/pi/compaction/branch-summary";
import { compactSession } from "../../src/core/formats/pi/compaction/compact";
import { appendEntry } from "../../src/core/formats/pi/store/append";
import { NothingWrittenError, PartialWriteError } from "../../src/core/store/append-line";
import { Session } from "../../src/core/formats/pi/pi-session";
import { SessionBusyError } from "../../src/core/store/session-lock";
import { type FaultPlan, withFaults } from "../helpers/faulty-fs";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";
import { formatOf, openSession } from "../../src/core/formats/registry";
import type { SessionReader } from "../../src/core/session/session-reader";
import * as clawd from "../formats/clawdcode/lines";
import * as seed from "../formats/seed-000/helpers";

/** A small session with a branch: 1 -> 2 -> 3 -> 4 and 2 -> 5. */
function small(dir = tempDir(), extra: Record<string, unknown> = {}): string {
  return writeSession(
    [
      header(extra),
      user("00000001", null, "first question"),
      assistant("00000002", "00000001", "first answer"),
      user("00000003", "00000002", "second question ".repeat(20)),
      assistant("00000004", "00000003", "second answer ".repeat(20)),
      user("00000005", "00000002", "the other side"),
    ],
    { dir },
  );
}

type Writer = { name: string; run: (s: Session) => Promise<unknown> };

/** Every append the project makes, each through its own entry point. */
const writers: Writer[] = [
  { name: "label", run: (s) => appendEntry(s, { type: "label", parentId: "00000004", targetId: "00000002", label: "here" }) },
  { name: "compaction", run: (s) => compactSession(s, { leafId: "00000004", strategy: "truncate", settings: { keepRecentTokens: 1 } }) },
  { name: "branch summary (continue from entry)", run: (s) => branchSession(s, { targetId: "00000004" }) },
];

/** How long the line a writer appends is: measured by letting it write once, in a copy. */
async function lineLength(w: Writer): Promise<number> {
  const file = small();
  const before = statSync(file).size;
  await w.run(await Session.load(file));
  return statSync(file).size - before;
}

const isSession = (p: string) => p.endsWith(".jsonl");

describe("append under faults: the file is byte-identical or one whole line longer", () => {
  for (const w of writers) {
    it(`${w.name}: ENOSPC and EIO at every byte offset of the line leave the file byte-identical, and say so`, async function () {
      this.timeout(120_000);
      const len = await lineLength(w);
      assert.ok(len > 100, `a real line (${len} bytes)`);
      const file = small();
      const before = readFileSync(file);
      const s = await Session.load(file);
      let tried = 0;
      for (const code of ["ENOSPC", "EIO"]) {
        for (let at = 0; at < len; at++) {
          const err = await withFaults({ match: isSession, writeLimit: at, writeError: code }, () => w.run(s).then(() => undefined, (e: Error) => e));
          assert.ok(err instanceof NothingWrittenError, `${code} at ${at}: ${err}`);
          const what = at ? `short write \\(${at} of ${len} bytes: .*\\(${code}\\)\\); it is back to its ${before.length} bytes` : `cannot write: .*\\(${code}\\); the file is unchanged \\(${before.length} bytes\\)`;
          assert.match(err.message, new RegExp(`^nothing written: ${file}: ${what}$`));
          assert.ok(readFileSync(file).equals(before), `${code} at ${at}: file changed`);
          tried++;
        }
      }
      assert.equal(tried, 2 * len);
      console.log(`      ${w.name}: ${tried} faults injected (a ${len}-byte line x ENOSPC, EIO at every offset), 0 bytes changed each time`);
      // The session is still good to write: the same call now succeeds, with one whole line.
      await w.run(s);
      const after = readFileSync(file);
      assert.ok(after.subarray(0, before.length).equals(before));
      const added = after.subarray(before.length).toString("utf8");
      assert.equal(added.length, len);
      assert.match(added, /^\{.*\}\n$/);
      JSON.parse(added);
      assert.deepEqual(readdirSync(join(file, "..")).sort(), ["session.jsonl"], "no lock or temp file left");
    });
  }

  it("a failed fsync after a complete write cuts the line off again", async () => {
    const file = small();
    const before = readFileSync(file);
    const s = await Session.load(file);
    await withFaults({ match: isSession, fail: { fsyncSync: "EIO" } }, async () => {
      await assert.rejects(writers[0].run(s), /^NothingWrittenError: nothing written: .*: the \d+ bytes were written but could not be synced to disk: i\/o error \(EIO\); it is back to its \d+ bytes$/);
    });
    assert.ok(readFileSync(file).equals(before));
  });

  it("when the cut-back fails too, the error names the torn bytes left and how to remove them", async () => {
    const file = small();
    const before = readFileSync(file);
    const s = await Session.load(file);
    const err = await withFaults({ match: isSession, writeLimit: 6, fail: { ftruncateSync: "EIO" } }, () => writers[0].run(s).then(() => undefined, (e: Error) => e));
    assert.ok(err instanceof PartialWriteError, String(err));
    assert.equal(err.keepBytes, before.length);
    assert.equal(err.sizeNow, before.length + 6);
    assert.doesNotMatch(err.message, /nothing written/);
    assert.match(err.message, new RegExp(`short write \\(6 of \\d+ bytes: no space left on device \\(ENOSPC\\)\\), and cutting the file back failed \\(i/o error \\(EIO\\)\\): 6 byte\\(s\\) of a \\d+-byte line are left after byte ${before.length} \\(the file is ${before.length + 6} bytes; it was ${before.length}\\); the last line is torn: cut it back with \`truncate -s ${before.length}\``));
    const now = readFileSync(file);
    assert.equal(now.length, before.length + 6, "exactly the bytes the message names");
    assert.ok(now.subarray(0, before.length).equals(before));
  });

  it("fstat failing after the short write: the cut-back still happens", async () => {
    const file = small();
    const before = readFileSync(file);
    const s = await Session.load(file);
    // fstat #1 is the stamp check before writing; the one in the undo fails.
    await withFaults({ match: isSession, writeLimit: 10, fail: { fstatSync: "EIO" }, after: { fstatSync: 1 } }, async () => {
      await assert.rejects(writers[0].run(s), /^NothingWrittenError: nothing written: .*: short write \(10 of \d+ bytes: no space left on device \(ENOSPC\)\); it is back to its \d+ bytes$/);
    });
    assert.ok(readFileSync(file).equals(before));
  });

  it("another process appending between our check and our failed write: its line is not cut off", async () => {
    const file = small();
    const s = await Session.load(file);
    const agent = `${JSON.stringify(user("00000099", "00000004", "written meanwhile"))}\n`;
    const before = readFileSync(file);
    // The agent's line lands after our size check (fstat #1), before our write.
    let once = false;
    const plan: FaultPlan = { match: isSession, writeLimit: 5, before: { writeSync: (p: string) => void (once || ((once = true), appendFileSync(p, agent))) } };
    const err = await withFaults(plan, () => writers[0].run(s).then(() => undefined, (e: Error) => e));
    assert.ok(err instanceof PartialWriteError, String(err));
    assert.match(err.message, /another process wrote at the same time, so it was not cut back/);
    const now = readFileSync(file);
    assert.equal(now.subarray(before.length, before.length + agent.length).toString(), agent, "the agent's line is kept");
  });

  it("another writer appending while we prepare or just before our write: refused, only its line is there", async () => {
    for (const op of ["openSync", "fstatSync"] as const) {
      const file = small();
      const s = await Session.load(file);
      const agent = `${JSON.stringify(user("00000099", "00000004", "the agent goes on"))}\n`;
      const plan: FaultPlan = { match: isSession, before: { [op]: (p: string) => appendFileSync(p, agent) } };
      for (const w of writers) {
        const before = readFileSync(file);
        await withFaults(plan, async () => {
          await assert.rejects(w.run(s), /^StaleSessionError: .* changed on disk \(size \d+ -> \d+/);
        });
        const now = readFileSync(file);
        assert.ok(now.subarray(0, before.length).equals(before));
        assert.equal(now.subarray(before.length).toString(), agent, `${w.name} (${op}): only the agent's line`);
        await s.refresh();
      }
    }
  });

  it("a session replaced by another file of the same size and mtime, or renamed away: refused, nothing created", async () => {
    const dir = tempDir();
    const file = small(dir);
    const s = await Session.load(file);
    const st = statSync(file);
    const copy = join(dir, "copy.tmp");
    writeFileSync(copy, readFileSync(file));
    utimesSync(copy, st.atime, st.mtime);
    renameSync(copy, file);
    const before = readFileSync(file);
    await assert.rejects(writers[0].run(s), /changed on disk \(replaced by another file\)/);
    assert.ok(readFileSync(file).equals(before));

    const s2 = await Session.load(file);
    renameSync(file, join(dir, "moved.jsonl"));
    await assert.rejects(writers[0].run(s2), /changed on disk \(it cannot be read any more: renamed or deleted\)/);
    assert.equal(existsSync(file), false, "the old name is not re-created");
    // Renamed between our check and our open: the open does not create it either.
    renameSync(join(dir, "moved.jsonl"), file);
    const s3 = await Session.load(file);
    await withFaults({ match: isSession, before: { openSync: (p) => renameSync(p, join(dir, "moved.jsonl")) } }, async () => {
      await assert.rejects(writers[0].run(s3), /changed on disk \(it is gone: renamed or deleted\)/);
    });
    assert.equal(existsSync(file), false);
  });

  it("a directory we cannot write in (no lock file): refused with the reason, nothing changed", async () => {
    const file = small();
    const before = readFileSync(file);
    const s = await Session.load(file);
    for (const code of ["EACCES", "EROFS"]) {
      await withFaults({ match: (p) => p.includes(".ase-lock"), fail: { openSync: code } }, async () => {
        await assert.rejects(writers[0].run(s), new RegExp(`^Error: nothing written: ${file}: cannot create the lock file .*\\.session\\.jsonl\\.ase-lock: .*\\(${code}\\)$`));
      });
      assert.ok(readFileSync(file).equals(before));
    }
  });

  it("a session file that is a symlink: the line goes to the target, the link stays a link", async () => {
    const real = small(tempDir());
    const linkDir = tempDir();
    const link = join(linkDir, "linked.jsonl");
    symlinkSync(real, link);
    const before = readFileSync(real);
    const s = await Session.load(link);
    await writers[0].run(s);
    assert.ok(lstatSync(link).isSymbolicLink(), "still a symlink");
    const after = readFileSync(real);
    assert.ok(after.length > before.length && after.subarray(0, before.length).equals(before));
    assert.deepEqual(readdirSync(linkDir), ["linked.jsonl"], "no lock or temp file next to the link");
  });

  it("a session of a version newer than we know: every writer refuses, nothing changed", async () => {
    const file = small(tempDir(), { version: 99 });
    const before = readFileSync(file);
    const s = await Session.load(file);
    for (const w of writers) {
      await assert.rejects(w.run(s), /nothing written: .*: unknown session version 99 \(this tool knows up to 3\)/);
    }
    assert.ok(readFileSync(file).equals(before));
  });

  it("the lock: a live writer's lock refuses at once; a dead writer's lock is taken over", async () => {
    const dir = tempDir();
    const file = small(dir);
    const lock = join(dir, ".session.jsonl.ase-lock");
    const s = await Session.load(file);
    const before = readFileSync(file);
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now() }));
    const err = await writers[0].run(s).then(() => undefined, (e: Error) => e);
    assert.ok(err instanceof SessionBusyError, String(err));
    assert.match(err.message, new RegExp(`^nothing written: ${file} is being written by another process \\(pid ${process.pid} on .* since .*, lock ${lock}\\); try again$`));
    assert.ok(readFileSync(file).equals(before));
    // A pid that is gone (a killed writer): its lock is stale.
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 7, host: hostname(), since: Date.now() }));
    await writers[0].run(s);
    assert.equal(existsSync(lock), false, "the lock is released");
    // An empty lock (its writer died between create and write) counts once it is old.
    writeFileSync(lock, "");
    await assert.rejects(writers[0].run(s), SessionBusyError);
    const old = new Date(Date.now() - 10_000);
    utimesSync(lock, old, old);
    await writers[0].run(s);
    mkdirSync(join(dir, "sub"));
    assert.equal(existsSync(lock), false);
  });
});

/** One small session file per format that appends, and one new record in its own shape. */
const appendingFormats: Array<{ agent: string; file: () => string; record: (s: SessionReader) => Record<string, unknown> }> = [
  { agent: "pi", file: () => small(), record: (s) => ({ type: "label", id: "0000ab01", parentId: "00000005", timestamp: new Date(0).toISOString(), targetId: s.metas[0].id, label: "here" }) },
  {
    agent: "ClawdCode",
    file: () => writeSession(clawd.tenMessages().map((r) => JSON.stringify(r)), { dir: tempDir() }),
    record: (s) => clawd.user("n1", s.table.idAt(s.metas.length - 1), "one more question, long enough to be cut at many offsets"),
  },
  {
    agent: "Seed 000",
    file: () => writeSession([seed.user("u1", null, "first"), seed.assistant("a1", "u1", "answer")].map((r) => JSON.stringify(r)), { dir: tempDir() }),
    record: () => seed.user("n1", "a1", "one more question, long enough to be cut at many offsets"),
  },
];

describe("every format's append goes through the one helper, under the same faults", () => {
  for (const f of appendingFormats) {
    it(`${f.agent}: the writer's append, short at every 7th byte, leaves the file byte-identical; then it writes one whole line`, async () => {
      const file = f.file();
      const before = readFileSync(file);
      const s = await openSession(file);
      assert.equal(formatOf(s).agent, f.agent);
      const append = formatOf(s).writer?.append;
      assert.ok(append, `${f.agent} appends`);
      const rec = f.record(s);
      const len = Buffer.byteLength(`${JSON.stringify(rec)}\n`);
      for (let at = 0; at < len; at += 7) {
        const err = await withFaults({ match: (p) => p === file, writeLimit: at, writeError: "ENOSPC" }, () => append(s, [rec]).then(() => undefined, (e: Error) => e));
        assert.ok(err instanceof NothingWrittenError, `ENOSPC at ${at}: ${err}`);
        assert.ok(readFileSync(file).equals(before), `ENOSPC at ${at}: file changed`);
      }
      await append(s, [rec]);
      const added = readFileSync(file).subarray(before.length).toString("utf8");
      assert.deepEqual(JSON.parse(added), rec);
      assert.notEqual(s.tree.indexOf(String(rec.id ?? rec.uuid)), undefined, "read into the session");
    });
  }

  it("pi's appendEntry checks the new entry as every writer does: an unknown parent is refused, nothing written", async () => {
    const file = small();
    const before = readFileSync(file);
    const s = await Session.load(file);
    await assert.rejects(appendEntry(s, { type: "label", parentId: "ghost001", targetId: "00000002", label: "x" }), /nothing written: .*new line 1 of 1: parent ghost001 is not an entry of the session/);
    assert.ok(readFileSync(file).equals(before));
  });
});
