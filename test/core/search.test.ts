import { strict as assert } from "node:assert";
import { searchSessions, type SearchOptions } from "../../src/core/search/search-sessions";
import type { SessionHits } from "../../src/core/search/search-types";
import { SearchInputError } from "../../src/core/search/pattern";
import { buildStores, type Stores, storeDirs } from "../helpers/search-stores";

async function collect(opts: SearchOptions): Promise<SessionHits[]> {
  const out: SessionHits[] = [];
  for await (const s of searchSessions(opts)) out.push(s);
  return out;
}

/** "path-basename entryId kind" per hit, in order. */
function ids(res: SessionHits[]): string[] {
  return res.flatMap((s) => s.hits.map((h) => `${s.agent} ${h.entryId} ${h.kind}`));
}

describe("search: every format's visible text", () => {
  let st: Stores;
  before(() => {
    st = buildStores();
  });

  it("finds a word in every store, newest session first, with each hit's entry, kind, line and time", async () => {
    const res = await collect({ pattern: "frobnicator", dirs: storeDirs(st), env: {} });
    assert.deepEqual(res.map((s) => s.path), [st.piFile, st.ccFile, st.clFile]);
    assert.deepEqual(ids(res), [
      "pi p1 user",
      "pi p2 assistant",
      "pi p3 tool-result",
      "pi p5 boundary",
      "claude-code c1 user",
      "claude-code c2 assistant",
      "claude-code c6 summary",
      "clawdcode u1 user",
      "clawdcode a1 assistant",
      "clawdcode t1 tool-call",
      "clawdcode r1 tool-result",
      "clawdcode s1 summary",
    ]);
    const pi = res[0];
    assert.equal(pi.cwd, "/home/ana/proj");
    assert.equal(pi.title, "Please refactor the Frobnicator module");
    // The header is line 1: entries start at line 2.
    assert.deepEqual(pi.hits.map((h) => h.line), [2, 3, 4, 6]);
    assert.match(pi.hits[0].timestamp ?? "", /^2026-01-01T\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(res[1].hits[0].line, 1);
    assert.equal(res[1].hits[0].timestamp?.slice(0, 10), "2026-03-01");
  });

  it("is case-insensitive by default; caseSensitive matches the case given", async () => {
    const any = await collect({ pattern: "FROBNICATOR", dirs: storeDirs(st), only: ["pi"], env: {} });
    assert.deepEqual(ids(any), ["pi p1 user", "pi p2 assistant", "pi p3 tool-result", "pi p5 boundary"]);
    const exact = await collect({ pattern: "Frobnicator", caseSensitive: true, dirs: storeDirs(st), only: ["pi"], env: {} });
    assert.deepEqual(ids(exact), ["pi p1 user", "pi p3 tool-result"]);
  });

  it("a key name or id is no hit: only the text a person reads counts", async () => {
    // Every Claude Code line has "uuid", "parentUuid" and "sessionId" keys; one prompt and one tool output say "uuid".
    const uuid = await collect({ pattern: "uuid", dirs: storeDirs(st), only: ["claude-code"], env: {} });
    assert.deepEqual(ids(uuid), ["claude-code c1 user", "claude-code c4 tool-result"]);
    for (const key of ["parentUuid", "sessionId", "isSidechain", "gitBranch", "toolCallId", "cache_read_input_tokens"]) {
      assert.deepEqual(ids(await collect({ pattern: key, dirs: storeDirs(st), env: {} })), [], key);
    }
    // An entry's own id is no text either.
    assert.deepEqual(ids(await collect({ pattern: "call_1", dirs: storeDirs(st), env: {} })), []);
  });

  it("tool calls match by name and argument values, not argument keys", async () => {
    const res = await collect({ pattern: "src/frobnicator.ts", dirs: storeDirs(st), env: {} });
    assert.deepEqual(ids(res), ["pi p2 tool-call"]);
    assert.deepEqual(ids(await collect({ pattern: "Grep", caseSensitive: true, dirs: storeDirs(st), env: {} })), ["claude-code c3 tool-call"]);
    assert.deepEqual(ids(await collect({ pattern: '"path"', dirs: storeDirs(st), env: {} })), []);
  });

  it("the snippet shows the match with context on one line; match gives its place", async () => {
    const [s] = await collect({ pattern: "size = 42", dirs: storeDirs(st), env: {} });
    const h = s.hits[0];
    assert.equal(h.snippet, "export class Frobnicator {} export const size = 42;");
    assert.equal(h.snippet.slice(...h.match), "size = 42");
  });

  it("files given by path, seed-000 included; the agent filter applies to them", async () => {
    const files = [st.seedFile, st.piFile];
    const res = await collect({ pattern: "frobnicator", files });
    assert.deepEqual(res.map((s) => s.agent), ["pi", "seed-000"]);
    const seed = res[1];
    assert.equal(seed.cwd, "/home/bo/seedproj");
    assert.deepEqual(seed.hits.map((h) => `${h.entryId} ${h.kind} ${h.line}`), ["s1 user 1", "s2 tool-call 2", "s3 tool-result 3", "s4 assistant 4"]);
    assert.equal(seed.hits[1].snippet, "bash npm test -- frobnicator");
    assert.deepEqual((await collect({ pattern: "frobnicator", files, only: ["seed-000"] })).map((s) => s.agent), ["seed-000"]);
  });

  it("filters: agent, project, kind (and groups), dates", async () => {
    const dirs = storeDirs(st);
    const q = (o: Partial<SearchOptions>) => collect({ pattern: "frobnic", dirs, env: {}, ...o });
    assert.deepEqual((await q({ only: ["clawdcode"] })).map((s) => s.agent), ["clawdcode"]);
    assert.deepEqual((await q({ project: "/home/dev" })).map((s) => s.agent), ["claude-code"]);
    assert.deepEqual(ids(await q({ kinds: ["tool"] })), ["pi p2 tool-call", "pi p3 tool-result", "pi p4 shell", "claude-code c3 tool-call", "claude-code c4 tool-result", "clawdcode t1 tool-call", "clawdcode r1 tool-result"]);
    assert.deepEqual(ids(await q({ kinds: ["user"] })), ["pi p1 user", "claude-code c1 user", "clawdcode u1 user"]);
    assert.deepEqual(ids(await q({ kinds: ["summary"] })), ["pi p5 boundary", "claude-code c6 summary", "clawdcode s1 summary"]);
    assert.throws(() => searchSessions({ pattern: "x", kinds: ["bogus"] }), (e: Error) => e instanceof SearchInputError && /unknown kind "bogus"/.test(e.message));
    // Entry times: pi's in January, the others on 2026-03-01.
    assert.deepEqual((await q({ since: Date.parse("2026-02-01T00:00:00Z") })).map((s) => s.agent), ["claude-code", "clawdcode"]);
    assert.deepEqual((await q({ until: Date.parse("2026-02-01T00:00:00Z") })).map((s) => s.agent), ["pi"]);
    // A file last written before `since` is not read at all.
    const late = searchSessions({ pattern: "frobnic", dirs, env: {}, since: Date.parse("2026-03-05T00:00:00Z") });
    for await (const _ of late) assert.fail("no hit expected");
    assert.equal(late.scanned.files, 0);
  });

  it("regex: a JavaScript RegExp over the visible text; an invalid one is a clear error", async () => {
    const res = await collect({ pattern: "frob\\w+ into (two|three) files", regex: true, dirs: storeDirs(st), env: {} });
    assert.deepEqual(ids(res), ["pi p5 boundary"]);
    assert.equal(res[0].hits[0].snippet.slice(...res[0].hits[0].match), "frobnicator into two files");
    // No literal to look for in the raw bytes: every line is read, and still only text counts.
    const digits = await collect({ pattern: "\\d{2};$", regex: true, dirs: storeDirs(st), env: {} });
    assert.deepEqual(ids(digits), ["pi p3 tool-result"]);
    assert.throws(() => searchSessions({ pattern: "frob(", regex: true }), (e: Error) => e instanceof SearchInputError && /^invalid regular expression \/frob\(\/: .*Unterminated group/.test(e.message));
    assert.throws(() => searchSessions({ pattern: "x*", regex: true }), /matches the empty text/);
    assert.throws(() => searchSessions({ pattern: "" }), /empty pattern/);
  });

  it("limit stops the search after that many hits", async () => {
    const s = searchSessions({ pattern: "frobnicator", dirs: storeDirs(st), env: {}, limit: 5 });
    const res: SessionHits[] = [];
    for await (const r of s) res.push(r);
    assert.deepEqual(ids(res), ["pi p1 user", "pi p2 assistant", "pi p3 tool-result", "pi p5 boundary", "claude-code c1 user"]);
    assert.equal(s.limited, true);
    assert.equal(s.scanned.files, 2, "the clawdcode file is not read");
  });
});
