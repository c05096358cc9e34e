import { strict as assert } from "node:assert";
import { join } from "node:path";
import { seed000Format } from "../../../src/core/formats/seed-000/format";
import { entryToMessage } from "../../../src/core/formats/seed-000/messages";
import type { SessionReader } from "../../../src/core/session/session-reader";
import { assistant, load, memory, OWN_FIXTURES, toolCall, toolResult, user } from "./helpers";

const ids = (s: SessionReader, leafId: string) => seed000Format.context(s, s.requireIndex(leafId)).messages.map((m) => m.entryId);

describe("seed-000 rules", () => {
  describe("detect", () => {
    const first = (...objects: unknown[]) => ({ path: "/x/s.jsonl", objects });
    it("takes a first line with every field of the envelope", () => {
      assert.equal(seed000Format.detect(first(user("a", null, "hi"))), true);
      assert.equal(seed000Format.detect(first({ ...toolResult("b", "a", "ok") })), true);
    });
    it("refuses anything else: pi's header, a missing or mistyped field, an unknown type, nothing parsed", () => {
      const u = user("a", null, "hi");
      assert.equal(seed000Format.detect(first({ type: "session", version: 3, id: "x", timestamp: "2026-01-01T00:00:00Z", cwd: "/" })), false);
      assert.equal(seed000Format.detect(first({ ...u, parentId: undefined })), false);
      assert.equal(seed000Format.detect(first({ ...u, timestamp: "2026-01-01T00:00:00Z" })), false);
      assert.equal(seed000Format.detect(first({ ...u, type: "message" })), false);
      assert.equal(seed000Format.detect(first({ ...u, content: [{ type: "text", text: "hi" }] })), false);
      assert.equal(seed000Format.detect(first({ ...u, id: 7 })), false);
      assert.equal(seed000Format.detect(first(undefined, u)), false, "the FIRST parsed line decides");
      assert.equal(seed000Format.detect(first()), false);
    });
  });

  describe("index hooks", () => {
    it("id, parent, type, time, one-line preview, chars/4 estimate, role, model, usage, tool calls", () => {
      const long = `line one\n\n  line two ${"x".repeat(300)}`;
      const s = memory([
        user("u1", null, long),
        toolCall("c1", "u1", "read_file", { path: "a.ts" }),
        toolResult("r1", "c1", "ok"),
        assistant("a1", "r1", "done", { model: "claude-sonnet-4-5", usage: { input_tokens: 812, output_tokens: 14 } }),
        assistant("a2", "a1", "no figures", { model: "claude-x", usage: { input_tokens: 5 } }),
      ]);
      assert.equal(s.problemCount, 0);
      const [u, c, r, a, a2] = s.metas;
      assert.deepEqual([u.id, u.parentId, u.type, u.role], ["u1", null, "user", "user"]);
      assert.equal(u.time, (s.entryAt(0).timestamp as number));
      assert.ok(u.preview.startsWith("line one line two xxx"), u.preview);
      assert.equal(u.preview.length, 100);
      assert.ok(u.preview.endsWith("..."));
      assert.equal(u.estimate, Math.ceil(JSON.stringify(long).length / 4));
      assert.deepEqual([c.role, c.toolCalls, c.preview], ["assistant", 1, "Read a.ts"]);
      assert.deepEqual([r.role, r.parentId, r.preview], ["user", "c1", "ok"]);
      assert.equal(a.model, "claude-sonnet-4-5");
      assert.deepEqual(a.usage, { input: 812, output: 14, cacheRead: 0, cacheWrite: 0 });
      assert.equal(a2.model, "claude-x");
      assert.equal(a2.usage, undefined, "usage without both figures is not recorded");
      assert.equal(u.usage, undefined);
    });

    it("a preview cut never splits a surrogate pair", () => {
      const emoji = "\u{1F600}";
      for (const pad of [96, 97, 299]) {
        const s = memory([user("u1", null, `${"a".repeat(pad)}${emoji.repeat(200)}`)]);
        const p = s.metas[0].preview;
        assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(p), `pad ${pad}: ${JSON.stringify(p.slice(-6))}`);
      }
    });

    it("a time that is not a number is NaN, not a problem", () => {
      const s = memory([{ ...user("u1", null, "hi"), timestamp: "yesterday" }]);
      assert.equal(s.problemCount, 0);
      assert.ok(Number.isNaN(s.metas[0].time));
    });

    it("bad lines are skipped and reported with their line numbers and the field at fault", () => {
      const s = memory([
        user("u1", null, "hi"),
        { parentId: "u1", timestamp: 1, type: "user", content: "no id" },
        { id: "x2", parentId: "u1", timestamp: 1, content: "no type" },
        { id: "x3", parentId: "u1", timestamp: 1, type: "system", content: "unknown type" },
        { id: "x4", timestamp: 1, type: "user", content: "no parentId" },
        { id: "x5", parentId: "u1", timestamp: 1, type: "user", content: ["not", "a string"] },
        { id: "x6", parentId: "u1", timestamp: 1, type: "tool_call", content: "read_file a.ts" },
        assistant("a1", "u1", "still read"),
      ]);
      assert.deepEqual(s.metas.map((m) => m.id), ["u1", "a1"]);
      assert.deepEqual(
        s.problems.map((p) => p.message),
        [
          "line 2: no id (expected a non-empty string)",
          "line 3: entry x2: type is missing, expected one of user|assistant|tool_call|tool_result",
          "line 4: entry x3: type is not one of user|assistant|tool_call|tool_result",
          "line 5: entry x4: parentId is missing (expected a string, or null at a root)",
          "line 6: entry x5: content is an array (expected a string)",
          "line 7: entry x6: tool_call content is not the JSON string {name, input}",
        ],
      );
      assert.equal(seed000Format.context(s, 1).messages.length, 2);
    });
  });

  describe("info, default leaf, describe", () => {
    it("id is the file name, cwd the first line's metadata.cwd (or empty)", () => {
      const s = memory([user("u1", null, "hi", { cwd: "/home/dev/p" })], "/a/b/2026-run.jsonl");
      assert.deepEqual(seed000Format.info(s), { id: "2026-run", cwd: "/home/dev/p" });
      assert.deepEqual(seed000Format.info(memory([user("u1", null, "hi")], "/a/s.jsonl")), { id: "s", cwd: "" });
    });

    it("the default leaf is the last line, -1 when empty, whose context is empty", () => {
      const s = memory([user("u1", null, "a"), assistant("a1", "u1", "b"), user("u2", "u1", "c")]);
      assert.equal(seed000Format.defaultLeaf(s), 2);
      const empty = memory([]);
      assert.equal(seed000Format.defaultLeaf(empty), -1);
      assert.deepEqual(seed000Format.context(empty, -1), { leafId: null, messages: [] });
    });

    it("neutral kinds, the line type as label, errors only for results that start with Error", () => {
      const s = memory([
        user("u1", null, "a"),
        toolCall("c1", "u1", "run", {}),
        toolResult("r1", "c1", "Error: denied"),
        toolResult("r2", "c1", "FAILED: TypeError in test"),
        assistant("a1", "r2", "Error is what I expected"),
      ]);
      const d = s.metas.map((_, i) => seed000Format.describe(s, i));
      assert.deepEqual(d, [
        { kind: "user", label: "User", typeName: "user", visibility: "user" },
        { kind: "tool-call", label: "Tool call", typeName: "tool_call", visibility: "conversation" },
        { kind: "tool-result", label: "Tool result", typeName: "tool_result", visibility: "conversation", isError: true },
        { kind: "tool-result", label: "Tool result", typeName: "tool_result", visibility: "conversation" },
        { kind: "assistant", label: "Assistant", typeName: "assistant", visibility: "conversation" },
      ]);
    });
  });

  describe("files", () => {
    it("read_file, write_file and edit_file calls by path (or file_path), first touched first; other tools touch none", () => {
      const s = memory([
        user("u1", null, "go"),
        toolCall("c1", "u1", "read_file", { path: "b.ts" }),
        toolCall("c2", "c1", "grep", { path: "a.ts", pattern: "x" }),
        toolCall("c3", "c2", "edit_file", { path: "a.ts", old: "x", new: "y" }),
        toolCall("c4", "c3", "write_file", { file_path: "a.ts", content: "" }),
        toolCall("c5", "c4", "read_file", { path: "b.ts" }),
        toolCall("c6", "c5", "read_file", {}),
        toolResult("r6", "c6", "read_file b.ts"),
      ]);
      const all = s.metas.map((_, i) => i);
      assert.deepEqual(seed000Format.files?.(s, all), [
        { path: "b.ts", read: 2, written: 0, edited: 0, fromSummary: [], firstEntryId: "c1" },
        { path: "a.ts", read: 0, written: 1, edited: 1, fromSummary: [], firstEntryId: "c3" },
      ]);
      assert.deepEqual(seed000Format.files?.(s, [0, 2, 7]), []);
    });
  });

  describe("context", () => {
    it("each conversion of 15.1, and the bars' part kinds", () => {
      const s = memory([user("u1", null, "q"), toolCall("c1", "u1", "grep", { pattern: "x" }), toolResult("r1", "c1", "hit"), assistant("a1", "r1", "answer")]);
      const ctx = seed000Format.context(s, 3);
      assert.equal(ctx.leafId, "a1");
      assert.deepEqual(ctx.messages, [
        { entryId: "u1", kind: "user", message: { role: "user", content: "q" } },
        { entryId: "c1", kind: "toolCall", message: { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "grep", input: { pattern: "x" } }] } },
        { entryId: "r1", kind: "toolResult", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "hit" }] } },
        { entryId: "a1", kind: "assistant", message: { role: "assistant", content: "answer" } },
      ]);
    });

    it("consecutive messages of one role stay separate; a tool_call without input gets {}", () => {
      const s = memory([user("u1", null, "one"), user("u2", "u1", "two"), { ...toolCall("c1", "u2", "ls", undefined), content: '{"name":"ls"}' }]);
      assert.deepEqual(
        seed000Format.context(s, 2).messages.map((m) => m.message),
        [
          { role: "user", content: "one" },
          { role: "user", content: "two" },
          { role: "assistant", content: [{ type: "tool_use", id: "c1", name: "ls", input: {} }] },
        ],
      );
    });

    it("a tool_result at a root answers nothing: tool_use_id is empty", () => {
      assert.deepEqual(entryToMessage(toolResult("r0", null, "orphan")), { role: "user", content: [{ type: "tool_result", tool_use_id: "", content: "orphan" }] });
    });

    it("a path through an unknown parent starts there", () => {
      const s = memory([user("u1", "gone", "q"), assistant("a1", "u1", "a")]);
      assert.equal(s.problems[0].kind, "unknown-parent");
      assert.deepEqual(ids(s, "a1"), ["u1", "a1"]);
    });

    it("our branchy fixture, read by the registry: every leaf's path, root first", async () => {
      const s = await load(join(OWN_FIXTURES, "branchy.jsonl"));
      assert.equal(s.problemCount, 0);
      const leaves = s.tree.leaves().map((i) => s.metas[i].id);
      assert.deepEqual(leaves, ["a2", "r3b", "a3"]);
      assert.deepEqual(ids(s, "a2"), ["u1", "c1", "r1", "a1", "u2", "c2", "r2", "a2"]);
      assert.deepEqual(ids(s, "r3b"), ["u1", "c1", "r1", "a1", "u3", "c3", "r3b"]);
      assert.deepEqual(ids(s, "a3"), ["u1", "c1", "r1", "a1", "u3", "c3", "r3", "a3"]);
      assert.equal(s.metas[seed000Format.defaultLeaf(s)].id, "a3");
      // Both results of the retried call answer the same tool_use.
      const r3b = seed000Format.context(s, s.requireIndex("r3b")).messages.at(-1);
      assert.deepEqual(r3b?.message, { role: "user", content: [{ type: "tool_result", tool_use_id: "c3", content: "Error: read timed out" }] });
      assert.equal(seed000Format.describe(s, s.requireIndex("r3b")).isError, true);
      assert.equal(seed000Format.describe(s, s.requireIndex("r3")).isError, undefined);
      assert.deepEqual(seed000Format.info(s), { id: "branchy", cwd: "/work/lexer-demo" });
      assert.equal(s.meta("a3")?.model, "claude-opus-4-1");
    });
  });
});
