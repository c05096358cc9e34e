import { strict as assert } from "node:assert";
import { join } from "node:path";
import { openSession } from "../../../src/core/formats/registry";
import { renderFormatContext } from "../../../src/core/context/format-context";
import { leafTokenSummary } from "../../../src/core/usage/format-tokens";
import { tempDir } from "../../helpers/session-builder";
import { asstMsg, OcDb, stepFinish, stepStart, text, tool, userMsg } from "./oc-db";

/** A session with a reasoning turn, two parallel tools (one failing) and a final answer. */
async function toolsSession(): Promise<string> {
  const db = join(tempDir(), "opencode.db");
  await new OcDb()
    .session({ id: "ses_1", title: "tools" })
    .message("ses_1", "msg_01", userMsg("u"), [["prt_01", text("\"what is this project\"")]])
    .message("ses_1", "msg_02", asstMsg("msg_01", { finish: "tool-calls" }), [
      ["prt_02", stepStart()],
      ["prt_03", { type: "reasoning", text: "look first", time: { start: 1, end: 2 } }],
      ["prt_04", text("Reading.")],
      ["prt_05", tool("call_a", "read", { filePath: "/p/README.md" }, { status: "completed", output: "# Readme", title: "README.md", metadata: {} })],
      ["prt_06", tool("call_b", "read", { filePath: "/p/missing" }, { status: "error", error: "File not found: /p/missing" })],
      ["prt_07", stepFinish()],
      ["prt_08", stepStart()],
      ["prt_09", text("It is a readme.")],
      ["prt_10", stepFinish(0.001, { total: 20, input: 15, output: 5, reasoning: 0, cache: { read: 100, write: 0 } })],
    ])
    .write(db);
  return `${db}#ses_1`;
}

describe("OpenCode sessions: `<db>#<id>` opens a session whose parts are entries in order", () => {
  it("entries: every part in id order, a tool part's result a row of its own, kinds and labels neutral", async () => {
    const s = await openSession(await toolsSession());
    assert.equal(s.format.id, "opencode");
    assert.deepEqual(
      s.metas.map((m) => m.id),
      ["prt_01", "prt_02", "prt_03", "prt_04", "prt_05", "prt_05:result", "prt_06", "prt_06:result", "prt_07", "prt_08", "prt_09", "prt_10"],
    );
    const kinds = s.metas.map((_, i) => s.format.describe(s, i).kind);
    assert.deepEqual(kinds, ["user", "info", "assistant", "assistant", "tool-call", "tool-result", "tool-call", "tool-result", "info", "info", "assistant", "info"]);
    assert.equal(s.format.describe(s, 7).isError, true);
    assert.equal(s.format.defaultLeaf(s), 11);
    assert.equal(s.format.info(s).id, "ses_1");
  });

  it("`--format native` = the chat-completions messages OpenCode sends: one assistant turn per step, a tool message per result", async () => {
    const s = await openSession(await toolsSession());
    const native = renderFormatContext(s, s.format.defaultLeaf(s), "native") as { messages: unknown[] };
    assert.deepEqual(native.messages, [
      { role: "user", content: "\"what is this project\"" },
      {
        role: "assistant",
        content: "Reading.",
        reasoning_content: "look first",
        tool_calls: [
          { id: "call_a", type: "function", function: { name: "read", arguments: JSON.stringify({ filePath: "/p/README.md" }) } },
          { id: "call_b", type: "function", function: { name: "read", arguments: JSON.stringify({ filePath: "/p/missing" }) } },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "# Readme" },
      { role: "tool", tool_call_id: "call_b", content: "File not found: /p/missing" },
      { role: "assistant", content: "It is a readme." },
    ]);
  });

  it("usage and the recorded cost sit on each step-finish", async () => {
    const s = await openSession(await toolsSession());
    const u = s.table.getUsage(8);
    assert.ok(u, "the first step-finish holds usage");
    assert.equal(u.input, 1222);
    assert.equal(u.output, 26);
    assert.equal(u.cost, 0.004056);
  });

  it("the context size is the last step's recorded usage, placed at that step's message (its step-finish shares the call)", async () => {
    const s = await openSession(await toolsSession());
    const t = leafTokenSummary(s, s.format, s.format.defaultLeaf(s), {});
    assert.equal(t.recordedAt, "prt_10");
    assert.equal(t.recordedPart, 15 + 5 + 100);
  });
});
