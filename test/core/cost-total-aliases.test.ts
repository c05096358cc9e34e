import { strict as assert } from "node:assert";
import { MemorySession } from "../../src/core/session/memory-session";
import { piFormat } from "../../src/core/formats/pi/format";
import { costTotal } from "../../src/core/usage/cost-total";
import { costTotalText } from "../../src/core/usage/cost-total-text";
import { sessionCost } from "../../src/core/usage/session-cost";
import { assistant, user } from "../helpers/session-builder";

/** One pi session of one step by `model`, priced from the table (no recorded cost). */
function step(path: string, model: string, at: string) {
  const e = assistant("a1", "u1", "ok", { model, usage: { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 } });
  e.timestamp = at;
  return { path, agent: "pi", project: "/p", cost: sessionCost(new MemorySession(piFormat.id, piFormat.index, [user("u1", null, "hi"), e], path, 1, 3), piFormat) };
}

/** Issue 24, "model aliases split in Total Cost": a model's alias and its dated name are one line. */
describe("cost total: a model under its alias and its dated name is one model", () => {
  const sessions = [
    step("/s/a.jsonl", "claude-sonnet-4-5", "2026-05-01T12:00:00.000Z"),
    step("/s/b.jsonl", "claude-sonnet-4-5-20250929", "2026-05-02T12:00:00.000Z"),
    step("/s/c.jsonl", "claude-opus-4-5", "2026-05-02T13:00:00.000Z"),
    step("/s/d.jsonl", "gpt-4o-2024-05-13", "2026-05-02T14:00:00.000Z"),
    step("/s/e.jsonl", "gpt-4o", "2026-05-02T15:00:00.000Z"),
  ];

  it("byModel groups claude-sonnet-4-5 and claude-sonnet-4-5-20250929 under the alias, priced the same; other models stay apart", () => {
    const t = costTotal(sessions);
    const names = t.byModel.map((m) => m.model).sort();
    assert.deepEqual(names, ["claude-opus-4-5", "claude-sonnet-4-5", "gpt-4o", "gpt-4o-2024-05-13"], "a date with dashes (OpenAI) names another priced model");
    const sonnet = t.byModel.find((m) => m.model === "claude-sonnet-4-5");
    assert.ok(sonnet);
    assert.equal(sonnet.steps, 2);
    assert.deepEqual(sonnet.aliases, ["claude-sonnet-4-5", "claude-sonnet-4-5-20250929"]);
    const [a, b] = [sessions[0].cost.total.usd, sessions[1].cost.total.usd];
    assert.ok(a > 0 && a === b, `the alias and the dated name are priced the same: ${a} vs ${b}`);
    assert.equal(sonnet.usd, a + b);
    assert.equal(t.byModel.find((m) => m.model === "claude-opus-4-5")?.aliases, undefined, "one name: no aliases listed");
  });

  it("the text report prints one sonnet line naming the dated name it includes", () => {
    const text = costTotalText({ ...costTotal(sessions), filesRead: 5, filesBefore: 0, failed: [] });
    const lines = text.split("\n").filter((l) => l.startsWith("claude-sonnet-4-5"));
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0], /^claude-sonnet-4-5 \(also as claude-sonnet-4-5-20250929\) +\$/);
  });
});
