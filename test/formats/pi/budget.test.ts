import { strict as assert } from "node:assert";
import { budgetBreakdown, DEFAULT_ALLOCATION } from "../../../src/core/formats/pi/context/budget";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { assistant, entry, header, user } from "../../helpers/session-builder";
import { piSession } from "./memory";

function ctxOf(lines: Array<Record<string, unknown>>) {
  return buildContext(piSession(lines));
}

describe("budget breakdown of a leaf's context", () => {
  const lines = [
    header(),
    user("10000001", null, "u".repeat(400)),
    assistant("10000002", "10000001", "a".repeat(800)),
    entry("custom_message", "10000003", "10000002", { customType: "rag", content: "r".repeat(1200), display: false }),
    entry("branch_summary", "10000004", "10000003", { fromId: "10000002", summary: "s".repeat(200) }),
    user("10000005", "10000004", "c".repeat(40)),
    assistant("10000006", "10000005", "b".repeat(80)),
  ];

  it("puts each message in its category; the current input is the last user message", () => {
    const b = budgetBreakdown(ctxOf(lines), { contextTokens: 10000, total: 100000 });
    const part = (n: string) => b.parts.find((p) => p.name === n);
    assert.deepEqual(part("current")?.entryIds, ["10000005"]);
    assert.deepEqual(part("injected")?.entryIds, ["10000003"]);
    assert.deepEqual(part("summary")?.entryIds, ["10000004"]);
    assert.deepEqual(part("recent")?.entryIds, ["10000001", "10000002", "10000006"]);
    assert.equal(part("injected")?.measured, 300);
    assert.equal(part("current")?.measured, 10);
    // The recorded size holds more than the messages: the rest is the system prompt (+ tools).
    assert.equal(b.systemSource, "remainder");
    const messages = b.parts.slice(1).reduce((a, p) => a + p.measured, 0);
    assert.ok(messages > 100 + 200 + 300 + 50 + 20 + 10, "summary counted with pi's wrapping");
    assert.equal(part("system")?.used, 10000 - messages);
    assert.deepEqual(b.parts.map((p) => p.allocated), [20000, 10000, 10000, 55000, 5000]);
    assert.equal(b.parts.reduce((a, p) => a + p.used, 0), 10000);
  });

  it("scales the messages into the context size when the measures overshoot, keeping a known system prompt", () => {
    const b = budgetBreakdown(ctxOf(lines), { contextTokens: 500, total: 1000, systemTokens: 100 });
    assert.equal(b.systemSource, "text");
    assert.equal(b.parts[0].used, 100);
    assert.equal(b.parts.reduce((a, p) => a + p.used, 0), 500);
    assert.ok(b.overflowing.includes("injected"), "300 tokens of injected text overflow 10% of 1,000");
    assert.deepEqual(b.overflowing, b.parts.filter((p) => p.used > p.allocated).map((p) => p.name));
  });

  it("takes a custom allocation and rejects one that does not sum to 100%", () => {
    const ctx = ctxOf(lines);
    const b = budgetBreakdown(ctx, { contextTokens: 1000, total: 999, allocation: { system: 50, summary: 0, injected: 0, recent: 50, current: 0 } });
    assert.deepEqual(b.parts.map((p) => p.allocated), [500, 0, 0, 499, 0]);
    assert.throws(() => budgetBreakdown(ctx, { contextTokens: 1, total: 1, allocation: { ...DEFAULT_ALLOCATION, current: 6 } }), /sum to 100/);
  });
});
