import { strict as assert } from "node:assert";
import { clawdcodeFormat } from "../../src/core/formats/clawdcode/format";
import { MemorySession } from "../../src/core/session/memory-session";
import { piFormat } from "../../src/core/formats/pi/format";
import { seed000Format } from "../../src/core/formats/seed-000/format";
import type { SessionReader } from "../../src/core/session/session-reader";
import { type CostSum, sessionCost } from "../../src/core/usage/session-cost";
import * as claw from "../formats/clawdcode/lines";
import * as seed from "../formats/seed-000/helpers";
import { assistant as piAssistant, user as piUser } from "../helpers/session-builder";

const close = (a: number, b: number, what = "") => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

function pi(records: Array<Record<string, unknown>>): MemorySession {
  return new MemorySession(piFormat.id, piFormat.index, records, "/s/pi.jsonl", 1, 3);
}

/** A pi assistant entry with a recorded cost, at a given time. */
function piPaid(id: string, parent: string, usd: number, at: string, model = "claude-sonnet-4-5", tokens = { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 }) {
  const e = piAssistant(id, parent, "ok", { model, usage: { ...tokens, totalTokens: 110, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: usd } } });
  e.timestamp = at;
  return e;
}

function branch(c: ReturnType<typeof sessionCost>, leafId: string): CostSum {
  const b = c.byBranch.find((x) => x.leafId === leafId);
  assert.ok(b, `no branch ${leafId}`);
  return b;
}

describe("session cost: pi (recorded cost)", () => {
  // u1 - a1 ($0.10, day 1) - u2 - a2 ($0.20, day 2, opus) ; a1 - u3 - a3 ($0.05, day 2)
  const s = pi([
    piUser("u1", null, "hi"),
    piPaid("a1", "u1", 0.1, "2026-05-01T23:59:00.000Z"),
    piUser("u2", "a1", "more"),
    piPaid("a2", "u2", 0.2, "2026-05-02T00:01:00.000Z", "claude-opus-4-5"),
    piUser("u3", "a1", "other way"),
    piPaid("a3", "u3", 0.05, "2026-05-02T10:00:00.000Z"),
  ]);
  const c = sessionCost(s, piFormat);

  it("totals the recorded costs, each assistant step once", () => {
    close(c.total.usd, 0.35, "total");
    assert.equal(c.total.steps, 3);
    assert.equal(c.total.recordedSteps, 3);
    assert.equal(c.total.pricedSteps, 0);
    close(c.total.recordedUsd, 0.35);
    assert.deepEqual(c.total.tokens, { input: 300, output: 30, cacheRead: 0, cacheWrite: 0 });
    assert.deepEqual(c.steps.map((x) => [x.entryId, x.cost.source]), [["a1", "recorded"], ["a2", "recorded"], ["a3", "recorded"]]);
  });

  it("sums each leaf's path", () => {
    assert.deepEqual(c.byBranch.map((b) => b.leafId), ["a2", "a3"]);
    close(branch(c, "a2").usd, 0.3, "a2");
    close(branch(c, "a3").usd, 0.15, "a3");
    assert.equal(branch(c, "a2").steps, 2);
  });

  it("sums per model and per UTC day", () => {
    assert.deepEqual(c.byModel.map((m) => [m.model, m.steps]), [["claude-opus-4-5", 1], ["claude-sonnet-4-5", 2]]);
    close(c.byModel[1].usd, 0.15);
    assert.deepEqual(c.byDay.map((d) => d.day), ["2026-05-01", "2026-05-02"]);
    close(c.byDay[0].usd, 0.1);
    close(c.byDay[1].usd, 0.25);
  });

  it("prices 1-hour cache writes at their rate when the format's hook gives them", () => {
    const tokens = { input: 10, output: 0, cacheRead: 0, cacheWrite: 1000 };
    const noCost = (id: string, parent: string) => piAssistant(id, parent, "ok", { model: "claude-opus-4-5", usage: { ...tokens, totalTokens: 1010 } });
    const s2 = pi([piUser("u1", null, "hi"), noCost("a1", "u1"), piUser("u2", "a1", "more"), noCost("a2", "u2")]);
    const plain = sessionCost(s2, piFormat);
    close(plain.total.usd, 2 * (10 * 5 + 1000 * 6.25) / 1e6, "5-minute");
    const hooked = sessionCost(s2, piFormat, { cacheWrite1h: (s, i) => (s.metas[i].id === "a2" ? 1000 : undefined) });
    close(hooked.total.usd, (10 * 5 + 1000 * 6.25) / 1e6 + (10 * 5 + 1000 * 10) / 1e6, "one step at the 1-hour rate");
    assert.deepEqual(hooked.steps.map((x) => x.usage.cacheWrite1h), [undefined, 1000]);
  });

  it("counts nothing for entries without tokens or cost (aborted or synthetic turns)", () => {
    const z = pi([piUser("u1", null, "hi"), piAssistant("a1", "u1", "", { usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { total: 0 } } })]);
    const zc = sessionCost(z, piFormat);
    assert.equal(zc.total.steps, 0);
    assert.deepEqual(zc.byBranch.map((b) => [b.leafId, b.steps]), [["a1", 0]]);
  });
});

