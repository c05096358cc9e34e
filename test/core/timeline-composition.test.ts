import { strict as assert } from "node:assert";
import { claudeCodeIndexHooks } from "../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../src/core/session/memory-session";
import { Session } from "../../src/core/formats/pi/pi-session";
import { formatOf } from "../../src/core/formats/registry";
import type { SessionReader } from "../../src/core/session/session-reader";
import { messageTokens } from "../../src/core/usage/format-tokens";
import type { StepComposition } from "../../src/core/usage/step-composition";
import { contextTimeline, timelinePosition } from "../../src/core/usage/timeline";
import { assistant, entry, header, toolResult, user, writeSession } from "../helpers/session-builder";
import * as cc from "../formats/claude-code/lines";

const usage = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output });
const ZERO = usage(0, 0);
const withUsage = (r: cc.Raw, u: cc.Raw | undefined): cc.Raw => ({ ...r, message: { ...(r.message as cc.Raw), usage: u } });
const sum = (c: StepComposition) => Object.values(c).reduce((a, b) => a + (b ?? 0), 0);

/** chars/4 of the message `id` stands for in the context at `leaf`. */
function tokensOf(s: SessionReader, leaf: string, id: string): number {
  const m = formatOf(s).context(s, s.requireIndex(leaf)).messages.find((x) => x.entryId === id);
  assert.ok(m, `${id} is in the context at ${leaf}`);
  return messageTokens(m.message);
}

/** Issue 24: the growth chart's composition per step (system and tools, summaries, user, assistant, tool results, thinking). */
describe("context timeline: what each step's context held, by kind", () => {
  async function piSession(): Promise<Session> {
    return Session.load(
      writeSession([
        header(),
        user("u1", null, "hello ".repeat(100)),
        assistant("a1", "u1", "", { thinking: "t".repeat(800), toolCalls: [{ id: "t1", name: "read", arguments: { path: "a.ts" } }], usage: usage(5000, 300) }),
        toolResult("r1", "a1", "t1", "read", "x".repeat(4000)),
        assistant("a2", "r1", "the file holds x".repeat(20), { usage: ZERO }),
        user("u2", "a2", "now shorten it"),
        assistant("a3", "u2", "shortened", { usage: usage(9000, 20) }),
        entry("compaction", "c1", "a3", { summary: "s".repeat(400), firstKeptEntryId: "u2", tokensBefore: 9020 }),
        user("u3", "c1", "and test it"),
        assistant("a4", "u3", "tested", { usage: ZERO }),
      ]),
    );
  }

  it("pi: every step's parts add up to its size; a recorded step's overhead is 'system', its thinking and tool call split from the text", async () => {
    const s = await piSession();
    const t = contextTimeline(s, s.requireIndex("a4"));
    for (const p of t.points) assert.equal(sum(p.composition), p.tokens, `${p.entryId}: ${JSON.stringify(p.composition)} adds up to ${p.tokens}`);
    const a1 = t.points[0].composition;
    assert.equal(a1.user, tokensOf(s, "a1", "u1"));
    assert.ok((a1.thinking ?? 0) > 150 && (a1.toolCall ?? 0) > 0, JSON.stringify(a1));
    assert.equal(a1.assistant, undefined, "a response of thinking and a tool call has no text part");
    assert.equal(a1.system, 5300 - tokensOf(s, "a1", "u1") - tokensOf(s, "a1", "a1"), "system = recorded size - the messages' estimate");
    assert.equal(a1.toolResult, undefined);
    // The estimated step after it grows by the result and the reply, and keeps the overhead.
    const a2 = t.points[1].composition;
    assert.equal(a2.toolResult, tokensOf(s, "a2", "r1"));
    assert.equal(a2.system, a1.system);
  });

  it("pi: after a compaction the context is its summary, the kept messages and what follows; the compaction's own after is split too", async () => {
    const s = await piSession();
    const t = contextTimeline(s, s.requireIndex("a4"));
    const c = t.compactions[0];
    assert.equal(sum(c.afterComposition), c.after);
    assert.equal(c.afterComposition.summary, tokensOf(s, "a4", "c1"));
    assert.equal(c.afterComposition.toolResult, undefined, "the read's result was compacted away");
    const a4 = t.points[3].composition;
    assert.equal(a4.summary, tokensOf(s, "a4", "c1"));
    assert.equal(a4.toolResult, undefined);
    assert.equal(a4.thinking, undefined);
    assert.equal(a4.user, tokensOf(s, "a4", "u2") + tokensOf(s, "a4", "u3"));
  });

  it("messages estimated above a recorded size are drawn as shares of it: no 'system', still adding up", async () => {
    const s = await Session.load(writeSession([header(), user("u1", null, "word ".repeat(4000)), assistant("a1", "u1", "ok", { usage: usage(100, 5) })]));
    const p = contextTimeline(s, s.requireIndex("a1")).points[0];
    assert.equal(p.tokens, 105);
    assert.equal(sum(p.composition), 105);
    assert.equal(p.composition.system, undefined);
    assert.ok((p.composition.user ?? 0) > 100);
  });

  it("Claude Code: a response's thinking and tool_use lines count as thinking and tool calls, its tool result as a tool result", () => {
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, [
      cc.user("u1", null, "read it"),
      cc.fragment("a1", "u1", "msg_1", cc.thinking("let me look ".repeat(40))),
      withUsage(cc.fragment("a2", "a1", "msg_1", cc.toolUse("t1", "Read", { file_path: "/p/a.ts" })), { input_tokens: 3000, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 40 }),
      cc.toolResult("r1", "a2", "t1", "x".repeat(4000)),
      withUsage(cc.fragment("a3", "r1", "msg_2", cc.text("it holds x")), undefined),
    ]);
    const t = contextTimeline(s, s.requireIndex("a3"));
    const [first, second] = t.points.map((p) => p.composition);
    assert.ok((first.thinking ?? 0) > 100 && (first.toolCall ?? 0) > 0 && (first.system ?? 0) > 0, JSON.stringify(first));
    assert.ok((second.toolResult ?? 0) >= 1000, JSON.stringify(second));
    for (const p of t.points) assert.equal(sum(p.composition), p.tokens);
  });

  it("timelinePosition: an entry's place on the path the points' index counts; -1 off the path", async () => {
    const s = await Session.load(writeSession([header(), user("u1", null, "q"), assistant("a1", "u1", "x"), user("u2", "a1", "left"), assistant("a2", "u2", "l"), user("u3", "a1", "right"), assistant("a3", "u3", "r")]));
    const leaf = s.requireIndex("a2");
    const t = contextTimeline(s, leaf);
    assert.equal(timelinePosition(s, leaf, "a2"), t.points[1].index);
    assert.equal(timelinePosition(s, leaf, "u2"), t.points[1].index - 1);
    assert.equal(timelinePosition(s, leaf, "u3"), -1, "another branch");
    assert.equal(timelinePosition(s, leaf, "nope"), -1);
  });
});
