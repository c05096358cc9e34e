import { strict as assert } from "node:assert";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { assistant, bash, entry, header, toolResult, user } from "../../helpers/session-builder";
import { agreesForEveryLeaf, piSession, texts } from "./memory";

describe("pi's context rules (sessions in memory)", () => {
  it("branches: each leaf sees only its own path; children ordered by timestamp", () => {
    const lines = [
      header(),
      user("a0000001", null, "root question"),
      assistant("a0000002", "a0000001", "first answer"),
      user("b0000001", "a0000002", "left branch"),
      user("c0000001", "a0000002", "right branch"),
      assistant("c0000002", "c0000001", "right answer"),
    ];
    const s = piSession(lines);
    assert.deepEqual(texts(buildContext(s)), ["root question", "first answer", "right branch", "right answer"]);
    assert.deepEqual(texts(buildContext(s, "b0000001")), ["root question", "first answer", "left branch"]);
    const kids = Array.from(s.tree.children(s.requireIndex("a0000002"))).map((i) => s.metas[i].id);
    assert.deepEqual(kids, ["b0000001", "c0000001"]);
    assert.deepEqual(s.tree.branchPoints().map((i) => s.metas[i].id), ["a0000002"]);
    assert.deepEqual(s.tree.leaves().map((i) => s.metas[i].id), ["b0000001", "c0000002"]);
    assert.equal(agreesForEveryLeaf(lines), 5);
  });

  it("two compactions: the last one on the path wins, kept entries from firstKeptEntryId", () => {
    const lines = [
      header(),
      user("00000001", null, "one"),
      assistant("00000002", "00000001", "two"),
      user("00000003", "00000002", "three"),
      assistant("00000004", "00000003", "four"),
      entry("compaction", "00000005", "00000004", { summary: "S1", firstKeptEntryId: "00000003", tokensBefore: 500 }),
      user("00000006", "00000005", "six"),
      assistant("00000007", "00000006", "seven"),
      entry("compaction", "00000008", "00000007", { summary: "S2", firstKeptEntryId: "00000006", tokensBefore: 900 }),
      user("00000009", "00000008", "nine"),
    ];
    const s = piSession(lines);
    const ctx = buildContext(s);
    assert.equal(ctx.compactionId, "00000008");
    const t = texts(ctx);
    assert.ok(t[0].startsWith("The conversation history before this point was compacted into the following summary:\n\n<summary>\nS2\n</summary>"));
    assert.deepEqual(t.slice(1), ["six", "seven", "nine"]);
    // Leaf before the second compaction: the first one counts.
    assert.deepEqual(texts(buildContext(s, "00000007")).slice(1), ["three", "four", "six", "seven"]);
    agreesForEveryLeaf(lines);
  });

  it("firstKeptEntryId off the path: summary then only what follows the compaction", () => {
    const lines = [
      header(),
      user("00000001", null, "one"),
      user("0000000a", "00000001", "other branch"),
      assistant("00000002", "00000001", "two"),
      entry("compaction", "00000003", "00000002", { summary: "S", firstKeptEntryId: "0000000a", tokensBefore: 10 }),
      user("00000004", "00000003", "after"),
    ];
    const s = piSession(lines);
    const ctx = buildContext(s);
    assert.equal(ctx.keptFound, false);
    assert.equal(ctx.parts.length, 2);
    assert.deepEqual(texts(ctx).slice(1), ["after"]);
    agreesForEveryLeaf(lines);
  });

  it("branch summaries: empty ones carry nothing, others are wrapped as pi wraps them", () => {
    const lines = [
      header(),
      user("00000001", null, "q"),
      assistant("00000002", "00000001", "a"),
      user("00000003", "00000002", "abandoned"),
      entry("branch_summary", "00000004", "00000002", { fromId: "00000003", summary: "" }),
      entry("branch_summary", "00000005", "00000004", { fromId: "00000003", summary: "we tried X" }),
    ];
    const s = piSession(lines);
    const t = texts(buildContext(s));
    assert.deepEqual(t, ["q", "a", "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nwe tried X</summary>"]);
    agreesForEveryLeaf(lines);
  });

  it("bash executions: excluded ones vanish; exit code, cancel and truncation texts", () => {
    const lines = [
      header(),
      bash("00000001", null, "ls", "a\nb"),
      bash("00000002", "00000001", "secret", "x", { excludeFromContext: true }),
      bash("00000003", "00000002", "false", "", { exitCode: 1 }),
      bash("00000004", "00000003", "sleep 9", "partial", { cancelled: true, exitCode: null }),
      bash("00000005", "00000004", "cat big", "head", { truncated: true, fullOutputPath: "/tmp/out.txt" }),
    ];
    const s = piSession(lines);
    const t = texts(buildContext(s));
    assert.deepEqual(t, [
      "Ran `ls`\n```\na\nb\n```",
      "Ran `false`\n(no output)\n\nCommand exited with code 1",
      "Ran `sleep 9`\n```\npartial\n```\n\n(command cancelled)",
      "Ran `cat big`\n```\nhead\n```\n\n[Output truncated. Full output: /tmp/out.txt]",
    ]);
    // pi's own list keeps the excluded run (it is dropped only when converting).
    assert.equal(buildContext(s).agent.length, 5);
    agreesForEveryLeaf(lines);
  });

  it("v2 hookMessage reads as custom; custom_message entries become user messages", () => {
    const lines = [
      header({ version: 2 }),
      user("00000001", null, "q"),
      { type: "message", id: "00000002", parentId: "00000001", timestamp: "2026-01-01T00:10:00.000Z", message: { role: "hookMessage", customType: "hook", content: "hook said", display: true, timestamp: 1 } },
      entry("custom_message", "00000003", "00000002", { customType: "ext", content: "injected", display: false }),
      entry("custom_message", "00000004", "00000003", { customType: "ext", content: [{ type: "text", text: "block" }], display: true }),
      entry("custom", "00000005", "00000004", { customType: "state", data: { x: 1 } }),
    ];
    const s = piSession(lines);
    assert.equal(s.metas[1].role, "custom");
    assert.equal((s.entry("00000002") as { message: { role: string } }).message.role, "custom");
    assert.deepEqual(texts(buildContext(s)), ["q", "hook said", "injected", "block"]);
    agreesForEveryLeaf(lines);
  });

  it("thinking level and model follow the path; the last assistant or model_change wins", () => {
    const lines = [
      header(),
      entry("thinking_level_change", "00000001", null, { thinkingLevel: "high" }),
      entry("model_change", "00000002", "00000001", { provider: "openai", modelId: "gpt-5" }),
      user("00000003", "00000002", "q"),
      assistant("00000004", "00000003", "a", { model: "claude-opus-4-5" }),
      entry("model_change", "00000005", "00000004", { provider: "google", modelId: "gemini" }),
      entry("thinking_level_change", "00000006", "00000002", { thinkingLevel: "low" }),
    ];
    const s = piSession(lines);
    assert.deepEqual(buildContext(s, "00000005").model, { provider: "google", modelId: "gemini" });
    assert.equal(buildContext(s, "00000005").thinkingLevel, "high");
    assert.deepEqual(buildContext(s, "00000004").model, { provider: "anthropic", modelId: "claude-opus-4-5" });
    assert.deepEqual(buildContext(s).model, { provider: "openai", modelId: "gpt-5" });
    assert.equal(buildContext(s).thinkingLevel, "low");
    agreesForEveryLeaf(lines);
  });

  it("retainedTail (newer pi): summary, then the retained messages, then what follows", () => {
    const lines = [
      header(),
      user("00000001", null, "old"),
      entry("compaction", "00000002", "00000001", {
        summary: "S",
        tokensBefore: 1,
        retainedTail: [{ role: "user", content: [{ type: "text", text: "kept" }], timestamp: 1 }],
        usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
      }),
      user("00000003", "00000002", "new"),
    ];
    const s = piSession(lines);
    assert.deepEqual(texts(buildContext(s)).slice(1), ["kept", "new"]);
    assert.equal(s.metas[1].usage?.output, 5);
    agreesForEveryLeaf(lines);
  });

  it("tool calls, results and images pass through untouched", () => {
    const lines = [
      header(),
      { type: "message", id: "00000001", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: [{ type: "text", text: "look" }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] } },
      assistant("00000002", "00000001", "", { toolCalls: [{ id: "t1", name: "read", arguments: { path: "a.ts" } }] }),
      toolResult("00000003", "00000002", "t1", "read", "contents", false),
    ];
    const s = piSession(lines);
    const ctx = buildContext(s);
    assert.equal(ctx.parts[0].llm.role, "user");
    assert.deepEqual((ctx.parts[0].llm.content as unknown[])[1], { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
    assert.equal(ctx.parts[2].llm.role, "toolResult");
    agreesForEveryLeaf(lines);
  });
});
