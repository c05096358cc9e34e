import { strict as assert } from "node:assert";
import { compactionChange } from "../../src/core/diff/compaction-change";
import { type DiffOp, diffContexts } from "../../src/core/diff/diff-contexts";
import { messageText } from "../../src/core/diff/message-text";
import { renderContextText } from "../../src/core/diff/render-text";
import { splitWords, wordDiff } from "../../src/core/util/word-diff";
import { claudeCodeIndexHooks } from "../../src/core/formats/claude-code/index-hooks";
import { clawdcodeIndexHooks } from "../../src/core/formats/clawdcode/index-hooks";
import { MemorySession } from "../../src/core/session/memory-session";
import { formatOf, openSession } from "../../src/core/formats/registry";
import type { SessionReader } from "../../src/core/session/session-reader";
import { leafTokenSummary, messageTokens } from "../../src/core/usage/format-tokens";
import * as cc from "../formats/claude-code/lines";
import * as cl from "../formats/clawdcode/lines";
import { assistant, entry, header, tempDir, toolResult, user, writeSession } from "../helpers/session-builder";

/** ops as short strings: "=u1", "-a2", "+b3", "~u2/u2b". */
function shape(ops: readonly DiffOp[]): string[] {
  return ops.map((o) => {
    if (o.op === "same") return `=${o.a.entryId}`;
    if (o.op === "onlyA") return `-${o.a.entryId}`;
    if (o.op === "onlyB") return `+${o.b.entryId}`;
    return `~${o.a.entryId}/${o.b.entryId}`;
  });
}

/** A pi session with a branch point after a1: u2/a2 on one side, u2b/a2b/u3b/a3b on the other. */
async function branched(): Promise<SessionReader> {
  return openSession(
    writeSession([
      header(),
      user("u1", null, "look at the parser"),
      assistant("a1", "u1", "I read it.", { usage: { input: 1000, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 1050 } }),
      user("u2", "a1", "please fix the parser bug now"),
      assistant("a2", "u2", "Fixed the parser."),
      user("u2b", "a1", "please fix the lexer bug now"),
      assistant("a2b", "u2b", "Fixed the lexer."),
      user("u3b", "a2b", "and add a test for it"),
      assistant("a3b", "u3b", "Added one test."),
    ]),
  );
}

const at = (s: SessionReader, id: string) => s.requireIndex(id);

