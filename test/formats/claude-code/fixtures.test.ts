import { strict as assert } from "node:assert";
import { join } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { MISSING_RESULT } from "../../../src/core/formats/claude-code/messages";
import { openSession } from "../../../src/core/formats/registry";
import type { SessionReader } from "../../../src/core/session/session-reader";

/** Our own Claude Code fixtures (test/fixtures/claude-code, README there): every rule on a file. */
const DIR = join(process.cwd(), "test", "fixtures", "claude-code");
const u = (n: number) => `cc100000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const v = (n: number) => `cc200000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function chainIds(s: SessionReader, leafId: string): string[] {
  return (f.chain?.(s, s.requireIndex(leafId)) ?? []).map((i) => s.metas[i].id);
}
const messagesAt = (s: SessionReader, leafId: string) => f.context(s, s.requireIndex(leafId)).messages.map((m) => m.message);

describe("claude-code: our fixtures", () => {
  describe("rewind-split-sidechain.jsonl", () => {
    const load = () => openSession(join(DIR, "rewind-split-sidechain.jsonl"));

    it("metadata lines (file-history-snapshot, summary, custom-title) are not entries; the conversation lines are, with no problem", async () => {
      const s = await load();
      assert.equal(s.formatId, "claude-code");
      assert.deepEqual(s.problems, []);
      assert.deepEqual(s.metas.map((m) => m.id), Array.from({ length: 18 }, (_, k) => u(k + 1)));
      assert.equal(s.metas[7].type, "system/turn_duration");
    });

    it("the rewind written last wins; the trailing turn_duration, the progress side line and the inline sub-agent lines are not the leaf", async () => {
      const s = await load();
      assert.equal(s.metas[f.defaultLeaf(s)].id, u(15));
      assert.deepEqual(chainIds(s, u(15)), [1, 2, 3, 4, 6, 7, 8, 12, 13, 14, 15].map(u));
      // The rewound branch stays reachable, its own chain intact.
      assert.deepEqual(chainIds(s, u(11)), [1, 2, 3, 4, 6, 7, 8, 9, 10, 11].map(u));
    });

    it("one response split over three lines is one assistant message; usage is counted once per response", async () => {
      const s = await load();
      const ctx = f.context(s, f.defaultLeaf(s));
      assert.deepEqual(ctx.messages.map((m) => [m.entryId, m.kind]), [
        [u(1), "user"],
        [u(2), "assistant"],
        [u(6), "toolResult"],
        [u(7), "assistant"],
        [u(12), "user"],
        [u(13), "assistant"],
        [u(14), "toolResult"],
        [u(15), "assistant"],
      ]);
      const second = ctx.messages[1].message as { content: Array<{ type: string }> };
      assert.deepEqual(second.content.map((b) => b.type), ["thinking", "text", "tool_use"]);
      assert.equal(s.metas[1].usage, undefined);
      assert.equal(s.metas[2].usage, undefined);
      assert.deepEqual(s.metas[3].usage, { input: 10, output: 5, cacheRead: 1000, cacheWrite: 100 });
      assert.equal(s.metas[3].model, "claude-sonnet-4-5-20250929");
    });

    it("the older branch's context ends with its failed tool result", async () => {
      const s = await load();
      const last = messagesAt(s, u(11)).at(-1);
      assert.deepEqual(last, { role: "user", content: [{ tool_use_id: "toolu_02", type: "tool_result", content: "rm: permission denied", is_error: true }] });
    });

    it("rows: progress, system and sidechain lines under the 'all' filter; the failed result an error; one response's lines one row", async () => {
      const s = await load();
      const d = (n: number) => f.describe(s, s.requireIndex(u(n)));
      assert.deepEqual(d(5), { kind: "info", label: "Progress", typeName: "progress", visibility: "all" });
      assert.deepEqual(d(8), { kind: "system", label: "System: turn duration", typeName: "system/turn_duration", visibility: "all" });
      assert.deepEqual(d(11), { kind: "tool-result", label: "Tool result", typeName: "tool_result", visibility: "conversation", isError: true });
      // One response over three lines: the last is its row (its text and call), the others parts under "all".
      assert.deepEqual(d(2), { kind: "assistant", label: "Thinking (part 1 of 3 of a response)", typeName: "thinking (line 1 of 3 of a response)", visibility: "all" });
      assert.deepEqual(d(3), { kind: "assistant", label: "Assistant (part 2 of 3 of a response)", typeName: "assistant (line 2 of 3 of a response)", visibility: "all" });
      assert.deepEqual(d(4), { kind: "tool-call", label: "Tool call", typeName: "tool_use (response of 3 lines)", visibility: "conversation", preview: "Listing them. -> $ ls" });
      assert.deepEqual(d(12), { kind: "user", label: "User", typeName: "user", visibility: "user" });
      assert.deepEqual(d(17), { kind: "user", label: "Sub-agent prompt", typeName: "sidechain user", visibility: "all", subagentVisibility: "user" });
      assert.equal(d(18).visibility, "all");
    });
  });

  describe("details", () => {
    it("content blocks as thinking, tool call and (failed) tool result; other lines as their JSON without the envelope; a boundary says what it records", async () => {
      const s = await openSession(join(DIR, "rewind-split-sidechain.jsonl"));
      const d = (id: string) => f.details?.(s, s.requireIndex(id));
      assert.deepEqual(d(u(2))?.blocks, [{ kind: "thinking", text: "The user wants a listing." }]);
      assert.deepEqual(d(u(2))?.meta, [["response", "msg_01A"], ["model", "claude-sonnet-4-5-20250929"]]);
      // The response's last line is its row: it shows the blocks of all three lines.
      assert.deepEqual(d(u(4))?.blocks, [
        { kind: "thinking", text: "The user wants a listing." },
        { kind: "text", text: "Listing them." },
        { kind: "toolCall", title: "Bash", text: JSON.stringify({ command: "ls" }, null, 2), call: { name: "Bash", input: { command: "ls" }, id: "toolu_01" } },
      ]);
      assert.deepEqual(d(u(3))?.blocks, [{ kind: "text", text: "Listing them." }]);
      assert.deepEqual(d(u(11))?.blocks, [{ kind: "toolResult", title: "toolu_02", text: "rm: permission denied", answers: "toolu_02", isError: true }]);
      assert.deepEqual(d(u(17))?.meta, [["isSidechain", "yes"]]);
      const sys = d(u(8));
      assert.equal(sys?.blocks.length, 1);
      assert.deepEqual(JSON.parse(sys?.blocks[0].text ?? ""), { subtype: "turn_duration", content: "turn_duration", level: "info", durationMs: 2000 });
      const c = await openSession(join(DIR, "compaction-side-results.jsonl"));
      assert.deepEqual(f.details?.(c, c.requireIndex(v(9)))?.meta, [["trigger", "manual"], ["tokens before", "1234"], ["tokens after", "300"], ["logical parent", v(8)]]);
    });
  });

  describe("compaction-side-results.jsonl", () => {
    const load = () => openSession(join(DIR, "compaction-side-results.jsonl"));

    it("the chain starts at the boundary, the preserved segment relinked under the summary; in the tree the boundary of a partial compaction stays a root, as on disk", async () => {
      const s = await load();
      assert.deepEqual(s.problems, []);
      assert.equal(s.tree.parent[s.requireIndex(v(9))], -1);
      assert.equal(s.metas[s.tree.parent[s.requireIndex(v(11))]].id, v(8));
      assert.equal(s.metas[f.defaultLeaf(s)].id, v(13));
      assert.deepEqual(chainIds(s, v(13)), [9, 10, 7, 8, 11, 12, 13].map(v));
      assert.deepEqual(f.describe(s, s.requireIndex(v(9))), { kind: "boundary", label: "Compaction", typeName: "compact_boundary", visibility: "conversation" });
      assert.deepEqual(f.describe(s, s.requireIndex(v(10))), { kind: "summary", label: "Compaction summary", typeName: "compact summary", visibility: "conversation" });
      assert.equal(s.metas[s.requireIndex(v(9))].tokensBefore, 1234);
    });

    it("after the compaction: the summary and the kept prompt are one user message; the attachment sends nothing", async () => {
      const s = await load();
      const summary = "This session is being continued from a previous conversation that ran out of context. Summary: the user had a.txt and b.txt read.";
      assert.deepEqual(messagesAt(s, v(13)), [
        { role: "user", content: [{ type: "text", text: summary }, { type: "text", text: "Keep going" }] },
        { role: "assistant", content: [{ type: "text", text: "Going on." }] },
        { role: "user", content: "And now?" },
        { role: "assistant", content: [{ type: "text", text: "Done." }] },
      ]);
      assert.equal(f.context(s, f.defaultLeaf(s)).messages[0].kind, "summary");
    });

    it("before it: the result left on a side branch is recovered after the response's last fragment; both results are one user message", async () => {
      const s = await load();
      assert.deepEqual(chainIds(s, v(6)), [1, 2, 3, 4, 5, 6].map(v));
      const m = messagesAt(s, v(6));
      assert.equal(m.length, 4);
      assert.deepEqual((m[1] as { content: Array<{ id: string }> }).content.map((b) => b.id), ["toolu_0A", "toolu_0B"]);
      assert.deepEqual((m[2] as { content: Array<{ tool_use_id: string }> }).content.map((b) => b.tool_use_id), ["toolu_0A", "toolu_0B"]);
    });

    it("a leaf inside the response: lines below it are never added; a call without its result gets Claude Code's synthetic error result", async () => {
      const s = await load();
      assert.deepEqual(chainIds(s, v(3)), [1, 2, 3, 4].map(v));
      assert.deepEqual(messagesAt(s, v(3)).at(-1), {
        role: "user",
        content: [
          { tool_use_id: "toolu_0A", type: "tool_result", content: "alpha" },
          { type: "tool_result", tool_use_id: "toolu_0B", content: MISSING_RESULT, is_error: true },
        ],
      });
      assert.deepEqual(chainIds(s, v(2)), [1, 2].map(v));
      assert.deepEqual(messagesAt(s, v(2)).at(-1), { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_0A", content: MISSING_RESULT, is_error: true }] });
    });
  });
});
