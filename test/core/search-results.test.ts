import { strict as assert } from "node:assert";
import type { SearchHit, SessionHits } from "../../src/core/search/search-types";
import { DEFAULT_LIMIT, describeRequest, hitFile, hitLabel, hitSubagent, hitTime, hitTooltip, kindIcon, resultsMessage, SearchResults, searchOptions, sessionLabel } from "../../src/extension/search-results";

const hit = (over: Partial<SearchHit> = {}): SearchHit => ({ entryId: "e1", kind: "user", timestamp: "2026-03-02T09:14:07.000Z", line: 2, snippet: "please refactor the report module", match: [7, 15], ...over });
const session = (path: string, hits: SearchHit[], title?: string): SessionHits => ({ path, agent: "pi", cwd: "/home/ana/p", ...(title ? { title } : {}), hits });

describe("search results view (pure parts)", () => {
  it("a request becomes the core's options: agent, project, kinds, date ranges from now, files", () => {
    const now = Date.UTC(2026, 2, 10, 15, 30);
    const o = searchOptions({ pattern: "x", regex: true, caseSensitive: true, agent: "claude-code", project: "alpha", date: "7d", kind: "tool-output", files: ["/a.jsonl"], limit: 5 }, now);
    assert.deepEqual(o, { pattern: "x", regex: true, caseSensitive: true, only: ["claude-code"], project: "alpha", since: now - 7 * 86_400_000, kinds: ["tool-result", "shell"], files: ["/a.jsonl"], limit: 5 });
    assert.equal(searchOptions({ pattern: "x", date: "30d" }, now).since, now - 30 * 86_400_000);
    const today = new Date(now);
    assert.equal(searchOptions({ pattern: "x", date: "today" }, now).since, new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime());
    // "any" adds nothing: every agent, kind and date.
    assert.deepEqual(searchOptions({ pattern: "x", date: "any", kind: "any" }, now), { pattern: "x", regex: undefined, caseSensitive: undefined, limit: DEFAULT_LIMIT });
    assert.deepEqual(searchOptions({ pattern: "x", kind: "user" }).kinds, ["user"]);
    assert.deepEqual(searchOptions({ pattern: "x", kind: "summaries" }).kinds, ["summary"]);
  });

  it("the request's one-line description names the pattern, its switches and the filters set", () => {
    assert.equal(describeRequest({ pattern: "refactor" }), '"refactor"');
    assert.equal(describeRequest({ pattern: "re.+x", regex: true, caseSensitive: true, agent: "pi", date: "today", kind: "user" }), "/re.+x/ (regex, match case) · pi · today · user prompts only");
    assert.equal(describeRequest({ pattern: "a\u202eb", files: ["/x/y/s.jsonl"] }), '"a⟨U+202E⟩b" · in s.jsonl');
  });

  it("results gather sessions in arrival order and count hits; the message follows the search to its end", () => {
    const r = new SearchResults({ pattern: "refactor" });
    assert.equal(resultsMessage(r), "Searching… 0 sessions, 0 hits");
    r.add(session("/s/a.jsonl", [hit(), hit({ entryId: "e2" })]));
    r.scanned = { files: 3, bytes: 100 };
    assert.equal(resultsMessage(r), "Searching… 1 session, 2 hits");
    r.add(session("/s/b.jsonl", [hit()]));
    assert.deepEqual(r.sessions.map((s) => s.path), ["/s/a.jsonl", "/s/b.jsonl"]);
    r.status = "done";
    assert.equal(resultsMessage(r), "3 hits in 2 sessions (3 files searched).");
    assert.deepEqual(r.outcome(), { status: "done", sessions: 2, hits: 3, scanned: { files: 3, bytes: 100 } });
    r.limited = true;
    assert.match(resultsMessage(r), /stopped at 3 hits/);
    r.status = "cancelled";
    assert.equal(resultsMessage(r), "Cancelled: 3 hits in 2 sessions so far (3 files searched).");
    // A search still marked running when asked for its outcome was stopped.
    const running = new SearchResults({ pattern: "x" });
    assert.equal(running.outcome().status, "cancelled");
  });

  it("no match, no sessions, a failure: each says so", () => {
    const none = new SearchResults({ pattern: "zzz" });
    none.status = "done";
    none.scanned = { files: 1, bytes: 10 };
    assert.equal(resultsMessage(none), "No matches (1 file searched).");
    const empty = new SearchResults({ pattern: "x" });
    empty.status = "done";
    empty.noSessionsUnder = "/home/ana/.pi/agent/sessions (pi)";
    assert.equal(resultsMessage(empty), "No sessions to search under /home/ana/.pi/agent/sessions (pi).");
    const filtered = new SearchResults({ pattern: "x", project: "nowhere" });
    filtered.status = "done";
    filtered.noSessionsUnder = "/r (pi)";
    assert.equal(resultsMessage(filtered), "No session matches the filters (looked under /r (pi)).");
    const bad = new SearchResults({ pattern: "(", regex: true });
    bad.status = "failed";
    bad.error = "invalid regular expression /(/: Unterminated group";
    assert.equal(resultsMessage(bad), "Search failed: invalid regular expression /(/: Unterminated group");
    assert.deepEqual(bad.outcome(), { status: "failed", sessions: 0, hits: 0, scanned: { files: 0, bytes: 0 }, error: bad.error });
  });

  it("a session node is titled from the listing, else the search's title, else the file name; marked and cut", () => {
    const s = session("/s/2026-03-02_ab.jsonl", [], "first prompt");
    assert.equal(sessionLabel(s, "Listed name"), "Listed name");
    assert.equal(sessionLabel(s), "first prompt");
    assert.equal(sessionLabel(session("/s/2026-03-02_ab.jsonl", [])), "2026-03-02_ab.jsonl");
    assert.equal(sessionLabel(s, "evil\u202ename"), "evil⟨U+202E⟩name");
    assert.ok(sessionLabel(s, "n".repeat(500)).length <= 120);
  });

  it("a hit's label keeps a short lead-in so the match shows, and its highlight lands on the match after marking", () => {
    assert.deepEqual(hitLabel(hit()), { label: "please refactor the report module", highlight: [7, 15] });
    const lead = "a".repeat(60);
    const long = hitLabel({ snippet: `…${lead}MATCH tail`, match: [61, 66] });
    assert.ok(long.label.startsWith("…") && long.label.length < 50, long.label);
    assert.equal(long.label.slice(...long.highlight), "MATCH");
    // A sidebar row shows about 30 characters: the match starts within the first 15, marks counted.
    assert.ok(long.highlight[0] <= 15, `match at ${long.highlight[0]}: ${long.label}`);
    const words = hitLabel({ snippet: "we looked at the whole parser module and then found the TARGET here", match: [56, 62] });
    assert.ok(words.highlight[0] <= 15 && words.label.slice(...words.highlight) === "TARGET", words.label);
    assert.ok(/^…\w/.test(words.label), `starts at a word: ${words.label}`);
    const hidden = hitLabel({ snippet: `${"\u202e".repeat(10)}MATCH`, match: [10, 15] });
    assert.ok(hidden.highlight[0] <= 15, `marks count toward the lead-in: ${hidden.label}`);
    assert.ok(!/^…[^⟨]*⟩/.test(hidden.label), `not cut inside a mark: ${hidden.label}`);
    // Hidden characters before and inside the match become marks: the highlight moves with them.
    const marked = hitLabel({ snippet: "x\u202ey FOO\u0007BAR end", match: [4, 11] });
    assert.equal(marked.label, "x⟨U+202E⟩y FOO⟨U+0007⟩BAR end");
    assert.equal(marked.label.slice(...marked.highlight), "FOO⟨U+0007⟩BAR");
    // A match longer than the row: the label is cut and the highlight ends with it.
    const huge = hitLabel({ snippet: `ab${"m".repeat(300)}`, match: [2, 302] });
    assert.ok(huge.label.length <= 160);
    assert.ok(huge.highlight[1] <= huge.label.length && huge.highlight[0] === 2);
  });

  it("time, tooltip and icon of a hit", () => {
    const d = new Date("2026-03-02T09:14:07.000Z");
    const p = (n: number) => String(n).padStart(2, "0");
    assert.equal(hitTime("2026-03-02T09:14:07.000Z"), `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`);
    assert.equal(hitTime(null), "");
    assert.equal(hitTime("not a time"), "");
    const tip = hitTooltip(hit({ snippet: "<b>bold</b> \u202e", entryId: "id\u0000x" }));
    assert.match(tip, /^user · .* · line 2 · entry id⟨U\+0000⟩x\n\n<b>bold<\/b> ⟨U\+202E⟩$/);
    assert.equal(kindIcon("tool-result"), "output");
    assert.equal(kindIcon("user"), "account");
  });

  it("a regex stopped at its deadline: the message names it and the hits kept", () => {
    const r = new SearchResults({ pattern: "(a+)+$", regex: true });
    r.add(session("/s/a.jsonl", [hit()]));
    r.status = "failed";
    r.error = "the regular expression /(a+)+$/ ran for more than 2 s on one entry (line 3 of /s/a.jsonl) and was stopped: it backtracks too much";
    assert.equal(resultsMessage(r), `Search failed: ${r.error} (1 hit in 1 session found before it stopped)`);
    assert.deepEqual(r.outcome(), { status: "failed", sessions: 1, hits: 1, scanned: { files: 0, bytes: 0 }, error: r.error });
  });

  it("a sub-agent's hit: its row and tooltip name the sub-agent, its click opens the sub-agent's transcript", () => {
    const sub = hit({ subagent: { agentId: "a1", description: "Compare the libraries", path: "/p/s1/subagents/agent-a1.jsonl" } });
    assert.equal(hitSubagent(sub), "sub-agent a1");
    assert.equal(hitSubagent(hit()), "");
    assert.match(hitTooltip(sub), /^user · .* · line 2 · entry e1\nIn sub-agent a1: Compare the libraries\n\nplease refactor/);
    assert.equal(hitFile(session("/p/s1.jsonl", [sub]), sub), "/p/s1/subagents/agent-a1.jsonl");
    assert.equal(hitFile(session("/p/s1.jsonl", [hit()]), hit()), "/p/s1.jsonl");
  });
});
