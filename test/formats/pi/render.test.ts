import { strict as assert } from "node:assert";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { renderAnthropic } from "../../../src/core/formats/pi/context/render-anthropic";
import { renderXml } from "../../../src/core/formats/pi/context/render-xml";
import { fileActivity, piFileLists } from "../../../src/core/formats/pi/file-ops";
import type { TextSession } from "../../../src/core/formats/pi/text-session";
import { assistant, bash, entry, header, toolResult } from "../../helpers/session-builder";
import { piSession } from "./memory";

/** A session with a compaction, tool calls of every kind, an error, a bash run and an image. */
function sample(): TextSession {
  return piSession(
    [
      header(),
      entry("compaction", "00000000", null, { summary: "earlier work", firstKeptEntryId: "nothing", tokensBefore: 1234, details: { readFiles: ["old.md"], modifiedFiles: ["old.ts"] } }),
      { type: "message", id: "00000001", parentId: "00000000", timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: [{ type: "text", text: "fix <b>a.ts</b> & b" }, { type: "image", data: "AAAA", mimeType: "image/png" }] } },
      assistant("00000002", "00000001", "reading", { thinking: "hmm", toolCalls: [{ id: "t1", name: "read", arguments: { path: "a.ts" } }, { id: "t2", name: "edit", arguments: { path: "b.ts", oldText: "x", newText: "y" } }] }),
      toolResult("00000003", "00000002", "t1", "read", "file a"),
      toolResult("00000004", "00000003", "t2", "edit", "no match", true),
      bash("00000005", "00000004", "npm test", "ok"),
      assistant("00000006", "00000005", "", { toolCalls: [{ id: "t3", name: "write", arguments: { path: "a.ts", content: "z" } }, { id: "t4", name: "read", arguments: { path: "a.ts" } }] }),
      toolResult("00000007", "00000006", "t3", "write", "written"),
      toolResult("00000008", "00000007", "t4", "read", "z"),
      assistant("00000009", "00000008", "done"),
    ],
  );
}

describe("anthropic rendering", () => {
  it("tool_use / tool_result, merged same-role turns, thinking with signature, base64 images, system", () => {
    const s = sample();
    const { body } = renderAnthropic(buildContext(s), { system: "You are pi." });
    assert.equal(body.system, "You are pi.");
    assert.equal(body.model, "claude-sonnet-4-5");
    assert.deepEqual(body.messages.map((m) => m.role), ["user", "assistant", "user", "assistant", "user", "assistant"]);
    // summary + user message merged into the first user turn
    assert.equal(body.messages[0].content.length, 3);
    assert.match(body.messages[0].content[0].text as string, /^The conversation history before this point was compacted/);
    assert.deepEqual(body.messages[0].content[2], { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } });
    assert.deepEqual(body.messages[1].content[0], { type: "thinking", thinking: "hmm", signature: "sig" });
    assert.deepEqual(body.messages[1].content[2], { type: "tool_use", id: "t1", name: "read", input: { path: "a.ts" } });
    // two tool results and the bash run merged into one user turn, results first
    const turn = body.messages[2].content;
    assert.deepEqual(turn.map((b) => b.type), ["tool_result", "tool_result", "text"]);
    assert.equal(turn[1].is_error, true);
    assert.equal(turn[0].tool_use_id, "t1");
    // alternation holds everywhere
    for (let i = 1; i < body.messages.length; i++) assert.notEqual(body.messages[i].role, body.messages[i - 1].role);
  });
});

describe("xml rendering", () => {
  it("tags every item by kind with ids, escapes text, groups same-role items", () => {
    const s = sample();
    const x = renderXml(buildContext(s));
    assert.equal(x.items[0].tag, "progress_summary");
    assert.deepEqual(x.items.map((i) => i.tag).slice(1, 6), ["user_message", "image", "thinking", "assistant_response", "tool_call"]);
    assert.ok(x.items.some((i) => i.tag === "tool_result"));
    assert.match(x.messages[0].content, /fix &lt;b&gt;a\.ts&lt;\/b&gt; &amp; b/);
    assert.match(x.messages[2].content, /<tool_result id="00000004" call_id="t2" name="edit" status="error">no match<\/tool_result>/);
    assert.match(x.messages[2].content, /<bash_execution id="00000005" command="npm test" exit_code="0">ok<\/bash_execution>/);
    assert.deepEqual(x.excluded, []);
    for (let i = 1; i < x.messages.length; i++) assert.notEqual(x.messages[i].role, x.messages[i - 1].role);
  });

  it("maxTokens drops the oldest items first and reports included and excluded ids", () => {
    const s = sample();
    const full = renderXml(buildContext(s));
    const cut = renderXml(buildContext(s), { maxTokens: full.tokens - 1 });
    assert.ok(cut.excluded.length >= 1);
    assert.equal(cut.excluded[0], "00000000");
    assert.deepEqual([...cut.excluded, ...cut.included], full.included);
    assert.ok(cut.tokens <= full.tokens - 1);
    const none = renderXml(buildContext(s), { maxTokens: 0 });
    assert.equal(none.included.length, 0);
    assert.equal(none.messages.length, 0);
  });
});

describe("file operations", () => {
  it("read/written/edited counts in first-touched order, cumulative through summary details", () => {
    const s = sample();
    const acts = fileActivity(s, s.tree.path(s.tree.defaultLeaf));
    assert.deepEqual(acts.map((a) => a.path), ["old.md", "old.ts", "a.ts", "b.ts"]);
    const a = acts.find((x) => x.path === "a.ts");
    assert.deepEqual([a?.read, a?.written, a?.edited, a?.firstEntryId], [2, 1, 0, "00000002"]);
    assert.deepEqual(piFileLists(acts), { readFiles: ["old.md"], modifiedFiles: ["a.ts", "b.ts", "old.ts"] });
    // A subtree below the first tool calls sees only the write/read of a.ts.
    const sub = fileActivity(s, s.tree.subtree(s.requireIndex("00000005")));
    assert.deepEqual(sub.map((x) => [x.path, x.read, x.written]), [["a.ts", 1, 1]]);
  });
});
