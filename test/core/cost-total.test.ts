import { strict as assert } from "node:assert";
import { utimesSync } from "node:fs";
import { join } from "node:path";
import { MemorySession } from "../../src/core/session/memory-session";
import { piFormat } from "../../src/core/formats/pi/format";
import { seed000Format } from "../../src/core/formats/seed-000/format";
import { costTargets, scanCosts } from "../../src/core/usage/cost-scan";
import { costTotal, inRange, parseDateBound, presetRange } from "../../src/core/usage/cost-total";
import { costTotalText, rangeText } from "../../src/core/usage/cost-total-text";
import { sessionCost } from "../../src/core/usage/session-cost";
import * as seed from "../formats/seed-000/helpers";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

const close = (a: number, b: number, what = "") => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);
const T = (iso: string) => Date.parse(iso);

/** A pi assistant entry with a recorded cost, written at `at`. */
function paid(id: string, parent: string, usd: number, at: string, model = "claude-sonnet-4-5") {
  const e = assistant(id, parent, "ok", { model, usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: usd } } });
  e.timestamp = at;
  return e;
}

function pi(path: string, records: Array<Record<string, unknown>>) {
  return sessionCost(new MemorySession(piFormat.id, piFormat.index, records, path, 1, 3), piFormat);
}

// Session A runs over midnight (two days, two models); B is a day later; C has a step without a time.
const A = pi("/s/a.jsonl", [user("u1", null, "hi"), paid("a1", "u1", 0.1, "2026-05-01T23:59:00.000Z"), user("u2", "a1", "more"), paid("a2", "u2", 0.2, "2026-05-02T00:01:00.000Z", "claude-opus-4-5")]);
const B = pi("/s/b.jsonl", [user("u1", null, "hi"), paid("b1", "u1", 0.05, "2026-05-03T12:00:00.000Z")]);
const C = pi("/s/c.jsonl", [user("u1", null, "hi"), paid("c1", "u1", 1, "not a time")]);
const sessions = [
  { path: "/s/a.jsonl", agent: "pi", project: "/p/one", cost: A },
  { path: "/s/b.jsonl", agent: "pi", project: "/p/two", cost: B },
  { path: "/s/c.jsonl", agent: "pi", project: "/p/two", cost: C, parent: "/s/b.jsonl" },
];

describe("cost total: many sessions", () => {
  it("sums every step without a range, undated ones included", () => {
    const t = costTotal(sessions);
    close(t.total.usd, 1.35, "total");
    assert.equal(t.total.steps, 4);
    assert.equal(t.undatedSteps, 0);
    assert.deepEqual(t.range, { since: null, until: null });
    assert.deepEqual(t.byDay.map((d) => [d.day, d.steps]), [["2026-05-01", 1], ["2026-05-02", 1], ["2026-05-03", 1], ["unknown", 1]]);
    assert.deepEqual(t.sessions.map((s) => s.path), ["/s/c.jsonl", "/s/a.jsonl", "/s/b.jsonl"], "most expensive first");
    assert.equal(t.sessions[0].parent, "/s/b.jsonl");
  });

  it("sums by model and by project", () => {
    const t = costTotal(sessions);
    assert.deepEqual(t.byModel.map((m) => m.model), ["claude-sonnet-4-5", "claude-opus-4-5"]);
    close(t.byModel[0].usd, 1.15, "sonnet");
    close(t.byModel[1].usd, 0.2, "opus");
    assert.deepEqual(t.byProject.map((p) => p.project), ["/p/two", "/p/one"]);
    close(t.byProject[0].usd, 1.05, "two");
    close(t.byProject[1].usd, 0.3, "one");
  });

  it("filters by each step's own time: a session over midnight adds only its steps inside the range", () => {
    const t = costTotal(sessions, { since: T("2026-05-02T00:00:00.000Z") });
    close(t.total.usd, 0.25, "a2 + b1");
    assert.deepEqual(t.byDay.map((d) => d.day), ["2026-05-02", "2026-05-03"]);
    assert.deepEqual(t.byModel.map((m) => [m.model, m.steps]), [["claude-opus-4-5", 1], ["claude-sonnet-4-5", 1]]);
    assert.equal(t.undatedSteps, 1, "c1 has no time");
    assert.deepEqual(t.sessions.map((s) => [s.path, s.steps]), [["/s/a.jsonl", 1], ["/s/b.jsonl", 1]]);
    assert.equal(t.range.since, "2026-05-02T00:00:00.000Z");
  });

  it("the end of a range is excluded", () => {
    const t = costTotal(sessions, { since: T("2026-05-01T00:00:00.000Z"), until: T("2026-05-02T00:01:00.000Z") });
    close(t.total.usd, 0.1, "only a1");
    assert.equal(t.total.steps, 1);
    assert.ok(inRange(T("2026-05-02T00:00:59.999Z"), { until: T("2026-05-02T00:01:00.000Z") }));
    assert.ok(!inRange(Number.NaN, { until: 1 }));
    assert.ok(inRange(Number.NaN, {}));
  });

  it("presets are whole UTC days ending today; dates parse as UTC days, an end day included", () => {
    const now = T("2026-11-25T16:00:00.000Z");
    assert.deepEqual(presetRange("today", now), { since: T("2026-11-25T00:00:00.000Z") });
    assert.deepEqual(presetRange("7d", now), { since: T("2026-11-19T00:00:00.000Z") });
    assert.deepEqual(presetRange("30d", now), { since: T("2026-10-27T00:00:00.000Z") });
    assert.deepEqual(presetRange("all", now), {});
    assert.equal(parseDateBound("2026-11-01"), T("2026-11-01T00:00:00.000Z"));
    assert.equal(parseDateBound("2026-11-01", true), T("2026-11-02T00:00:00.000Z"));
    assert.equal(parseDateBound("2026-11-01T10:00:00+01:00"), T("2026-11-01T09:00:00.000Z"));
    for (const bad of ["2026-02-30", "yesterday", "2026-11-01T10:00", "11/01/2026", ""]) assert.equal(parseDateBound(bad), undefined, bad);
    assert.equal(rangeText({ since: "2026-11-19T00:00:00.000Z", until: null }), "since 2026-11-19 (UTC)");
    assert.equal(rangeText({ since: null, until: null }), "all time");
  });
});

