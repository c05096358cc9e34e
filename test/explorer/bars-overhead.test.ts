import { strict as assert } from "node:assert";
import { claudeCodeIndexHooks } from "../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../src/core/session/memory-session";
import { openSession } from "../../src/core/formats/registry";
import { buildPreview } from "../../src/core/context/preview";
import { formatBars } from "../../src/explorer/format-bars";
import type { TokenBar } from "../../src/protocol";
import { fragment, text, user as ccUser } from "../formats/claude-code/lines";
import { assistant, header, user, writeSession } from "../helpers/session-builder";

const sum = (b: TokenBar) => Object.values(b.byKind).reduce((a, n) => a + (n ?? 0), 0);

/**
 * The bars add up to the context they say (issue 24, item 1): what the agent sent beside
 * the messages (system prompt, tools), measured from the recorded input, is a segment of
 * its own instead of the messages' estimates scaled up to the recorded size.
 */
describe("context bars: the system prompt and tools are their own segment", () => {
  it("Claude Code: a 5k recorded input over ~40 tokens of messages draws ~5k of 'system', the messages at their own size", () => {
    const usage = { input_tokens: 10, cache_creation_input_tokens: 4_900, cache_read_input_tokens: 0, output_tokens: 20 };
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, [ccUser("u1", null, "list the files"), fragment("a1", "u1", "msg_1", text("Here they are."), { message: { model: "claude-sonnet-4-5-20250929", id: "msg_1", type: "message", role: "assistant", content: [text("Here they are.")], stop_reason: "end_turn", usage } })]);
    const [bar] = formatBars(s, undefined);
    assert.ok((bar.byKind.system ?? 0) > 4_800, JSON.stringify(bar.byKind));
    assert.ok((bar.byKind.user ?? 0) < 50, `the prompt is drawn at its own size: ${JSON.stringify(bar.byKind)}`);
    assert.ok(Math.abs(sum(bar) - bar.total) <= 2, `adds up: ${sum(bar)} vs ${bar.total}`);
  });

  it("pi: the bar's segments add up to pi's context size, the overhead as 'system'; the preview names it", async () => {
    const used = { usage: { input: 4_000, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 4_050 } };
    const file = writeSession([header(), user("p0000001", null, "list the files"), assistant("p0000002", "p0000001", "Here they are.", used)]);
    const s = (await openSession(file));
    const [bar] = formatBars(s, undefined);
    assert.equal(bar.source, "recorded");
    assert.ok((bar.byKind.system ?? 0) > 3_900, JSON.stringify(bar.byKind));
    assert.ok(Math.abs(sum(bar) - bar.total) <= 2, `adds up: ${sum(bar)} vs ${bar.total}`);
    const preview = buildPreview(s, undefined, "pi");
    assert.match(preview.text, /^\/\/ Not in the file \(system prompt and tool definitions\), estimated: [\d,]+ tokens of unrecorded overhead/m);
  });

  it("no recorded usage: no 'system' segment (nothing measures it)", async () => {
    const s = (await openSession(writeSession([header(), user("q0000001", null, "hi"), assistant("q0000002", "q0000001", "hello", { usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 } })])));
    const [bar] = formatBars(s, undefined);
    assert.equal(bar.byKind.system, undefined);
  });
});
