import { strict as assert } from "node:assert";
import { join } from "node:path";
import { renderFormatContext } from "../../../src/core/context/format-context";
import { openSession } from "../../../src/core/formats/registry";
import type { SessionReader } from "../../../src/core/session/session-reader";
import { tempDir } from "../../helpers/session-builder";
import { asstMsg, type J, OcDb, stepFinish, stepStart, text, tool, userMsg } from "./oc-db";

const CONTINUE = "Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.";
const native = (s: SessionReader, leaf = s.format.defaultLeaf(s)) => (renderFormatContext(s, leaf, "native") as { messages: J[] }).messages;
const ids = (s: SessionReader) => s.metas.map((m) => m.id);

/** An auto compaction (doc section 4): request, summary, synthetic continue, answer; optionally with kept tail turns. */
async function compacted(tail: boolean): Promise<SessionReader> {
  const db = join(tempDir(), "opencode.db");
  await new OcDb()
    .session({ id: "ses_1" })
    .message("ses_1", "msg_00", userMsg("old"), [["prt_00", text("old question")]])
    .message("ses_1", "msg_00b", asstMsg("msg_00"), [["prt_00b", stepStart()], ["prt_00c", text("old answer")]])
    .message("ses_1", "msg_01", userMsg("first"), [["prt_01", text("read it")]])
    .message("ses_1", "msg_02", asstMsg("msg_01", { finish: "tool-calls" }), [
      ["prt_02", stepStart()],
      ["prt_03", tool("call_r", "read", { filePath: "/p/a" }, { status: "completed", output: "BIG OUTPUT", time: { start: 1, end: 2, compacted: 5 } })],
      ["prt_04", stepFinish()],
    ])
    .message("ses_1", "msg_03", userMsg("c"), [["prt_05", { type: "compaction", auto: true, overflow: false, ...(tail ? { tail_start_id: "msg_01" } : {}) }]])
    .message("ses_1", "msg_04", asstMsg("msg_03", { summary: true, mode: "compaction", agent: "compaction" }), [["prt_06", stepStart()], ["prt_07", text("SUMMARY")], ["prt_08", stepFinish()]])
    .message("ses_1", "msg_05", userMsg("cont"), [["prt_09", text(CONTINUE, { synthetic: true, metadata: { compaction_continue: true } })]])
    .message("ses_1", "msg_06", asstMsg("msg_05"), [["prt_10", stepStart()], ["prt_11", text("carrying on")]])
    .write(db);
  return openSession(`${db}#ses_1`);
}

