import { strict as assert } from "node:assert";
import { claudeCodeIndexHooks } from "../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../src/core/session/memory-session";
import { Session } from "../../src/core/formats/pi/pi-session";
import { ExplorerController } from "../../src/explorer/controller";
import { fragment, text, thinking, user as ccUser } from "../formats/claude-code/lines";
import { assistant, header, user, writeSession } from "../helpers/session-builder";

const req = { requestId: 1 };

describe("explorer details: the cost of the step an entry is", () => {
  it("Claude Code: a response over two lines is one priced step, shown on its row (its last line); a prompt has none", async () => {
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, [ccUser("u1", null, "hi"), fragment("a1", "u1", "msg_1", thinking("hmm")), fragment("a2", "a1", "msg_1", text("hello"))]);
    const c = new ExplorerController(s, { trusted: () => true });
    const row = c.answer({ type: "details", ...req, id: "a2" });
    assert.equal(row.stepCost?.source, "priced");
    assert.ok((row.stepCost?.usd ?? 0) > 0);
    assert.deepEqual(c.answer({ type: "details", ...req, id: "a1" }).stepCost, row.stepCost, "the same step from its first line");
    assert.equal(c.answer({ type: "details", ...req, id: "u1" }).stepCost, undefined);
    // An override for the model changes it.
    const priced = new ExplorerController(s, { trusted: () => true, prices: () => ({ "claude-sonnet-4-5-20250929": { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 } }) });
    assert.equal(priced.answer({ type: "details", ...req, id: "a2" }).stepCost?.usd, 0);
  });

  it("pi: a step with a recorded cost says so", async () => {
    const file = writeSession([header(), user("u1", null, "hi"), assistant("a1", "u1", "hello", { usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 } } })]);
    const c = new ExplorerController(await Session.load(file), { trusted: () => true });
    assert.deepEqual(c.answer({ type: "details", ...req, id: "a1" }).stepCost, { usd: 0.03, source: "recorded" });
  });
});