describe("context diff: word diff", () => {
  it("keeps common words, marks removed and added ones in order", () => {
    const d = wordDiff("please fix the parser bug now", "please fix the lexer bug now");
    assert.equal(d.replaced, false);
    assert.deepEqual(d.runs, [
      { op: "=", text: "please fix the" },
      { op: "-", text: "parser" },
      { op: "+", text: "lexer" },
      { op: "=", text: "bug now" },
    ]);
  });

  it("finds a shortest edit in the middle (Myers), whitespace not compared", () => {
    const d = wordDiff("a b c a b b a", "c b a b a c");
    const removed = d.runs.filter((r) => r.op === "-").flatMap((r) => splitWords(r.text)).length;
    const added = d.runs.filter((r) => r.op === "+").flatMap((r) => splitWords(r.text)).length;
    // The classic example: 5 edits.
    assert.equal(removed + added, 5);
    // Replaying it gives both texts back.
    const oldBack = d.runs.filter((r) => r.op !== "+").map((r) => r.text).join(" ");
    const newBack = d.runs.filter((r) => r.op !== "-").map((r) => r.text).join(" ");
    assert.equal(oldBack, "a b c a b b a");
    assert.equal(newBack, "c b a b a c");
    assert.deepEqual(wordDiff("one  two\nthree", "one two three").runs, [{ op: "=", text: "one two three" }]);
  });

  it("empty sides, and a fallback to replaced above the limits", () => {
    assert.deepEqual(wordDiff("", "new words").runs, [{ op: "+", text: "new words" }]);
    assert.deepEqual(wordDiff("old", "").runs, [{ op: "-", text: "old" }]);
    assert.deepEqual(wordDiff("", "").runs, []);
    const big = wordDiff("keep x1 x2 x3 end", "keep y1 y2 y3 end", { maxWords: 4, maxEdits: 100 });
    assert.equal(big.replaced, true);
    assert.deepEqual(big.runs, [
      { op: "=", text: "keep" },
      { op: "-", text: "x1 x2 x3" },
      { op: "+", text: "y1 y2 y3" },
      { op: "=", text: "end" },
    ]);
    assert.equal(wordDiff("a b c d", "e f g h", { maxWords: 100, maxEdits: 3 }).replaced, true);
    assert.equal(wordDiff("a b c d", "e f g h", { maxWords: 100, maxEdits: 8 }).replaced, false);
  });

  it("a shared step budget: a diff that runs out of it is replaced, and the budget is drawn down", () => {
    const budget = { steps: 50 };
    const d = wordDiff("a b c d e f g h i j", "k l m n o p q r s t", { maxWords: 100, maxEdits: 100, budget });
    assert.equal(d.replaced, true);
    assert.ok(budget.steps <= 0, `left ${budget.steps}`);
    // Once spent, the next diff does not start.
    assert.equal(wordDiff("x y", "x z", { maxWords: 100, maxEdits: 100, budget }).replaced, true);
    const plenty = { steps: 1000 };
    assert.equal(wordDiff("x y", "x z", { maxWords: 100, maxEdits: 100, budget: plenty }).replaced, false);
    assert.ok(plenty.steps < 1000);
  });

  it("a 30,000-word text against itself with one word changed stays word-level; two unrelated ones are replaced", () => {
    const words = Array.from({ length: 30_000 }, (_, k) => `w${k}`);
    const changed = [...words];
    changed[15_000] = "CHANGED";
    const d = wordDiff(words.join(" "), changed.join(" "));
    assert.equal(d.replaced, false);
    assert.deepEqual(d.runs.map((r) => r.op), ["=", "-", "+", "="]);
    const other = Array.from({ length: 30_000 }, (_, k) => `v${k}`);
    assert.equal(wordDiff(words.join(" "), other.join(" ")).replaced, true);
  });
});

