import { piIndexHooks } from "../../src/core/formats/pi/index-hooks";
import { strict as assert } from "node:assert";
import { appendFileSync } from "node:fs";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { IndexBuilder } from "../../src/core/store/index-builder";
import { Session } from "../../src/core/formats/pi/pi-session";
import { refContext, refLoad } from "../helpers/reference-context";
import { assistant, bash, entry, header, toolResult, user, writeSession } from "../helpers/session-builder";

function texts(ctx: ReturnType<typeof buildContext>): string[] {
  return ctx.parts.map((p) => {
    const c = p.llm.content;
    if (typeof c === "string") return c;
    return c.map((b) => (b.type === "text" ? b.text : b.type === "toolCall" ? `call:${b.name}` : b.type)).join("|");
  });
}

/** Our context must equal the naive reference for every entry taken as the leaf. */
async function agreesForEveryLeaf(file: string): Promise<number> {
  const s = await Session.load(file);
  const ref = refLoad(file);
  for (const m of s.metas) {
    const ours = buildContext(s, m.id);
    const theirs = refContext(ref, m.id);
    assert.deepEqual(ours.parts.map((p) => p.llm), theirs.messages, `leaf ${m.id}`);
    assert.equal(ours.thinkingLevel, theirs.thinkingLevel, `thinking at ${m.id}`);
    assert.deepEqual(ours.model, theirs.model, `model at ${m.id}`);
  }
  return s.metas.length;
}

