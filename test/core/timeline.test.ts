import { strict as assert } from "node:assert";
import { claudeCodeFormat } from "../../src/core/formats/claude-code/format";
import { claudeCodeIndexHooks } from "../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../src/core/session/memory-session";
import { Session } from "../../src/core/formats/pi/pi-session";
import { formatOf } from "../../src/core/formats/registry";
import type { SessionReader } from "../../src/core/session/session-reader";
import { leafTokenSummary, messageTokens } from "../../src/core/usage/format-tokens";
import { contextTimeline, contextTimelineAsync } from "../../src/core/usage/timeline";
import { fixture, needFixtures } from "../helpers/fixtures";
import { assistant, entry, header, toolResult, user, writeSession } from "../helpers/session-builder";
import * as cc from "../formats/claude-code/lines";

/** chars/4 of the message entry `id` stands for in the context the format builds at `leaf`. */
function tokensOf(s: SessionReader, leaf: string, id: string): number {
  const m = formatOf(s).context(s, s.requireIndex(id === leaf ? id : leaf)).messages.find((x) => x.entryId === id);
  assert.ok(m, `${id} is a message of the context at ${leaf}`);
  return messageTokens(m.message);
}

const usage = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({ input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite });
const ZERO = usage(0, 0);

async function piSession(): Promise<Session> {
  return Session.load(
    writeSession([
      header(),
      user("u1", null, "hello ".repeat(100)),
      assistant("a1", "u1", "", { toolCalls: [{ id: "t1", name: "read", arguments: { path: "a.ts" } }], usage: usage(1000, 50, 200, 300) }),
      toolResult("r1", "a1", "t1", "read", "x".repeat(4000)),
      assistant("a2", "r1", "the file holds x".repeat(20), { usage: ZERO }),
      user("u2", "a2", "now shorten it"),
      assistant("a3", "u2", "shortened", { usage: usage(3000, 20) }),
      entry("compaction", "c1", "a3", { summary: "s".repeat(400), firstKeptEntryId: "u2", tokensBefore: 90100 }),
      user("u3", "c1", "and test it"),
      assistant("a4", "u3", "tested", { usage: ZERO }),
      assistant("a5", "a4", "done", { usage: usage(500, 10, 100) }),
    ]),
  );
}