describe("context diff: two leaves", () => {
  it("identical leaves: everything is the shared prefix, no ops, no token difference", async () => {
    const s = await branched();
    const d = diffContexts({ session: s, leaf: at(s, "a2") }, { session: s, leaf: at(s, "a2") });
    assert.equal(d.sharedPrefix.messages, 4);
    assert.equal(d.sharedPrefix.tokens, d.contexts.a.messages.reduce((sum, m) => sum + messageTokens(m.message), 0));
    assert.deepEqual(d.ops, []);
    assert.equal(d.tokens.total.delta, 0);
    for (const k of Object.values(d.tokens.byKind)) assert.equal(k?.delta, 0);
  });

  it("a branch point: the prefix up to it, then the differing messages paired as changed with their word diff", async () => {
    const s = await branched();
    const d = diffContexts({ session: s, leaf: at(s, "a2") }, { session: s, leaf: at(s, "a3b") });
    assert.equal(d.sharedPrefix.messages, 2);
    assert.deepEqual(shape(d.ops), ["~u2/u2b", "~a2/a2b", "+u3b", "+a3b"]);
    const first = d.ops[0];
    assert.ok(first.op === "changed");
    assert.deepEqual(first.words, [
      { op: "=", text: "please fix the" },
      { op: "-", text: "parser" },
      { op: "+", text: "lexer" },
      { op: "=", text: "bug now" },
    ]);
    assert.deepEqual([first.a.index, first.b.index], [2, 2]);
    assert.equal(d.a.leafId, "a2");
    assert.equal(d.b.leafId, "a3b");
  });

  it("onlyA and onlyB, and the token difference per kind", async () => {
    const s = await branched();
    const d = diffContexts({ session: s, leaf: at(s, "a3b") }, { session: s, leaf: at(s, "a1") });
    assert.deepEqual(shape(d.ops), ["-u2b", "-a2b", "-u3b", "-a3b"]);
    const tok = (id: string) => messageTokens(d.contexts.a.messages.find((m) => m.entryId === id)?.message);
    assert.deepEqual(d.tokens.byKind.user, { a: tok("u1") + tok("u2b") + tok("u3b"), b: tok("u1"), delta: -(tok("u2b") + tok("u3b")) });
    assert.equal(d.tokens.byKind.assistant?.delta, -(tok("a2b") + tok("a3b")));
    assert.equal(d.tokens.messages.delta, -(tok("u2b") + tok("u3b") + tok("a2b") + tok("a3b")));
    // Both sides record usage: both have an overhead (from their own last step).
    const o = d.tokens.overhead;
    assert.ok(o && o.a !== null && o.b !== null);
    assert.equal(o.a, d.a.tokens.overhead?.tokens);
    assert.equal(o.delta, o.b - o.a);
    // The context size is the agent's count (recorded usage), not the sum of the estimates.
    assert.deepEqual(d.tokens.total, { a: d.a.contextTokens, b: d.b.contextTokens, delta: d.b.contextTokens - d.a.contextTokens });
  });

  it("messages of different kinds in a gap stay one-sided", async () => {
    const s = await openSession(
      writeSession([
        header(),
        user("u1", null, "start"),
        assistant("a1", "u1", "", { toolCalls: [{ id: "t1", name: "read", arguments: { path: "a.ts" } }] }),
        toolResult("r1", "a1", "t1", "read", "const a = 1;"),
        assistant("a2", "r1", "done"),
        user("x", "a1", "stop, do something else"),
      ]),
    );
    const d = diffContexts({ session: s, leaf: at(s, "r1") }, { session: s, leaf: at(s, "x") });
    assert.equal(d.sharedPrefix.messages, 2);
    assert.deepEqual(shape(d.ops), ["-r1", "+x"]);
    assert.equal(d.ops[0].op === "onlyA" && d.ops[0].a.kind, "toolResult");
  });

  it("a message of the same id with other content is changed, and the same ids after it are the same", () => {
    const lines = (middle: string) => [cl.user("u1", null, "hi"), cl.assistant("a1", "u1", middle), cl.user("u2", "a1", "go on"), cl.assistant("a2", "u2", "ok")];
    const A = new MemorySession("clawdcode", clawdcodeIndexHooks, lines("the old answer"));
    const B = new MemorySession("clawdcode", clawdcodeIndexHooks, lines("the new answer"));
    const d = diffContexts({ session: A, leaf: 3 }, { session: B, leaf: 3 });
    assert.equal(d.sharedPrefix.messages, 1);
    assert.deepEqual(shape(d.ops), ["~a1/a1", "=u2", "=a2"]);
    assert.deepEqual(d.ops[0].op === "changed" && d.ops[0].words, [
      { op: "=", text: "the" },
      { op: "-", text: "old" },
      { op: "+", text: "new" },
      { op: "=", text: "answer" },
    ]);
  });

  it("across two files: a fork and its source share the prefix up to the fork point", async () => {
    const s = await branched();
    const fork = formatOf(s).writer?.fork(s, "a2", { dir: tempDir() });
    assert.ok(fork);
    const f = await openSession(fork.path);
    const d = diffContexts({ session: f, leaf: formatOf(f).defaultLeaf(f) }, { session: s, leaf: at(s, "a3b") });
    assert.equal(d.a.path, fork.path);
    assert.equal(d.b.path, s.path);
    assert.equal(d.sharedPrefix.messages, 2);
    assert.deepEqual(shape(d.ops), ["~u2/u2b", "~a2/a2b", "+u3b", "+a3b"]);
    const same = diffContexts({ session: f, leaf: formatOf(f).defaultLeaf(f) }, { session: s, leaf: at(s, "a2") });
    assert.equal(same.sharedPrefix.messages, 4);
    assert.deepEqual(same.ops, []);
  });

  it("identical messages under other ids (a copy whose ids were rewritten) pair as same after a divergence", () => {
    const A = new MemorySession("claude-code", claudeCodeIndexHooks, [cc.user("u1", null, "hi there friend"), cc.fragment("a1", "u1", "m1", cc.text("one")), cc.user("u2", "a1", "go on"), cc.fragment("a2", "u2", "m2", cc.text("the answer is two"))]);
    const B = new MemorySession("claude-code", claudeCodeIndexHooks, [cc.user("v1", null, "hello there friend"), cc.fragment("b1", "v1", "n1", cc.text("one")), cc.user("v2", "b1", "go on"), cc.fragment("b2", "v2", "n2", cc.text("the answer is two!"))]);
    const d = diffContexts({ session: A, leaf: A.requireIndex("a2") }, { session: B, leaf: B.requireIndex("b2") });
    assert.equal(d.sharedPrefix.messages, 0);
    assert.deepEqual(shape(d.ops), ["~u1/v1", "=a1", "=u2", "~a2/b2"]);
  });

  it("two different messages at one place (few words in common) are one-sided, A's first", async () => {
    const s = await openSession(
      writeSession([
        header(),
        user("u1", null, "start"),
        assistant("a1", "u1", "ok"),
        user("p", "a1", "write the release notes for version two"),
        assistant("q", "p", "Here are the notes."),
        user("x", "a1", "delete every temporary file in the build folder"),
        assistant("y", "x", "Deleted 12 files."),
      ]),
    );
    const d = diffContexts({ session: s, leaf: at(s, "q") }, { session: s, leaf: at(s, "y") });
    assert.deepEqual(shape(d.ops), ["-p", "-q", "+x", "+y"]);
  });

  it("a gap too large to weigh (600 x 600 messages) pairs place by place; unrelated texts stay one-sided without a diff", () => {
    const records = [cl.user("r", null, "start")];
    for (const side of ["x", "y"]) {
      let parent = "r";
      for (let k = 0; k < 600; k++) {
        const id = `${side}${k}`;
        const text = k === 0 ? `${side}1 ${side}2 ${side}3 ${side}4` : `message ${k} says ${side === "x" ? "this" : "that"} about item ${k}`;
        records.push(k % 2 ? cl.assistant(id, parent, text) : cl.user(id, parent, text));
        parent = id;
      }
    }
    const s = new MemorySession("clawdcode", clawdcodeIndexHooks, records);
    const t0 = Date.now();
    const d = diffContexts({ session: s, leaf: s.requireIndex("x599") }, { session: s, leaf: s.requireIndex("y599") });
    assert.ok(Date.now() - t0 < 5000, `${Date.now() - t0} ms`);
    assert.equal(d.sharedPrefix.messages, 1);
    const changed = d.ops.filter((o) => o.op === "changed");
    assert.equal(changed.length, 599);
    assert.deepEqual(shape(d.ops).slice(0, 3), ["-x0", "+y0", "~x1/y1"]);
  });

  it("the empty context (leaf -1) against a leaf: everything only in B", async () => {
    const s = await branched();
    const d = diffContexts({ session: s, leaf: -1 }, { session: s, leaf: at(s, "a2") });
    assert.equal(d.a.leafId, null);
    assert.deepEqual(shape(d.ops), ["+u1", "+a1", "+u2", "+a2"]);
  });
});