describe("OpenCode's tree and context: compactions, pruned outputs, reverts, sub-agents", () => {
  it("a compaction: the context starts at 'What did we do so far?' + the summary, then the synthetic continue; the rows keep everything", async () => {
    const s = await compacted(false);
    assert.ok(ids(s).includes("prt_00"), "the summarized turns stay in the tree");
    assert.equal(s.format.describe(s, ids(s).indexOf("prt_05")).kind, "boundary");
    assert.equal(s.format.describe(s, ids(s).indexOf("prt_07")).kind, "summary");
    assert.equal(s.format.describe(s, ids(s).indexOf("prt_09")).kind, "injected");
    assert.deepEqual(native(s), [
      { role: "user", content: "What did we do so far?" },
      { role: "assistant", content: "SUMMARY" },
      { role: "user", content: CONTINUE },
      { role: "assistant", content: "carrying on" },
    ]);
    // Before the summary finished, the whole history is the context.
    const before = native(s, ids(s).indexOf("prt_05"));
    assert.equal(before[0].content, "old question");
    assert.equal(before.at(-1)?.content, "What did we do so far?");
  });

  it("tail_start_id: the kept turns follow the summary, and a pruned tool output is sent (and shown) cleared", async () => {
    const s = await compacted(true);
    assert.deepEqual(native(s), [
      { role: "user", content: "What did we do so far?" },
      { role: "assistant", content: "SUMMARY" },
      { role: "user", content: "read it" },
      { role: "assistant", content: "", tool_calls: [{ id: "call_r", type: "function", function: { name: "read", arguments: '{"filePath":"/p/a"}' } }] },
      { role: "tool", tool_call_id: "call_r", content: "[Old tool result content cleared]" },
      { role: "user", content: CONTINUE },
      { role: "assistant", content: "carrying on" },
    ]);
    const r = ids(s).indexOf("prt_03:result");
    assert.equal(s.format.describe(s, r).label, "Tool result (cleared by pruning)");
  });

  it("a pending revert: the reverted messages are an abandoned branch past the default leaf, never sent", async () => {
    const db = join(tempDir(), "opencode.db");
    await new OcDb()
      .session({ id: "ses_1", revert: { messageID: "msg_03", snapshot: "x", diff: "" } })
      .message("ses_1", "msg_01", userMsg("a"), [["prt_01", text("keep me")]])
      .message("ses_1", "msg_02", asstMsg("msg_01"), [["prt_02", text("kept answer")]])
      .message("ses_1", "msg_03", userMsg("b"), [["prt_03", text("undo me")]])
      .message("ses_1", "msg_04", asstMsg("msg_03"), [["prt_04", text("undone answer")]])
      .write(db);
    const s = await openSession(`${db}#ses_1`);
    assert.equal(s.metas[s.format.defaultLeaf(s)].id, "prt_02");
    assert.match(s.format.describe(s, 2).label, /reverted: OpenCode deletes it at the next prompt/);
    assert.deepEqual(native(s), [
      { role: "user", content: "keep me" },
      { role: "assistant", content: "kept answer" },
    ]);
  });

  it("a revert at a part keeps that message's parts before it", async () => {
    const db = join(tempDir(), "opencode.db");
    await new OcDb()
      .session({ id: "ses_1", revert: { messageID: "msg_02", partID: "prt_04", snapshot: "x" } })
      .message("ses_1", "msg_01", userMsg("a"), [["prt_01", text("go")]])
      .message("ses_1", "msg_02", asstMsg("msg_01"), [["prt_02", stepStart()], ["prt_03", text("first step")], ["prt_04", stepStart()], ["prt_05", text("second step")]])
      .write(db);
    const s = await openSession(`${db}#ses_1`);
    assert.equal(s.metas[s.format.defaultLeaf(s)].id, "prt_03");
    assert.deepEqual(native(s).at(-1), { role: "assistant", content: "first step" });
  });

  it("a task call links its child session in the same database, which opens by that address", async () => {
    const db = join(tempDir(), "opencode.db");
    await new OcDb()
      .session({ id: "ses_p" })
      .session({ id: "ses_c", parentId: "ses_p", title: "look (@general subagent)", agent: "general" })
      .message("ses_p", "msg_01", userMsg("a"), [["prt_01", text("delegate")]])
      .message("ses_p", "msg_02", asstMsg("msg_01"), [["prt_02", tool("call_t", "task", { description: "look", prompt: "look around", subagent_type: "general" }, { status: "completed", output: "<task>done</task>", metadata: { sessionId: "ses_c", parentSessionId: "ses_p" } })]])
      .message("ses_c", "msg_03", userMsg("look around"), [["prt_03", text("look around")]])
      .message("ses_c", "msg_04", asstMsg("msg_03"), [["prt_04", text("done")]])
      .write(db);
    const s = await openSession(`${db}#ses_p`);
    const refs = s.format.subagents?.startedBy(s, ids(s).indexOf("prt_02")) ?? [];
    assert.deepEqual(refs, [{ agentId: "ses_c", description: "look", agentType: "general", path: `${db}#ses_c` }]);
    assert.deepEqual(s.format.subagents?.startedBy(s, 0), []);
    const child = await openSession(refs[0].path as string);
    assert.deepEqual(native(child), [
      { role: "user", content: "look around" },
      { role: "assistant", content: "done" },
    ]);
  });

  it("an assistant message that failed is not sent; one aborted after real work is", async () => {
    const db = join(tempDir(), "opencode.db");
    await new OcDb()
      .session({ id: "ses_1" })
      .message("ses_1", "msg_01", userMsg("a"), [["prt_01", text("go")]])
      .message("ses_1", "msg_02", asstMsg("msg_01", { error: { name: "APIError", data: {} } }), [["prt_02", stepStart()], ["prt_03", text("half")]])
      .message("ses_1", "msg_03", userMsg("b"), [["prt_04", text("again")]])
      .message("ses_1", "msg_04", asstMsg("msg_03", { error: { name: "MessageAbortedError", data: {} } }), [["prt_05", stepStart()], ["prt_06", text("partial")], ["prt_07", tool("call_x", "bash", { command: "sleep 9" }, { status: "running" })]])
      .write(db);
    const s = await openSession(`${db}#ses_1`);
    assert.deepEqual(native(s), [
      { role: "user", content: "go" },
      { role: "user", content: "again" },
      { role: "assistant", content: "partial", tool_calls: [{ id: "call_x", type: "function", function: { name: "bash", arguments: '{"command":"sleep 9"}' } }] },
      { role: "tool", tool_call_id: "call_x", content: "[Tool execution was interrupted]" },
    ]);
  });
});
