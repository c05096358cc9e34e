import { piIndexHooks } from "../../src/core/formats/pi/index-hooks";
import { strict as assert } from "node:assert";
import { appendFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { generateSession } from "../../bench/generate";
import type { EntryMeta } from "../../src/core/store/entry-meta";
import { MAX_LISTED_PROBLEMS } from "../../src/core/store/index-builder";
import { indexWorkerSource, overrideIndexWorkerSource, planSplit } from "../../src/core/store/range-worker";
import { Session } from "../../src/core/formats/pi/pi-session";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";
import { chain, picture } from "../helpers/index-picture";
import { header, type Raw, tempDir, user, writeSession } from "../helpers/session-builder";

/** Loads a file with one thread and with two, checks the second really ran, returns both. */
async function bothWays(file: string): Promise<{ one: Session; two: Session }> {
  const one = await Session.load(file, { secondThread: false });
  const two = await Session.load(file, { secondThread: true });
  assert.equal(one.threads, 1);
  assert.equal(two.threads, 2, "the second thread did not run");
  return { one, two };
}

describe("indexing large sessions on two threads", () => {
  before(function () {
    // The worker's source comes from our build (esbuild.mjs): without it nothing here could run.
    assert.ok(indexWorkerSource(), "the index worker source was not bundled into the tests");
  });

  it("gives exactly the single-pass index for a session with branches, labels and a compaction", async () => {
    const file = writeSession(chain(300));
    const { one, two } = await bothWays(file);
    assert.deepEqual(picture(two), picture(one));
    // The halves meet mid-chain: the entry after the split still has its parent.
    const split = planSplit(file, statSync(file).size, 0, piIndexHooks)?.split as number;
    const first = two.metas.find((m) => m.offset >= split) as EntryMeta;
    assert.ok(first.parentId, "the first entry of the second half lost its parent");
    assert.equal(two.meta(first.parentId as string)?.offset !== undefined, true);
  });

  it("reports bad lines of the second half with their real line numbers", async () => {
    const lines: Array<Raw | string> = chain(200);
    const bad = ["{ not json", "[1,2]", JSON.stringify({ type: "message", parentId: null, message: { role: "user", content: "no id" } })];
    bad.forEach((b, k) => lines.splice(lines.length - 40 + 10 * k, 0, b));
    const torn = '{"type":"message","id":"torn","parentId":"last","mess';
    lines.push(torn);
    const lineOf = (s: string) => lines.indexOf(s) + 1;
    const file = writeSession(lines, { trailingNewline: false });
    assert.ok(planSplit(file, statSync(file).size, 0, piIndexHooks)?.split as number < lines.slice(0, lineOf(bad[0])).map((l) => JSON.stringify(l)).join("\n").length, "the bad lines must fall in the second half");
    const { one, two } = await bothWays(file);
    assert.deepEqual(picture(two), picture(one));
    const kinds = two.problems.map((p) => `${p.kind}@${p.line}`);
    assert.deepEqual(kinds, [`parse-error@${lineOf(bad[0])}`, `not-an-object@${lineOf(bad[1])}`, `missing-id@${lineOf(bad[2])}`, `torn-line@${lineOf(torn)}`]);
    assert.match(two.problems[0].message, new RegExp(`^line ${lineOf(bad[0])}: not valid JSON`));
    assert.match(two.problems[3].message, new RegExp(`^line ${lineOf(torn)}: torn last line`));
  });

  it("reads a torn last line again once the agent finishes it, as after a one-thread load", async () => {
    const lines: Array<Raw | string> = chain(150);
    const done = JSON.stringify(user("fin", "last", "finished later"));
    lines.push(done.slice(0, 30));
    const file = writeSession(lines, { trailingNewline: false });
    const { one, two } = await bothWays(file);
    appendFileSync(file, `${done.slice(30)}\n`);
    assert.deepEqual(await two.refresh(), { added: 1 });
    await one.refresh();
    assert.deepEqual(picture(two), picture(one));
    assert.equal(two.problemCount, 0);
    assert.equal(two.metas[two.metas.length - 1].id, "fin");
  });

  it("keeps the first 1,000 problems over both halves and counts the rest", async () => {
    const lines: Array<Raw | string> = chain(20);
    for (let k = 0; k < MAX_LISTED_PROBLEMS + 300; k++) lines.push(`garbage ${k}`);
    const file = writeSession(lines);
    const { one, two } = await bothWays(file);
    assert.deepEqual(picture(two), picture(one));
    assert.equal(two.problemCount, MAX_LISTED_PROBLEMS + 300);
  });

  it("migrates a v2 session's hookMessage in the second half as pi does", async () => {
    const lines: Raw[] = [header({ version: 2 })];
    let prev: string | null = null;
    for (let k = 0; k < 200; k++) {
      const id = `h${k}`;
      lines.push(k % 2 ? user(id, prev, `q ${k}`) : { type: "message", id, parentId: prev, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "hookMessage", customType: "note", content: `hook ${k}`, display: true } });
      prev = id;
    }
    const { one, two } = await bothWays(writeSession(lines));
    assert.deepEqual(picture(two), picture(one));
    const last = two.metas[two.metas.length - 2];
    assert.equal(last.role, "custom");
    assert.ok(last.estimate > 0);
  });

  it("indexes a v1 session, and a file whose first line is not its header, in one pass", async () => {
    const v1: Raw[] = [{ type: "session", id: "v1-session", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" }];
    for (let k = 0; k < 100; k++) v1.push({ type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: `m ${k}` } });
    const file = writeSession(v1);
    assert.equal(planSplit(file, statSync(file).size, 0, piIndexHooks), undefined);
    const s = await Session.load(file, { secondThread: true });
    assert.equal(s.threads, 1);
    assert.equal(s.metas.length, 100);
    const junkFirst = writeSession(["not json", ...chain(50)]);
    assert.equal(planSplit(junkFirst, statSync(junkFirst).size, 0, piIndexHooks), undefined);
    assert.equal((await Session.load(junkFirst, { secondThread: true })).threads, 1);
  });

  it("reports progress over both halves, ending at the file's size", async () => {
    const file = writeSession(chain(300));
    const seen: number[] = [];
    const s = await Session.load(file, { secondThread: true, onProgress: (n, total) => {
      assert.equal(total, statSync(file).size);
      seen.push(n);
    } });
    assert.equal(s.threads, 2);
    assert.ok(seen.length > 0);
    assert.equal(Math.max(...seen), statSync(file).size);
  });

  it("indexes the second half on this thread when the worker fails, with the same result", async () => {
    const file = writeSession(chain(200));
    const one = await Session.load(file, { secondThread: false });
    try {
      for (const [source, why] of [["throw new Error('worker broke')", /worker broke/], ["process.exit(3)", /exit code 3/]] as const) {
        overrideIndexWorkerSource(source);
        const s = await Session.load(file, { secondThread: true });
        assert.equal(s.threads, 1);
        assert.match(s.workerFailure ?? "", why);
        assert.deepEqual(picture(s), picture(one));
      }
      // Built without the worker (code run from source): one thread, nothing to report.
      overrideIndexWorkerSource(undefined);
      const plain = await Session.load(file, { secondThread: true });
      assert.equal(plain.threads, 1);
      assert.equal(plain.workerFailure, undefined);
    } finally {
      overrideIndexWorkerSource(null);
    }
  });

  it("stops both threads when the load is aborted", async () => {
    const file = writeSession(chain(300));
    const ac = new AbortController();
    ac.abort(new Error("closed by the user"));
    await assert.rejects(Session.load(file, { secondThread: true, signal: ac.signal }), /closed by the user/);
  });

  it("gives exactly the single-pass index for a v3 session built from the real ones", async function () {
    // The real sessions are v1 (one pass only); the bench's generator rebuilds their
    // messages as v3 with fresh ids, branches and compactions.
    needFixtures(this);
    const out = join(tempDir(), "generated.jsonl");
    generateSession({ sources: REAL_SESSIONS.map((n) => fixture(`${n}.jsonl`)), targetBytes: 6 * 2 ** 20, out, seed: 7 });
    const { one, two } = await bothWays(out);
    assert.ok(one.metas.length > 1000);
    assert.deepEqual(picture(two), picture(one));
  });
});