describe("context diff: what a compaction changed", () => {
  it("pi: the summarized messages only before, the summary only after, the kept ones the same", async () => {
    const s = await openSession(
      writeSession([
        header(),
        user("u1", null, "first task"),
        assistant("a1", "u1", "did it"),
        user("u2", "a1", "second task"),
        assistant("a2", "u2", "did that too"),
        entry("compaction", "c1", "a2", { summary: "The user asked for two tasks; both are done.", firstKeptEntryId: "u2", tokensBefore: 500 }),
        user("u3", "c1", "third"),
      ]),
    );
    const c = compactionChange(s, at(s, "c1"));
    assert.equal(c.before, at(s, "a2"));
    assert.equal(c.after, at(s, "c1"));
    assert.deepEqual(shape(c.diff.ops), ["-u1", "-a1", "+c1", "=u2", "=a2"]);
    assert.ok(c.diff.ops.some((o) => o.op === "onlyB" && o.b.kind === "summary"));
    assert.equal(c.diff.tokens.byKind.summary?.a, 0);
    assert.ok((c.diff.tokens.byKind.summary?.b ?? 0) > 0);
    assert.throws(() => compactionChange(s, at(s, "u3")), /entry "u3" is not a compaction \(it is user\)/);
  });

  it("Claude Code: before = the chain up to the logical parent, after = the summary line under the boundary", () => {
    const records = [
      cc.user("u1", null, "read and fix it"),
      cc.fragment("a1", "u1", "msg_1", cc.toolUse("t1", "Read", { file_path: "/p/a.ts" })),
      cc.toolResult("r1", "a1", "t1", "contents"),
      cc.fragment("a2", "r1", "msg_2", cc.text("done")),
      cc.boundary("b", "a2", { preTokens: 2000, postTokens: 300 }),
      cc.compactSummary("s", "b", "Summary: fixed a.ts."),
      cc.user("n", "s", "next"),
    ];
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, records);
    const c = compactionChange(s, s.requireIndex("b"));
    assert.equal(c.before, s.requireIndex("a2"));
    assert.equal(c.after, s.requireIndex("s"));
    assert.equal(c.diff.ops.filter((o) => o.op === "same").length, 0);
    assert.deepEqual(c.diff.ops.filter((o) => o.op === "onlyB").map((o) => o.op === "onlyB" && [o.b.entryId, o.b.kind]), [["s", "summary"]]);
    assert.equal(c.diff.ops.filter((o) => o.op === "onlyA").length, c.diff.a.messages);
    assert.equal(c.diff.tokens.byKind.summary?.a, 0);
    assert.ok((c.diff.tokens.byKind.summary?.b ?? 0) > 0);
    assert.ok((c.diff.tokens.byKind.toolResult?.delta ?? 0) < 0);

    const lost = new MemorySession("claude-code", claudeCodeIndexHooks, [cc.boundary("b", "gone"), cc.compactSummary("s", "b", "S.")]);
    const m = compactionChange(lost, 0);
    assert.equal(m.before, -1);
    assert.equal(m.missingParent, "gone");
    assert.deepEqual(shape(m.diff.ops), ["+s"]);
  });

  it("Claude Code partial compaction: before has the kept messages and no summary; after = the summary with the kept messages (issue 24, item 2)", () => {
    const records = [
      cc.user("u1", null, "plan it"),
      cc.fragment("a1", "u1", "msg_1", cc.text("plan")),
      cc.user("u2", "a1", "do step 2"),
      cc.fragment("a2", "u2", "msg_2", cc.text("step 2 done")),
      cc.boundary("b", "a2", { preTokens: 7_450, preservedSegment: { headUuid: "u2", anchorUuid: "s", tailUuid: "a2" } }),
      cc.compactSummary("s", "b", "Summary: planned."),
      cc.user("u3", "a2", "do step 3"),
    ];
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, records);
    const c = compactionChange(s, s.requireIndex("b"));
    assert.equal(c.before, s.requireIndex("a2"));
    assert.equal(c.after, s.requireIndex("a2"), "after: the end of what it kept");
    const a = c.diff.contexts.a.messages.map((m) => m.entryId);
    const b = c.diff.contexts.b.messages.map((m) => m.entryId);
    assert.ok(!a.includes("s"), `before must not hold the summary: ${a}`);
    assert.ok(a.includes("u1") && a.includes("a1"), `before holds the summarized messages: ${a}`);
    assert.equal(b[0], "s", `after starts with the summary: ${b}`);
    assert.ok(b.includes("a2"), "the kept response is after it");
    assert.ok(c.diff.ops.some((o) => o.op === "same" && o.a.entryId === "a2"), "the kept response is the same on both sides, not deleted");
    assert.ok(c.diff.ops.some((o) => o.op === "onlyA" && o.a.entryId === "a1"), "the summarized response is only before");
  });

  it("clawdcode: before = the boundary's parent, after = its summary line", () => {
    const s = new MemorySession("clawdcode", clawdcodeIndexHooks, [
      cl.user("u1", null, "hello"),
      cl.assistant("a1", "u1", "hi there", { input_tokens: 300, output_tokens: 10 }),
      cl.boundary("b", "a1", 310),
      cl.summary("s", "b", "They said hello."),
      cl.user("u2", "s", "again"),
    ]);
    const c = compactionChange(s, s.requireIndex("b"));
    assert.equal(c.before, s.requireIndex("a1"));
    assert.equal(c.after, s.requireIndex("s"));
    assert.deepEqual(shape(c.diff.ops), ["-u1", "-a1", "+s"]);
  });
});