describe("context timeline (core, every format)", () => {
  it("pi: one point per assistant step, recorded where usage is, estimated from the point before plus what was added", async () => {
    const s = await piSession();
    const t = contextTimeline(s, s.requireIndex("a5"));
    assert.equal(t.leafId, "a5");
    assert.deepEqual(t.points.map((p) => [p.entryId, p.source]), [["a1", "recorded"], ["a2", "estimated"], ["a3", "recorded"], ["a4", "estimated"], ["a5", "recorded"]]);
    assert.deepEqual(t.points.map((p) => p.index), [1, 3, 5, 8, 9], "positions on the path (u1 is 0)");
    assert.equal(t.points[0].tokens, 1550, "input + output + cache reads + cache writes");
    assert.equal(t.points[1].tokens, 1550 + tokensOf(s, "a2", "r1") + tokensOf(s, "a2", "a2"));
    assert.equal(t.points[2].tokens, 3020);
    assert.equal(t.points[4].tokens, 610);
    assert.match(t.points[0].time ?? "", /^\d{4}-\d\d-\d\dT/);
  });

  it("pi: a compaction drops from its recorded tokensBefore to the estimate of its summary and kept messages (u2, a3)", async () => {
    const s = await piSession();
    const t = contextTimeline(s, s.requireIndex("a5"));
    assert.equal(t.compactions.length, 1);
    const c = t.compactions[0];
    const after = tokensOf(s, "a5", "c1") + tokensOf(s, "a5", "u2") + tokensOf(s, "a5", "a3");
    assert.deepEqual(c, { entryId: "c1", index: 6, time: c.time, before: 90100, beforeSource: "recorded", after, afterSource: "estimated", afterComposition: c.afterComposition });
    // The step after it grows from what the compaction left, not from the size before it.
    assert.equal(t.points[3].tokens, after + tokensOf(s, "a5", "u3") + tokensOf(s, "a5", "a4"));
  });

  it("pi: threshold, window and model are the leaf's (leafTokenSummary); --window reaches them", async () => {
    const s = await piSession();
    const leaf = s.requireIndex("a5");
    const t = contextTimeline(s, leaf);
    const sum = leafTokenSummary(s, formatOf(s), leaf);
    assert.equal(t.window, sum.contextWindow);
    assert.equal(t.threshold, sum.threshold);
    assert.equal(t.model, "claude-sonnet-4-5");
    assert.ok(t.threshold > 0 && t.threshold < t.window);
    assert.equal(contextTimeline(s, leaf, { windows: { "": 50_000 } }).window, 50_000);
  });

  it("with nothing recorded, each point is the estimate of the whole context up to it", async () => {
    const s = await Session.load(writeSession([header(), user("u1", null, "a ".repeat(300)), assistant("a1", "u1", "b ".repeat(200), { usage: ZERO }), user("u2", "a1", "c ".repeat(100)), assistant("a2", "u2", "d", { usage: ZERO })]));
    const t = contextTimeline(s, s.requireIndex("a2"));
    assert.deepEqual(t.points.map((p) => p.source), ["estimated", "estimated"]);
    const whole = (leaf: string, ids: string[]) => ids.reduce((n, id) => n + tokensOf(s, leaf, id), 0);
    assert.equal(t.points[0].tokens, whole("a1", ["u1", "a1"]));
    assert.equal(t.points[1].tokens, whole("a2", ["u1", "a1", "u2", "a2"]));
  });

  it("the async form gives the same timeline, yields between stretches, and stops when aborted", async () => {
    const s = await piSession();
    const leaf = s.requireIndex("a5");
    assert.deepEqual(await contextTimelineAsync(s, leaf, { sliceMs: 0 }), contextTimeline(s, leaf));
    const stop = new AbortController();
    const run = contextTimelineAsync(s, leaf, { sliceMs: 0, signal: stop.signal });
    stop.abort(new Error("a newer timeline was asked for"));
    await assert.rejects(run, /a newer timeline was asked for/);
  });

  it("a leaf on another branch gets its own path; no leaf gives an empty timeline", async () => {
    const s = await Session.load(writeSession([header(), user("u1", null, "q"), assistant("a1", "u1", "x"), user("u2", "a1", "left"), assistant("a2", "u2", "l"), user("u3", "a1", "right"), assistant("a3", "u3", "r")]));
    assert.deepEqual(contextTimeline(s, s.requireIndex("a2")).points.map((p) => p.entryId), ["a1", "a2"]);
    assert.deepEqual(contextTimeline(s, s.requireIndex("a3")).points.map((p) => p.entryId), ["a1", "a3"]);
    const none = contextTimeline(s, -1);
    assert.deepEqual([none.leafId, none.points, none.compactions], [null, [], []]);
    assert.ok(none.window > 0);
  });

  it("the real pi session before-compaction.jsonl: two compactions from their recorded tokensBefore, mostly recorded steps", async function () {
    needFixtures(this);
    const s = await Session.load(fixture("before-compaction.jsonl"));
    const t = contextTimeline(s, formatOf(s).defaultLeaf(s));
    assert.deepEqual(t.compactions.map((c) => [c.before, c.beforeSource]), [[175004, "recorded"], [185014, "recorded"]]);
    for (const c of t.compactions) assert.ok(c.after > 0 && c.after < c.before / 5, `after ${c.after}`);
    assert.ok(t.points.filter((p) => p.source === "recorded").length > 0.9 * t.points.length);
    const last = t.points[t.points.length - 1];
    assert.equal(last.source, "recorded");
    assert.ok(last.tokens < t.window);
  });

  describe("Claude Code", () => {
    const ccSession = (records: cc.Raw[]) => new MemorySession("claude-code", claudeCodeIndexHooks, records);
    const withUsage = (r: cc.Raw, u: cc.Raw | undefined): cc.Raw => ({ ...r, message: { ...(r.message as cc.Raw), usage: u } });
    const FINAL = { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 40 };

    function records(meta: cc.Raw): cc.Raw[] {
      return [
        cc.user("u1", null, "read it"),
        cc.fragment("a1", "u1", "msg_1", cc.thinking("let me look")),
        withUsage(cc.fragment("a2", "a1", "msg_1", cc.toolUse("t1", "Read", { file_path: "/p/a.ts" })), FINAL),
        cc.toolResult("r1", "a2", "t1", "x".repeat(4000)),
        withUsage(cc.fragment("a3", "r1", "msg_2", cc.text("it holds x")), undefined),
        cc.boundary("b1", "a3", meta),
        cc.compactSummary("s1", "b1", "we read a.ts"),
        cc.user("u2", "s1", "go on"),
        withUsage(cc.fragment("a4", "u2", "msg_3", cc.text("going")), undefined),
      ];
    }

    it("a response written over several lines is one point, recorded from the usage on its last line", () => {
      const s = ccSession(records({ preTokens: 50_000, postTokens: 3_000 }));
      const t = contextTimeline(s, s.requireIndex("a4"));
      assert.deepEqual(t.points.map((p) => [p.entryId, p.source]), [["a2", "recorded"], ["a3", "estimated"], ["a4", "estimated"]]);
      assert.equal(t.points[0].tokens, 1150);
      assert.equal(t.points[1].tokens, 1150 + tokensOf(s, "a3", "r1") + tokensOf(s, "a3", "a3"));
      // The same session through the format object the registry hands out.
      assert.equal(formatOf(s), claudeCodeFormat);
    });

    it("a compaction drops from preTokens to postTokens, and the next step grows from postTokens", () => {
      const s = ccSession(records({ preTokens: 50_000, postTokens: 3_000 }));
      const t = contextTimeline(s, s.requireIndex("a4"));
      assert.deepEqual(t.compactions.map((c) => [c.entryId, c.before, c.beforeSource, c.after, c.afterSource]), [["b1", 50_000, "recorded", 3_000, "recorded"]]);
      // The summary (and the prompt Claude Code sends with it as one message) is in postTokens.
      assert.equal(t.points[2].tokens, 3_000 + tokensOf(s, "a4", "a4"));
      assert.ok(t.compactions[0].index > t.points[1].index && t.compactions[0].index < t.points[2].index);
    });

    it("without preTokens and postTokens: before is the last point, after the estimate of what the compaction left", () => {
      const s = ccSession(records({ preTokens: undefined }));
      const t = contextTimeline(s, s.requireIndex("a4"));
      const c = t.compactions[0];
      assert.equal(c.before, t.points[1].tokens);
      assert.equal(c.beforeSource, "estimated");
      assert.equal(c.after, tokensOf(s, "a4", "s1"));
      assert.equal(c.afterSource, "estimated");
      assert.equal(t.points[2].tokens, c.after + tokensOf(s, "a4", "a4"));
    });

    it("a compaction that kept messages (its boundary a root of its own) is on the timeline where it was written", () => {
      const s = ccSession([
        cc.user("u1", null, "plan it"),
        withUsage(cc.fragment("a1", "u1", "msg_1", cc.text("planned")), { ...FINAL, output_tokens: 100 }),
        cc.user("u2", "a1", "do step 1"),
        withUsage(cc.fragment("a2", "u2", "msg_2", cc.text("step 1 done")), FINAL),
        cc.boundary("b1", "a2", { preTokens: 7_450, postTokens: 2_100, preservedSegment: { headUuid: "u2", anchorUuid: "s1", tailUuid: "a2" } }),
        cc.compactSummary("s1", "b1", "we planned"),
        cc.user("u3", "a2", "do step 2"),
        withUsage(cc.fragment("a3", "u3", "msg_3", cc.text("step 2 done")), undefined),
      ]);
      const t = contextTimeline(s, s.requireIndex("a3"));
      assert.deepEqual(t.points.map((p) => p.entryId), ["a1", "a2", "a3"]);
      assert.deepEqual(t.compactions.map((c) => [c.entryId, c.before, c.after]), [["b1", 7_450, 2_100]]);
      assert.ok(t.points[1].index < t.compactions[0].index && t.compactions[0].index < t.points[2].index);
      // What follows grows from postTokens (the kept u2 and a2 are in it).
      assert.equal(t.points[2].tokens, 2_100 + tokensOf(s, "a3", "u3") + tokensOf(s, "a3", "a3"));
    });

    it("threshold and window are the ones the bars use", () => {
      const s = ccSession(records({}));
      const leaf = s.requireIndex("a4");
      const t = contextTimeline(s, leaf);
      const sum = leafTokenSummary(s, claudeCodeFormat, leaf);
      assert.deepEqual([t.window, t.threshold, t.model], [sum.contextWindow, sum.threshold, "claude-sonnet-4-5-20250929"]);
    });
  });
});
