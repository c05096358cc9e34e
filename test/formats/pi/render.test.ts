import { strict as assert } from "node:assert";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { renderAnthropic } from "../../../src/core/formats/pi/context/render-anthropic";
import { renderXml } from "../../../src/core/formats/pi/context/render-xml";
import { toolsSession as sample } from "./memory";

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