describe("context diff: rendering a side as text", () => {
  it("one block per message under a header naming the session, leaf and size", async () => {
    const s = await branched();
    const text = renderContextText({ session: s, leaf: at(s, "a2") }, { title: "A" });
    const lines = text.split("\n");
    assert.equal(lines[0], "# A");
    assert.ok(lines[1].includes(s.path) && lines[1].includes("leaf a2"));
    assert.match(lines[2], /^# 4 messages, [\d,]+ context tokens/);
    assert.match(text, /\n### #1 user \(entry u1, \d+ tokens\)\nlook at the parser\n/);
    assert.match(text, /\n### #4 assistant \(entry a2, \d+ tokens\)\nFixed the parser\.\n$/);
    assert.match(renderContextText({ session: s, leaf: -1 }), /\(empty context: nothing is sent\)/);
    const cut = renderContextText({ session: s, leaf: at(s, "u1") }, { maxChars: 4 });
    assert.match(cut, /\nlook\n\[\.\.\. 14 more characters not shown\]\n$/);
  });

  it("message text: tool calls, results and images by tag, never image data", () => {
    assert.equal(messageText({ role: "assistant", content: [{ type: "text", text: "hi" }, { type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } }] }), 'hi\n\n[tool call read t1]\n{"path":"a"}');
    assert.equal(messageText({ role: "toolResult", toolCallId: "t1", toolName: "read", content: [{ type: "text", text: "x" }], isError: true }), "[tool result read t1 error]\nx");
    assert.equal(messageText({ role: "user", content: [{ type: "tool_result", tool_use_id: "t9", content: [{ type: "text", text: "ok" }] }] }), "[tool result t9]\nok");
    const img = messageText({ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "QUJD" } }] });
    assert.equal(img, "[image image/png, 4 characters of data]");
  });
});

