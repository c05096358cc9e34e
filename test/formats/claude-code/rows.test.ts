import { strict as assert } from "node:assert";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { claudeCodeIndexHooks } from "../../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../../src/core/session/memory-session";
import { RowView } from "../../../src/explorer/row-view";
import { boundary, compactSummary, fragment, type Raw, sidechain, text, thinking, toolResult, toolUse, user } from "./lines";

/** The lines' cwd (lines.ts): paths inside it show relative. */
const CWD = "/home/dev/demo";

/**
 * u1 - a1 (thinking) - a2 (text) - a3 (Read) - a4 (Bash): one response of four lines -
 * r3, r4 (results) - e1 (Edit) - r5 - t1 (Task) - x1 (sub-agent's prompt, inline) -
 * b1 (compact boundary) - s1 (its summary)
 */
function records(): Raw[] {
  return [
    user("u1", null, "look at b.txt and list the folder"),
    fragment("a1", "u1", "msg_1", thinking("what to do")),
    fragment("a2", "a1", "msg_1", text("Let me look.")),
    fragment("a3", "a2", "msg_1", toolUse("tu_1", "Read", { file_path: `${CWD}/b.txt` })),
    fragment("a4", "a3", "msg_1", toolUse("tu_2", "Bash", { command: "ls", description: "List files" })),
    toolResult("r3", "a4", "tu_1", "hello"),
    toolResult("r4", "r3", "tu_2", "b.txt"),
    fragment("e1", "r4", "msg_2", toolUse("tu_3", "Edit", { file_path: `${CWD}/src/csv.js`, old_string: "split(',')", new_string: "split(';')" })),
    toolResult("r5", "e1", "tu_3", "ok"),
    fragment("t1", "r5", "msg_3", toolUse("tu_4", "Task", { subagent_type: "Explore", description: "Survey the test suite", prompt: "Look at every test" })),
    sidechain(user("x1", "t1", "Look at every test")),
    boundary("b1", "t1"),
    compactSummary("s1", "b1", "We looked."),
  ];
}

describe("claude-code rows: what happened, in words; titles for a person", () => {
  const s = new MemorySession("claude-code", claudeCodeIndexHooks, records());
  const d = (id: string) => f.describe(s, s.requireIndex(id));
  const rows = new RowView(s);
  rows.setFilter("all");
  const rowOf = (id: string) => rows.page(0, 100).find((r) => r.id === id);

  it("a response of several lines: its row names its text and every call, not the last one only", () => {
    assert.equal(d("a4").preview, "Let me look. -> Read b.txt, $ ls");
    assert.equal(d("a4").label, "Tool calls");
    assert.equal(d("a4").typeName, "tool_use (response of 4 lines)");
    assert.equal(rowOf("a4")?.preview, "Let me look. -> Read b.txt, $ ls");
    assert.equal(d("a3").label, "Tool call (part 3 of 4 of a response)");
    assert.equal(d("a3").visibility, "all");
  });

  it("one call per line: Read, Edit with its line counts, Agent with its type and description; paths relative to the cwd", () => {
    assert.equal(s.metas[s.requireIndex("a3")].preview, "Read b.txt");
    assert.equal(s.metas[s.requireIndex("e1")].preview, "Edit src/csv.js (-1 +1)");
    assert.equal(rowOf("e1")?.preview, "Edit src/csv.js (-1 +1)");
    assert.equal(rowOf("t1")?.preview, "Agent (Explore): Survey the test suite");
    assert.equal(d("e1").label, "Tool call");
  });

  it("labels for a person first, Claude Code's own names second", () => {
    assert.deepEqual([d("u1").label, d("u1").typeName], ["User", "user"]);
    assert.deepEqual([d("a1").label, d("a1").typeName], ["Thinking (part 1 of 4 of a response)", "thinking (line 1 of 4 of a response)"]);
    assert.deepEqual([d("r3").label, d("r3").typeName], ["Tool result", "tool_result"]);
    assert.deepEqual([d("b1").label, d("b1").typeName], ["Compaction", "compact_boundary"]);
    assert.deepEqual([d("s1").label, d("s1").typeName], ["Compaction summary", "compact summary"]);
    assert.deepEqual([d("x1").label, d("x1").typeName], ["Sub-agent prompt", "sidechain user"]);
    const row = rowOf("b1");
    assert.deepEqual([row?.typeLabel, row?.typeName], ["Compaction", "compact_boundary"]);
    for (const r of rows.page(0, 100)) assert.ok(!/_/.test(r.typeLabel) && !r.typeLabel.startsWith("sidechain"), `${r.id}: ${r.typeLabel}`);
  });

  it("no row shows raw JSON", () => {
    for (const r of rows.page(0, 100)) assert.ok(!/[{}]/.test(r.preview), `${r.id}: ${r.preview}`);
  });
});
