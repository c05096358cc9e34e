import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { claudeCodeIndexHooks } from "../../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../../src/core/session/memory-session";
import { openSession } from "../../../src/core/formats/registry";
import { treeRows } from "../../../src/core/formats/tree-rows";
import { tempDir } from "../../helpers/session-builder";
import { fragment, inlineTask, jsonl, type Raw, SESSION, sidechain, text, toolResult, toolUse, user } from "./lines";

/** 2.1.x: one response of three lines starting two Agent calls, each result reporting its agentId. */
function parallel(): Raw[] {
  const result = (uuid: string, parent: string, call: string, id: string) =>
    user(uuid, parent, [{ type: "tool_result", tool_use_id: call, content: "report" }], { sourceToolAssistantUUID: parent, toolUseResult: { status: "completed", agentId: id, agentType: "Explore" } });
  return [
    user("u1", null, "survey"),
    fragment("a1", "u1", "msg_1", text("Two helpers.")),
    fragment("a2", "a1", "msg_1", toolUse("t1", "Agent", { description: "Survey the tests", subagent_type: "Explore", prompt: "tests" })),
    result("r1", "a2", "t1", "aaa111"),
    fragment("a3", "r1", "msg_1", toolUse("t2", "Agent", { description: "Survey the docs", subagent_type: "Explore", prompt: "docs" })),
    result("r2", "a3", "t2", "bbb222"),
    fragment("a4", "r2", "msg_2", text("Done.")),
  ];
}

describe("claude-code: sub-agents nested under the call that started them (format hook)", () => {
  it("an inline sub-agent is no root of the tree under any filter: it belongs to its call (inlineRoots)", () => {
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, inlineTask());
    const hooks = f.subagents;
    assert.ok(hooks, "Claude Code has sub-agent hooks");
    assert.deepEqual([...hooks.inlineRoots(s)].map(([root, call]) => [s.metas[root].id, s.metas[call].id]), [["x1", "a1"]]);
    for (const filter of ["default", "all", "user"] as const) {
      const ids = treeRows(s, { filter }).map((r) => s.metas[r.index].id);
      assert.ok(!ids.includes("x1") && !ids.includes("x2"), `${filter}: ${ids.join(" ")}`);
    }
    // The main conversation keeps one column: no second root beside it.
    assert.deepEqual(
      treeRows(s, { filter: "all" }).map((r) => r.depth),
      [0, 0, 0, 0],
    );
    assert.deepEqual(hooks.startedBy(s, s.requireIndex("a1")), [{ agentId: "x1", inlineEntryId: "x1", description: "Check in", agentType: "general-purpose" }]);
    assert.deepEqual(hooks.startedBy(s, s.requireIndex("r1")), [], "a result reports on a sub-agent, it did not start one");
    assert.deepEqual(hooks.startedBy(s, s.requireIndex("u1")), []);
  });

  it("a response of several lines starting two sub-agents: its row (the last line) names both, in call order, with their transcripts", async () => {
    const dir = tempDir();
    const sub = join(dir, SESSION, "subagents");
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, "agent-aaa111.jsonl"), "");
    writeFileSync(join(dir, `${SESSION}.jsonl`), jsonl(parallel()));
    const s = await openSession(join(dir, `${SESSION}.jsonl`));
    const refs = f.subagents?.startedBy(s, s.requireIndex("a3")) ?? [];
    assert.deepEqual(
      refs.map((r) => [r.agentId, r.description, r.path]),
      [
        ["aaa111", "Survey the tests", join(sub, "agent-aaa111.jsonl")],
        ["bbb222", "Survey the docs", undefined],
      ],
    );
    // The earlier line of the response is not a row of its own under the default filter.
    assert.deepEqual(f.subagents?.startedBy(s, s.requireIndex("a2")), []);
    assert.equal(f.subagents?.inlineRoots(s).size, 0);
  });
});

describe("claude-code: a text tree (ase tree --all) shows an inline sub-agent under its call", () => {
  it("nestInline: the sub-agent's lines are the call's first branch, the call's result its second", () => {
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, inlineTask());
    const rows = treeRows(s, { filter: "all", nestInline: true }).map((r) => [s.metas[r.index].id, r.prefix]);
    assert.deepEqual(rows, [
      ["u1", ""],
      ["a1", ""],
      ["x1", "├─ "],
      ["x2", "│  "],
      ["r1", "└─ "],
      ["a2", "   "],
    ]);
    // Under the default filter the sub-agent's lines stay out, as they always did.
    assert.deepEqual(
      treeRows(s, { nestInline: true }).map((r) => s.metas[r.index].id),
      ["u1", "a1", "r1", "a2"],
    );
  });
});