describe("context rules (small sessions written by the tests)", () => {
  it("branches: each leaf sees only its own path; children ordered by timestamp", async () => {
    const file = writeSession([
      header(),
      user("a0000001", null, "root question"),
      assistant("a0000002", "a0000001", "first answer"),
      user("b0000001", "a0000002", "left branch"),
      user("c0000001", "a0000002", "right branch"),
      assistant("c0000002", "c0000001", "right answer"),
    ]);
    const s = await Session.load(file);
    assert.deepEqual(texts(buildContext(s)), ["root question", "first answer", "right branch", "right answer"]);
    assert.deepEqual(texts(buildContext(s, "b0000001")), ["root question", "first answer", "left branch"]);
    const kids = Array.from(s.tree.children(s.requireIndex("a0000002"))).map((i) => s.metas[i].id);
    assert.deepEqual(kids, ["b0000001", "c0000001"]);
    assert.deepEqual(s.tree.branchPoints().map((i) => s.metas[i].id), ["a0000002"]);
    assert.deepEqual(s.tree.leaves().map((i) => s.metas[i].id), ["b0000001", "c0000002"]);
    assert.equal(await agreesForEveryLeaf(file), 5);
  });

  it("children with out-of-order timestamps are sorted oldest first", async () => {
    const file = writeSession([
      header(),
      user("a0000001", null, "q"),
      { ...user("b0000001", "a0000001", "later"), timestamp: "2030-01-01T00:00:00.000Z" },
      { ...user("c0000001", "a0000001", "earlier"), timestamp: "2020-01-01T00:00:00.000Z" },
    ]);
    const s = await Session.load(file);
    assert.deepEqual(Array.from(s.tree.children(0)).map((i) => s.metas[i].id), ["c0000001", "b0000001"]);
    // The default leaf is still the last line, not the newest timestamp.
    assert.equal(buildContext(s).leafId, "c0000001");
  });

  it("two compactions: the last one on the path wins, kept entries from firstKeptEntryId", async () => {
    const file = writeSession([
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
    ]);
    const s = await Session.load(file);
    const ctx = buildContext(s);
    assert.equal(ctx.compactionId, "00000008");
    const t = texts(ctx);
    assert.ok(t[0].startsWith("The conversation history before this point was compacted into the following summary:\n\n<summary>\nS2\n</summary>"));
    assert.deepEqual(t.slice(1), ["six", "seven", "nine"]);
    // Leaf before the second compaction: the first one counts.
    assert.deepEqual(texts(buildContext(s, "00000007")).slice(1), ["three", "four", "six", "seven"]);
    await agreesForEveryLeaf(file);
  });

  it("firstKeptEntryId off the path: summary then only what follows the compaction", async () => {
    const file = writeSession([
      header(),
      user("00000001", null, "one"),
      user("0000000a", "00000001", "other branch"),
      assistant("00000002", "00000001", "two"),
      entry("compaction", "00000003", "00000002", { summary: "S", firstKeptEntryId: "0000000a", tokensBefore: 10 }),
      user("00000004", "00000003", "after"),
    ]);
    const s = await Session.load(file);
    const ctx = buildContext(s);
    assert.equal(ctx.keptFound, false);
    assert.equal(ctx.parts.length, 2);
    assert.deepEqual(texts(ctx).slice(1), ["after"]);
    await agreesForEveryLeaf(file);
  });

  it("branch summaries: empty ones carry nothing, others are wrapped as pi wraps them", async () => {
    const file = writeSession([
      header(),
      user("00000001", null, "q"),
      assistant("00000002", "00000001", "a"),
      user("00000003", "00000002", "abandoned"),
      entry("branch_summary", "00000004", "00000002", { fromId: "00000003", summary: "" }),
      entry("branch_summary", "00000005", "00000004", { fromId: "00000003", summary: "we tried X" }),
    ]);
    const s = await Session.load(file);
    const t = texts(buildContext(s));
    assert.deepEqual(t, ["q", "a", "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nwe tried X</summary>"]);
    await agreesForEveryLeaf(file);
  });

  it("bash executions: excluded ones vanish; exit code, cancel and truncation texts", async () => {
    const file = writeSession([
      header(),
      bash("00000001", null, "ls", "a\nb"),
      bash("00000002", "00000001", "secret", "x", { excludeFromContext: true }),
      bash("00000003", "00000002", "false", "", { exitCode: 1 }),
      bash("00000004", "00000003", "sleep 9", "partial", { cancelled: true, exitCode: null }),
      bash("00000005", "00000004", "cat big", "head", { truncated: true, fullOutputPath: "/tmp/out.txt" }),
    ]);
    const s = await Session.load(file);
    const t = texts(buildContext(s));
    assert.deepEqual(t, [
      "Ran `ls`\n```\na\nb\n```",
      "Ran `false`\n(no output)\n\nCommand exited with code 1",
      "Ran `sleep 9`\n```\npartial\n```\n\n(command cancelled)",
      "Ran `cat big`\n```\nhead\n```\n\n[Output truncated. Full output: /tmp/out.txt]",
    ]);
    // pi's own list keeps the excluded run (it is dropped only when converting).
    assert.equal(buildContext(s).agent.length, 5);
    await agreesForEveryLeaf(file);
  });

  it("v2 hookMessage reads as custom; custom_message entries become user messages", async () => {
    const file = writeSession([
      header({ version: 2 }),
      user("00000001", null, "q"),
      { type: "message", id: "00000002", parentId: "00000001", timestamp: "2026-01-01T00:10:00.000Z", message: { role: "hookMessage", customType: "hook", content: "hook said", display: true, timestamp: 1 } },
      entry("custom_message", "00000003", "00000002", { customType: "ext", content: "injected", display: false }),
      entry("custom_message", "00000004", "00000003", { customType: "ext", content: [{ type: "text", text: "block" }], display: true }),
      entry("custom", "00000005", "00000004", { customType: "state", data: { x: 1 } }),
    ]);
    const s = await Session.load(file);
    assert.equal(s.metas[1].role, "custom");
    assert.equal((s.entry("00000002") as { message: { role: string } }).message.role, "custom");
    assert.deepEqual(texts(buildContext(s)), ["q", "hook said", "injected", "block"]);
    await agreesForEveryLeaf(file);
  });

  it("thinking level and model follow the path; the last assistant or model_change wins", async () => {
    const file = writeSession([
      header(),
      entry("thinking_level_change", "00000001", null, { thinkingLevel: "high" }),
      entry("model_change", "00000002", "00000001", { provider: "openai", modelId: "gpt-5" }),
      user("00000003", "00000002", "q"),
      assistant("00000004", "00000003", "a", { model: "claude-opus-4-5" }),
      entry("model_change", "00000005", "00000004", { provider: "google", modelId: "gemini" }),
      entry("thinking_level_change", "00000006", "00000002", { thinkingLevel: "low" }),
    ]);
    const s = await Session.load(file);
    assert.deepEqual(buildContext(s, "00000005").model, { provider: "google", modelId: "gemini" });
    assert.equal(buildContext(s, "00000005").thinkingLevel, "high");
    assert.deepEqual(buildContext(s, "00000004").model, { provider: "anthropic", modelId: "claude-opus-4-5" });
    assert.deepEqual(buildContext(s).model, { provider: "openai", modelId: "gpt-5" });
    assert.equal(buildContext(s).thinkingLevel, "low");
    await agreesForEveryLeaf(file);
  });

  it("v1: ids from line numbers, parents in file order, firstKeptEntryIndex resolved", async () => {
    const lines = [
      { type: "session", id: "v1-session", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
      { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "one" } },
      { type: "message", timestamp: "2025-01-01T00:00:02.000Z", message: { role: "assistant", content: [{ type: "text", text: "two" }], provider: "anthropic", model: "m" } },
      "{this line is damaged",
      { type: "message", timestamp: "2025-01-01T00:00:03.000Z", message: { role: "user", content: "three" } },
      { type: "compaction", timestamp: "2025-01-01T00:00:04.000Z", summary: "S", firstKeptEntryIndex: 3, tokensBefore: 5 },
      { type: "message", timestamp: "2025-01-01T00:00:05.000Z", message: { role: "user", content: "after" } },
    ];
    const file = writeSession(lines);
    const s = await Session.load(file);
    assert.equal(s.version, 1);
    assert.deepEqual(s.metas.map((m) => m.id), ["00000002", "00000003", "00000005", "00000006", "00000007"]);
    assert.deepEqual(s.metas.map((m) => m.parentId), [null, "00000002", "00000003", "00000005", "00000006"]);
    // Index 3 counts parsed entries (header = 0), as pi does: the damaged line is not one.
    assert.equal(s.metas[3].firstKeptEntryId, "00000005");
    assert.deepEqual(texts(buildContext(s)).slice(1), ["three", "after"]);
    assert.equal(s.problems.length, 1);
    assert.match(s.problems[0].message, /^line 4: not valid JSON/);
    await agreesForEveryLeaf(file);
  });

  it("damaged lines are skipped and reported; a torn last line is reported as torn", async () => {
    const file = writeSession(
      [header(), user("00000001", null, "q"), "not json at all", "[1,2]", assistant("00000002", "00000001", "a"), '{"type":"message","id":"0000'],
      { trailingNewline: false },
    );
    const s = await Session.load(file);
    assert.deepEqual(s.metas.map((m) => m.id), ["00000001", "00000002"]);
    const kinds = s.problems.map((p) => `${p.line}:${p.kind}`);
    assert.deepEqual(kinds, ["3:parse-error", "4:not-an-object", "6:torn-line"]);
    assert.match(s.problems[2].message, /torn last line/);
    assert.deepEqual(texts(buildContext(s)), ["q", "a"]);
  });

  it("a line past V8's string limit is reported with its size and skipped, not thrown", () => {
    // A real one needs a 512 MB line; the builder only sees the decoder fail, so fake that.
    const b = new IndexBuilder("/x.jsonl", piIndexHooks);
    const line = (text: string, lineNo: number) => {
      const buf = Buffer.from(text);
      return { buf, start: 0, end: buf.length, offset: 0, lineNo, terminated: true };
    };
    b.accept(line(JSON.stringify(header()), 1));
    const huge = line("{", 2);
    huge.buf.toString = () => {
      throw Object.assign(new Error("Cannot create a string longer than 0x1fffffe8 characters"), { code: "ERR_STRING_TOO_LONG" });
    };
    b.accept(huge);
    b.accept(line(JSON.stringify(user("00000001", null, "q")), 3));
    assert.deepEqual(b.problems.map((p) => p.message), ["line 2: too long to read (0 MB; a JavaScript string holds at most 512 MB), skipped"]);
    assert.deepEqual(b.metas.map((m) => m.id), ["00000001"]);
  });

  it("past 1,000 problems the rest are counted, not kept; a torn last line past them is forgotten when completed", async () => {
    const garbage = Array.from({ length: 2_500 }, (_, k) => `garbage ${k}`);
    const file = writeSession([header(), user("00000001", null, "q"), ...garbage, '{"type":"message","id":"000'], { trailingNewline: false });
    const s = await Session.load(file);
    assert.equal(s.problemCount, 2_501);
    const listed = s.problems;
    assert.equal(listed.length, 1_001);
    assert.equal(listed[0].message.startsWith("line 3: not valid JSON"), true);
    assert.match(listed[1_000].message, /^\.\.\. and 1501 more line\(s\) with problems, not listed \(only the first 1000 are kept\)$/);
    // The agent finishes its torn line: the count drops by that line's problem, an entry comes in.
    appendFileSync(file, `00002","parentId":"00000001","timestamp":"2026-01-01T00:10:00.000Z","message":{"role":"user","content":"r"}}\n`);
    await s.refresh();
    assert.equal(s.problemCount, 2_500);
    assert.deepEqual(s.metas.map((m) => m.id), ["00000001", "00000002"]);
  });

  it("before the header: bad lines are skipped, the first line that parses must be the header, a log file is refused early", async () => {
    const tolerated = await Session.load(writeSession(["{torn header", "", header(), user("00000001", null, "q")]));
    assert.deepEqual(tolerated.metas.map((m) => m.id), ["00000001"]);
    assert.deepEqual(tolerated.problems.map((p) => `${p.line}:${p.kind}`), ["1:parse-error"]);

    await assert.rejects(Session.load(writeSession(["42", header(), user("00000001", null, "q")])), /not a pi session file: first line is not a session header \(line 1 is a number; expected/);

    const lines = Array.from({ length: 30_000 }, (_, k) => `2026-01-01 12:00:00 INFO event ${k}`);
    const log = writeSession([...lines, header()]);
    await assert.rejects(Session.load(log), (err: Error) => {
      assert.match(err.message, /not a pi session file: first line is not a session header \(no JSON line in the first 10000 lines; expected \{"type":"session",\.\.\.\}\)$/);
      assert.doesNotMatch(err.message, /INFO|event/, "nothing of the file is quoted");
      return true;
    });
  });

  it("retainedTail (newer pi): summary, then the retained messages, then what follows", async () => {
    const file = writeSession([
      header(),
      user("00000001", null, "old"),
      entry("compaction", "00000002", "00000001", {
        summary: "S",
        tokensBefore: 1,
        retainedTail: [{ role: "user", content: [{ type: "text", text: "kept" }], timestamp: 1 }],
        usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
      }),
      user("00000003", "00000002", "new"),
    ]);
    const s = await Session.load(file);
    assert.deepEqual(texts(buildContext(s)).slice(1), ["kept", "new"]);
    assert.equal(s.metas[1].usage?.output, 5);
    await agreesForEveryLeaf(file);
  });

  it("labels: latest label entry wins, an absent label clears; session name is the latest", async () => {
    const file = writeSession([
      header(),
      user("00000001", null, "q"),
      entry("label", "00000002", "00000001", { targetId: "00000001", label: "first" }),
      entry("label", "00000003", "00000002", { targetId: "00000001", label: "second" }),
      entry("label", "00000004", "00000003", { targetId: "00000002", label: "gone" }),
      entry("label", "00000005", "00000004", { targetId: "00000002" }),
      entry("session_info", "00000006", "00000005", { name: "  Old name " }),
      entry("session_info", "00000007", "00000006", { name: "New name" }),
      entry("weird_future_type", "00000008", "00000007", { anything: true }),
    ]);
    const s = await Session.load(file);
    assert.deepEqual([...s.tree.labels], [["00000001", "second"]]);
    assert.equal(s.tree.name, "New name");
    assert.equal(s.metas[7].type, "weird_future_type");
    assert.deepEqual(texts(buildContext(s)), ["q"]);
  });

  it("unknown parents start their own root; a parent cycle is cut and reported", async () => {
    const file = writeSession([
      header(),
      user("00000001", null, "q"),
      user("00000002", "deadbeef", "orphan"),
      user("00000003", "00000004", "loop a"),
      user("00000004", "00000003", "loop b"),
    ]);
    const s = await Session.load(file);
    // The walk from entry 3 meets itself at 3, so 3 loses its parent and becomes a root.
    assert.deepEqual(s.tree.roots().map((i) => s.metas[i].id), ["00000001", "00000002", "00000003"]);
    assert.ok(s.problems.some((p) => p.kind === "unknown-parent" && p.line === 3));
    assert.ok(s.problems.some((p) => p.kind === "cycle"));
    assert.deepEqual(texts(buildContext(s, "00000002")), ["orphan"]);
    // Walking a cut cycle ends.
    assert.ok(buildContext(s, "00000004").parts.length <= 2);
  });

  it("tool calls, results and images pass through untouched", async () => {
    const file = writeSession([
      header(),
      { type: "message", id: "00000001", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: [{ type: "text", text: "look" }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }] } },
      assistant("00000002", "00000001", "", { toolCalls: [{ id: "t1", name: "read", arguments: { path: "a.ts" } }] }),
      toolResult("00000003", "00000002", "t1", "read", "contents", false),
    ]);
    const s = await Session.load(file);
    const ctx = buildContext(s);
    assert.equal(ctx.parts[0].llm.role, "user");
    assert.deepEqual((ctx.parts[0].llm.content as unknown[])[1], { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
    assert.equal(ctx.parts[2].llm.role, "toolResult");
    await agreesForEveryLeaf(file);
  });
});