describe("context size right after a compaction: the usage before it no longer counts", () => {
  it("pi: at the compaction the size is an estimate (the messages plus the overhead it showed), recorded again after the next response", async () => {
    const used = (input: number) => ({ usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: input + 10 } });
    const s = await openSession(
      writeSession([
        header(),
        user("u1", null, "first task"),
        assistant("a1", "u1", "did it", used(5_000)),
        user("u2", "a1", "second task"),
        assistant("a2", "u2", "did that too", used(6_375)),
        entry("compaction", "c1", "a2", { summary: "Two tasks; both done.", firstKeptEntryId: "u2", tokensBefore: 6_385 }),
        user("u3", "c1", "third"),
        assistant("a3", "u3", "on it", used(2_000)),
      ]),
    );
    const f = formatOf(s);
    const atCompaction = leafTokenSummary(s, f, at(s, "c1"));
    assert.equal(atCompaction.source, "estimate");
    assert.equal(atCompaction.staleAfterCompaction, "c1");
    assert.notEqual(atCompaction.contextTokens, 6_385, "not the size before the compaction");
    assert.ok(atCompaction.overhead && atCompaction.overhead.at === "a2");
    assert.equal(atCompaction.contextTokens, atCompaction.estimated + atCompaction.overhead.tokens);
    const c = compactionChange(s, at(s, "c1"));
    assert.equal(c.diff.tokens.total.a, 6_385);
    assert.equal(c.diff.tokens.total.b, atCompaction.contextTokens);
    const after = leafTokenSummary(s, f, at(s, "a3"));
    assert.equal(after.source, "recorded");
    assert.equal(after.recordedAt, "a3");
    assert.equal(after.staleAfterCompaction, undefined);
  });
});