describe("session cost: seed-000 (priced from the table)", () => {
  function session(): SessionReader {
    return seed.memory([
      seed.user("u1", null, "q"),
      seed.assistant("a1", "u1", "a", { model: "claude-sonnet-4-5", usage: { input_tokens: 1_000_000, output_tokens: 100_000 } }),
      seed.user("u2", "a1", "q2"),
      seed.assistant("a2", "u2", "b", { model: "claude-haiku-4-5", usage: { input_tokens: 2000, output_tokens: 1000 } }),
      seed.user("u3", "a1", "q3"),
      seed.assistant("a3", "u3", "c", { model: "local-llama", usage: { input_tokens: 5000, output_tokens: 500 } }),
    ]);
  }

  it("prices each step by its model and leaves unknown models out of the total, counted as unpriced", () => {
    const c = sessionCost(session(), seed000Format);
    const a1 = 3 + 1.5; // 1M input at $3, 100k output at $15/M
    const a2 = (2000 * 1 + 1000 * 5) / 1e6;
    close(c.total.usd, a1 + a2, "total");
    close(c.total.pricedUsd, a1 + a2);
    assert.equal(c.total.recordedSteps, 0);
    assert.equal(c.total.pricedSteps, 2);
    assert.equal(c.total.unpricedSteps, 1);
    assert.equal(c.total.unpricedTokens, 5500);
    assert.deepEqual(c.unpricedModels, ["local-llama"]);
    assert.deepEqual(c.steps.map((x) => x.cost.source), ["priced", "priced", "none"]);
    close(branch(c, "a2").usd, a1 + a2, "a2");
    close(branch(c, "a3").usd, a1, "a3");
    assert.equal(branch(c, "a3").unpricedSteps, 1);
    assert.deepEqual(c.byModel.map((m) => m.model), ["claude-sonnet-4-5", "claude-haiku-4-5", "local-llama"]);
    assert.equal(c.dedupe, "per-entry");
  });

  it("prices an unknown model once an override names it", () => {
    const c = sessionCost(session(), seed000Format, { prices: { "local-": { input: 1, output: 2, cacheWrite: 0, cacheRead: 0 } } });
    assert.equal(c.total.unpricedSteps, 0);
    assert.deepEqual(c.unpricedModels, []);
    close(branch(c, "a3").usd, 4.5 + (5000 + 500 * 2) / 1e6, "a3");
  });
});

describe("session cost: clawdcode (priced) and responses split over lines", () => {
  function session(): SessionReader {
    return claw.memory([
      claw.user("00000000-0000-4000-8000-000000000001", null, "q"),
      claw.assistant("00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000001", "part 1", { input_tokens: 4000, output_tokens: 10 }, "claude-opus-4-1-20250805"),
      claw.assistant("00000000-0000-4000-8000-000000000003", "00000000-0000-4000-8000-000000000002", "part 2", { input_tokens: 4000, output_tokens: 30 }, "claude-opus-4-1-20250805"),
      claw.user("00000000-0000-4000-8000-000000000004", "00000000-0000-4000-8000-000000000003", "q2"),
      claw.assistant("00000000-0000-4000-8000-000000000005", "00000000-0000-4000-8000-000000000004", "answer", { input_tokens: 5000, output_tokens: 20 }, "claude-opus-4-1-20250805"),
    ]);
  }
  const price = (input: number, output: number) => (input * 15 + output * 75) / 1e6;

  it("without a response id every line with usage is a step", () => {
    const c = sessionCost(session(), clawdcodeFormat);
    assert.equal(c.total.steps, 3);
    assert.equal(c.dedupe, "per-entry");
    close(c.total.usd, price(4000, 10) + price(4000, 30) + price(5000, 20));
  });

  it("with the responseId hook, lines of one response are one step at its first line, with the last line's usage", () => {
    const ids: Record<string, string> = { "00000000-0000-4000-8000-000000000002": "msg_1", "00000000-0000-4000-8000-000000000003": "msg_1", "00000000-0000-4000-8000-000000000005": "msg_2" };
    const responseId = (s: SessionReader, i: number) => ids[s.metas[i].id];
    const c = sessionCost(session(), clawdcodeFormat, { responseId });
    assert.equal(c.dedupe, "response-id");
    assert.deepEqual(c.steps.map((x) => [x.entryId, x.usage.output, x.repeats]), [["00000000-0000-4000-8000-000000000002", 30, 1], ["00000000-0000-4000-8000-000000000005", 20, 0]]);
    close(c.total.usd, price(4000, 30) + price(5000, 20));
    // The same hook, carried by the format itself.
    const viaFormat = sessionCost(session(), { ...clawdcodeFormat, responseId });
    close(viaFormat.total.usd, c.total.usd);
    assert.equal(viaFormat.dedupe, "response-id");
  });

  it("puts a step whose own line names no model under the model above it", () => {
    const s = claw.memory([
      claw.user("00000000-0000-4000-8000-000000000001", null, "q"),
      claw.assistant("00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000001", "a", undefined, "claude-haiku-4-5"),
      { ...claw.assistant("00000000-0000-4000-8000-000000000003", "00000000-0000-4000-8000-000000000002", "b", { input_tokens: 100, output_tokens: 1 }), message: { role: "assistant", content: "b", usage: { input_tokens: 100, output_tokens: 1 } } },
    ]);
    const c = sessionCost(s, clawdcodeFormat);
    assert.deepEqual(c.steps.map((x) => x.model), ["claude-haiku-4-5"]);
    close(c.total.usd, (100 * 1 + 1 * 5) / 1e6);
  });
});
