import { strict as assert } from "node:assert";
import { readdirSync } from "node:fs";
import { RegexDeadlineError } from "../../src/core/search/regex-thread";
import { SearchInputError } from "../../src/core/search/pattern";
import { searchSessions, type SearchOptions } from "../../src/core/search/search-sessions";
import type { SessionHits } from "../../src/core/search/search-types";
import { header, user, writeSession } from "../helpers/session-builder";

/** Polls until `fn` holds (no fixed sleeps); fails naming what it waited for. */
async function until(what: string, fn: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function collect(opts: SearchOptions): Promise<SessionHits[]> {
  const out: SessionHits[] = [];
  for await (const s of searchSessions(opts)) out.push(s);
  return out;
}

/** Runs a search to its end or its error: the sessions it yielded, the error, and how long it took. */
async function outcome(opts: SearchOptions): Promise<{ sessions: SessionHits[]; error?: Error; ms: number }> {
  const sessions: SessionHits[] = [];
  const t0 = Date.now();
  try {
    for await (const s of searchSessions(opts)) sessions.push(s);
  } catch (err) {
    return { sessions, error: err as Error, ms: Date.now() - t0 };
  }
  return { sessions, ms: Date.now() - t0 };
}

/** A prompt some regexes backtrack on for ever (50,000 a's and a "!"), after one each of them matches at once. */
function hostile(): string {
  return writeSession([header(), user("e1", null, "quick aaa"), user("e2", null, `${"a".repeat(50_000)}!`), user("e3", null, "b".repeat(50_000))]);
}

describe("search: user regexes run with a deadline, off the caller's thread", () => {
  for (const pattern of ["(a+)+$", "(\\w+\\s?)+$", "^(a|aa)+$", "(.*a){20}"]) {
    it(`${pattern} on 50,000 characters stops at the deadline with an error naming it, the entry and the pattern`, async function () {
      this.timeout(60_000);
      const file = hostile();
      const r = await outcome({ pattern, regex: true, files: [file], regexDeadlineMs: 500 });
      assert.ok(r.error instanceof RegexDeadlineError, `expected the deadline error, got ${r.error?.message ?? "no error"}`);
      assert.ok(r.error instanceof SearchInputError, "bad input, as a bad regex is");
      assert.match(r.error.message, /ran for more than 0\.5 s on one entry \(line \d of .*\) and was stopped: it backtracks/);
      assert.ok(r.error.message.includes(`/${pattern}/`));
      assert.ok(!r.error.message.includes("\n"));
      // Generous: the deadline, a thread's start and a busy machine.
      assert.ok(r.ms < 15_000, `${r.ms} ms`);
    });
  }

  it("the hits found before the deadline are kept (yielded as their session's), then the error; no file stays open", async function () {
    this.timeout(60_000);
    const file = hostile();
    const openFiles = () => (process.platform === "linux" ? readdirSync("/proc/self/fd").length : 0);
    const before = openFiles();
    // Matches e1 and e2 at once; on e3 (no "a" at all) it tries every split of 50,000 b's.
    const r = await outcome({ pattern: "(.*a){2}", regex: true, files: [file], regexDeadlineMs: 300 });
    assert.ok(r.error instanceof RegexDeadlineError, r.error?.message);
    assert.equal(r.error.line, 4);
    assert.equal(r.error.path, file);
    assert.deepEqual(r.sessions.map((s) => [s.path, s.agent, s.hits.map((h) => h.entryId)]), [[file, "pi", ["e1", "e2"]]]);
    // The stopped thread's file is closed with it.
    await until("the file the stopped thread had open to close", () => openFiles() <= before);
  });

  it("an abort during a catastrophic match ends the search within a few hundred ms", async function () {
    this.timeout(60_000);
    const file = hostile();
    const ac = new AbortController();
    let abortedAt = 0;
    // e1 is a hit; the abort comes once it is seen, while e2 backtracks (the deadline is far off).
    const search = searchSessions({
      pattern: "(a+)+$",
      regex: true,
      files: [file],
      regexDeadlineMs: 120_000,
      signal: ac.signal,
      onHit: () => {
        abortedAt = Date.now();
        ac.abort();
      },
    });
    await assert.rejects(async () => {
      for await (const _ of search);
    }, (e: Error) => e.name === "AbortError");
    assert.ok(abortedAt > 0, "the first hit was reported");
    const ms = Date.now() - abortedAt;
    console.log(`      ended ${ms} ms after the abort`);
    assert.ok(ms < 1000, `the search ended ${ms} ms after the abort`);
  });

  it("a regex that finishes is searched as before: hits, counts, no error", async () => {
    const file = writeSession([header(), user("e1", null, "the frobnicator ran"), user("e2", null, "nothing here")]);
    const s = searchSessions({ pattern: "frob\\w+", regex: true, files: [file] });
    const res: SessionHits[] = [];
    for await (const x of s) res.push(x);
    assert.deepEqual(res.map((x) => x.hits.map((h) => h.entryId)), [["e1"]]);
    assert.equal(s.hitCount, 1);
    assert.equal(s.scanned.files, 1);
  });
});

describe("search: regexes are Unicode-aware (the u flag)", () => {
  it("\\p{Lu} matches capitals, . matches an emoji whole", async () => {
    const file = writeSession([header(), user("e1", null, "all lower case"), user("e2", null, "SHOUT here"), user("e3", null, "x😀y")]);
    const caps = await collect({ pattern: "\\p{Lu}{3}", regex: true, caseSensitive: true, files: [file] });
    assert.deepEqual(caps.flatMap((s) => s.hits.map((h) => h.entryId)), ["e2"]);
    const emoji = await collect({ pattern: "x.y", regex: true, files: [file] });
    assert.deepEqual(emoji.flatMap((s) => s.hits.map((h) => h.entryId)), ["e3"]);
  });

  it("case-insensitive k and s also match the Kelvin sign and the long s (their bytes are no literal to look for)", async () => {
    const file = writeSession([header(), user("e1", null, "300 \u212Aelvin"), user("e2", null, "Me\u017F\u017Fage")]);
    assert.deepEqual((await collect({ pattern: "kelvin", regex: true, files: [file] })).flatMap((s) => s.hits.map((h) => h.entryId)), ["e1"]);
    assert.deepEqual((await collect({ pattern: "message", regex: true, files: [file] })).flatMap((s) => s.hits.map((h) => h.entryId)), ["e2"]);
  });

  it("a bad escape is a clear input error naming the problem, the pattern clipped", () => {
    assert.throws(
      () => searchSessions({ pattern: "a\\-b", regex: true }),
      (e: Error) => e instanceof SearchInputError && e.message === "invalid regular expression /a\\-b/: Invalid escape",
    );
    const long = `\\q${"a".repeat(5000)}`;
    assert.throws(
      () => searchSessions({ pattern: long, regex: true }),
      (e: Error) => e instanceof SearchInputError && e.message.length < 200 && e.message.includes("(5,002 characters)") && /Invalid escape$/.test(e.message),
    );
  });
});

describe("search: long patterns", () => {
  it("a plain pattern of 40 KB is an input error of one short line, the pattern clipped with its length", () => {
    const pattern = "x".repeat(40 * 1024);
    assert.throws(
      () => searchSessions({ pattern }),
      (e: Error) => e instanceof SearchInputError && e.message.length < 200 && e.message.includes("(40,960 characters)") && /too long \(at most 10,000 characters\)$/.test(e.message),
    );
  });

  it("a pattern of 10,000 characters is searched", async () => {
    const text = "y".repeat(10_000);
    const file = writeSession([header(), user("e1", null, `say ${text}!`)]);
    assert.deepEqual((await collect({ pattern: text, files: [file] })).flatMap((s) => s.hits.map((h) => h.entryId)), ["e1"]);
  });
});