describe("cost scan: files from a listing", () => {
  function files() {
    const dir = tempDir();
    const a = writeSession([header(), user("u1", null, "hi"), paid("a1", "u1", 0.1, "2026-05-01T10:00:00.000Z")], { dir, name: "a.jsonl" });
    const sub = writeSession([header(), user("v1", null, "sub task"), paid("v2", "v1", 0.02, "2026-05-01T10:05:00.000Z", "claude-haiku-4-5")], { dir, name: "sub.jsonl" });
    const old = writeSession([header(), user("w1", null, "old"), paid("w2", "w1", 5, "2026-04-01T10:00:00.000Z")], { dir, name: "old.jsonl" });
    utimesSync(old, new Date("2026-04-01T11:00:00Z"), new Date("2026-04-01T11:00:00Z"));
    const s = writeSession([seed.user("u1", null, "q"), { ...seed.assistant("a1", "u1", "a", { model: "local-llama", usage: { input_tokens: 2000, output_tokens: 100 } }), timestamp: T("2026-05-01T11:00:00Z") }], { dir, name: "seed.jsonl" });
    // Listed, then gone before it is read.
    const broken = join(dir, "gone.jsonl");
    const at = (path: string, mtimeMs: number) => ({ path, agent: "pi", id: path, cwd: "/p", created: "", firstMessage: "", entryCount: 2, size: 1, mtimeMs });
    const now = Date.now();
    const projects = [
      { cwd: "/p", sessions: [{ ...at(a, now), subagents: [{ path: sub, agentId: "x", size: 1, mtimeMs: now }] }, at(old, T("2026-04-01T11:00:00Z")), { ...at(s, now), agent: seed000Format.id }, at(broken, now)] },
    ];
    return { a, sub, old, s, broken, projects };
  }

  it("lists sub-agent transcripts after their session, under its project and agent", () => {
    const f = files();
    assert.deepEqual(costTargets(f.projects).map((t) => [t.path, t.parent ?? null]), [[f.a, null], [f.sub, f.a], [f.old, null], [f.s, null], [f.broken, null]]);
  });

  it("loads each file once, reports unreadable ones, and skips files last written before the range", async () => {
    const f = files();
    const seen: number[] = [];
    const r = await scanCosts(costTargets(f.projects), { range: { since: T("2026-05-01T00:00:00.000Z") }, onProgress: (done) => seen.push(done) });
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
    assert.equal(r.filesRead, 3);
    assert.equal(r.filesBefore, 1, "old.jsonl was not read");
    assert.deepEqual(r.failed.map((x) => x.path), [f.broken]);
    close(r.total.usd, 0.12, "a1 + the sub-agent");
    assert.equal(r.total.unpricedSteps, 1);
    assert.deepEqual(r.unpricedModels, ["local-llama"]);
    assert.deepEqual(r.sessions.map((s) => s.path), [f.a, f.sub, f.s]);
    const text = costTotalText(r);
    assert.match(text, /^3 session file\(s\) with steps \(1 of them sub-agent transcripts\), since 2026-05-01 \(UTC\)$/m);
    assert.match(text, /^total \$0\.1200 {2}3 step\(s\): 2 recorded \$0\.1200, 0 priced \$0\.0000, 1 unpriced$/m);
    assert.match(text, /not in the total: 2\.1k tokens of local-llama/);
    assert.match(text, /^read 3 file\(s\); 1 last written before the range, not read; 1 could not be read/m);
    assert.match(text, /sub-agent of .*a\.jsonl\)$/m);
  });

  it("prices apply to every file; a cancelled scan stops with the signal's reason", async () => {
    const f = files();
    const r = await scanCosts(costTargets(f.projects), { prices: { "local-": { input: 1, output: 10, cacheWrite: 0, cacheRead: 0 } } });
    assert.equal(r.total.unpricedSteps, 0);
    close(r.total.usd, 5.12 + (2000 + 100 * 10) / 1e6, "every file, the priced one included");
    const ac = new AbortController();
    await assert.rejects(
      scanCosts(costTargets(f.projects), { signal: ac.signal, onProgress: (done) => done === 2 && ac.abort(new Error("stop")) }),
      /stop/,
    );
  });
});
