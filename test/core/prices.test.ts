import { strict as assert } from "node:assert";
import { openSession } from "../../src/core/formats/registry";
import { costSteps } from "../../src/core/usage/session-cost";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";
import { validatePriceOverrides } from "../../src/core/tokens/price-overrides";
import { bareModelId, costOf, KNOWN_PRICES, priceFor, priceTokens } from "../../src/core/tokens/prices";

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

describe("model prices", () => {
  it("prices each Claude family from the table, dated ids and tags included", () => {
    const cases: Array<[string, string, number, number]> = [
      ["claude-opus-4-20250514", "claude-opus-4", 15, 75],
      ["claude-opus-4-0", "claude-opus-4-0", 15, 75],
      ["claude-opus-4-1-20250805", "claude-opus-4-1", 15, 75],
      ["claude-opus-4-5-20251101", "claude-opus-4-5", 5, 25],
      ["claude-opus-4-6", "claude-opus-4-6", 5, 25],
      ["claude-sonnet-4-20250514", "claude-sonnet-4", 3, 15],
      ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5", 3, 15],
      ["claude-sonnet-4-5[1m]", "claude-sonnet-4-5", 3, 15],
      ["claude-haiku-4-5-20251001", "claude-haiku-4-5", 1, 5],
      ["claude-3-7-sonnet-20250219", "claude-3-7-sonnet", 3, 15],
      ["claude-3-5-sonnet-latest", "claude-3-5-sonnet", 3, 15],
      ["claude-3-5-sonnet-v2@20241022", "claude-3-5-sonnet", 3, 15],
      ["claude-3-5-haiku-20241022", "claude-3-5-haiku", 0.8, 4],
      ["claude-3-opus-20240229", "claude-3-opus", 15, 75],
      ["claude-3-haiku-20240307", "claude-3-haiku", 0.25, 1.25],
    ];
    for (const [id, key, input, output] of cases) {
      const p = priceFor(id);
      assert.ok(p, id);
      assert.equal(p.key, key, id);
      assert.equal(p.source, "table");
      assert.deepEqual([p.price.input, p.price.output], [input, output], id);
    }
  });

  it("prices cache writes at 1.25x and cache reads at 0.1x of input, as the published table does", () => {
    for (const [key, p] of Object.entries(KNOWN_PRICES)) {
      // Haiku 3's published figures are rounded ($0.30 write, $0.03 read for $0.25 input).
      if (key === "claude-3-haiku") continue;
      close(p.cacheWrite, p.input * 1.25);
      close(p.cacheRead, p.input * 0.1);
    }
    for (const p of Object.values(KNOWN_PRICES)) close(p.cacheWrite1h as number, p.input * 2);
  });

  it("strips provider prefixes and case", () => {
    assert.equal(bareModelId("anthropic/claude-sonnet-4-5"), "claude-sonnet-4-5");
    assert.equal(bareModelId("us.anthropic.claude-3-5-haiku-20241022-v1:0"), "claude-3-5-haiku-20241022-v1:0");
    assert.equal(priceFor("OpenRouter/Anthropic/Claude-Opus-4-5")?.key, "claude-opus-4-5");
    assert.equal(priceFor("us.anthropic.claude-3-5-haiku-20241022-v1:0")?.key, "claude-3-5-haiku");
  });

  it("gives no price for unknown models, and never a family's price to a version it has not seen", () => {
    for (const id of ["gpt-4o-2024-05-13", "gemini-9-ultra", "claude-opus-4-9", "claude-sonnet-4-7-20270101", "claude-haiku-4", "claude-sonnet-5", "claude-3-sonnet-20240229", "claude-", "<synthetic>", ""]) {
      assert.equal(priceFor(id), undefined, id);
    }
    assert.equal(priceFor(undefined), undefined);
  });

  it("overrides beat the table, by exact id or prefix, longest first, after prefix stripping", () => {
    const o = { "claude-sonnet-4-5": { input: 1, output: 2, cacheWrite: 3, cacheRead: 4 }, "claude-": { input: 9, output: 9, cacheWrite: 9, cacheRead: 9 }, "my-model": { input: 0.5, output: 1, cacheWrite: 0, cacheRead: 0 } };
    assert.deepEqual(priceFor("claude-sonnet-4-5-20250929", o), { price: o["claude-sonnet-4-5"], source: "override", key: "claude-sonnet-4-5" });
    assert.equal(priceFor("anthropic/claude-opus-4-9", o)?.key, "claude-");
    assert.equal(priceFor("local/my-model", o)?.key, "my-model");
    // "" is the catch-all: it prices a step whose model is not known at all.
    assert.equal(priceFor(undefined, { "": o["my-model"] })?.source, "override");
  });

  it("prices tokens per million, each kind at its own rate", () => {
    const p = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };
    close(priceTokens({ input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }, p), 3);
    close(priceTokens({ input: 1000, output: 2000, cacheRead: 10_000, cacheWrite: 4000 }, p), (3000 + 30000 + 3000 + 15000) / 1e6);
  });

  it("prices the 1-hour part of the cache writes at its own rate, where it is known", () => {
    const sonnet = priceFor("claude-sonnet-4-5")?.price;
    assert.ok(sonnet);
    close(priceTokens({ input: 0, output: 0, cacheRead: 0, cacheWrite: 1000, cacheWrite1h: 400 }, sonnet), (600 * 3.75 + 400 * 6) / 1e6);
    // Never more 1-hour writes than writes; none given: all at the 5-minute rate.
    close(priceTokens({ input: 0, output: 0, cacheRead: 0, cacheWrite: 1000, cacheWrite1h: 5000 }, sonnet), (1000 * 6) / 1e6);
    close(priceTokens({ input: 0, output: 0, cacheRead: 0, cacheWrite: 1000 }, sonnet), (1000 * 3.75) / 1e6);
    // A price without a 1-hour rate prices those writes as any other write.
    close(priceTokens({ input: 0, output: 0, cacheRead: 0, cacheWrite: 1000, cacheWrite1h: 400 }, { input: 1, output: 1, cacheWrite: 2, cacheRead: 0 }), 2000 / 1e6);
  });
});

describe("costOf", () => {
  const usage = { input: 1000, output: 100, cacheRead: 20_000, cacheWrite: 2000 };

  it("takes the recorded cost when the usage carries one, whatever the model", () => {
    assert.deepEqual(costOf({ ...usage, cost: 0.0421 }, "claude-opus-4-5"), { usd: 0.0421, source: "recorded" });
    assert.deepEqual(costOf({ ...usage, cost: 0 }, "gpt-4o"), { usd: 0, source: "recorded" });
  });

  it("prices tokens from the table or an override when nothing is recorded", () => {
    const c = costOf(usage, "claude-opus-4-5-20251101");
    assert.equal(c.source, "priced");
    assert.equal(c.priceKey, "claude-opus-4-5");
    close(c.usd, (1000 * 5 + 100 * 25 + 20_000 * 0.5 + 2000 * 6.25) / 1e6);
    const o = costOf(usage, "gpt-4o", { "gpt-4o": { input: 2.5, output: 10, cacheWrite: 0, cacheRead: 1.25 } });
    assert.equal(o.priceSource, "override");
    close(o.usd, (1000 * 2.5 + 100 * 10 + 20_000 * 1.25) / 1e6);
  });

  it("says none (usd 0) for a model without a price", () => {
    assert.deepEqual(costOf(usage, "local-llama"), { usd: 0, source: "none" });
    assert.deepEqual(costOf(usage, undefined), { usd: 0, source: "none" });
  });
});

describe("price overrides (agentSessions.modelPrices)", () => {
  it("keeps valid entries, lower-cased, and reports every bad one without throwing", () => {
    const v = validatePriceOverrides({
      "Claude-Sonnet-4-5": { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
      "free-model": { input: 0, output: 0, cacheWrite: 0, cacheRead: 0, note: "x" },
      "no-cache": { input: 1, output: 2 },
      negative: { input: -1, output: 2, cacheWrite: 0, cacheRead: 0 },
      text: { input: "3", output: 15, cacheWrite: 1, cacheRead: 1 },
      nan: { input: Number.NaN, output: 15, cacheWrite: 1, cacheRead: 1 },
      flat: 3,
      list: [1, 2, 3, 4],
    });
    assert.deepEqual(Object.keys(v.prices), ["claude-sonnet-4-5", "free-model"]);
    assert.deepEqual(v.prices["free-model"], { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });
    assert.equal(v.problems.length, 7, v.problems.join("\n"));
    assert.ok(v.problems.some((p) => p.includes('"free-model"') && p.includes('"note"') && p.includes("ignored")));
    assert.ok(v.problems.some((p) => p.includes('"no-cache"') && p.includes("cacheWrite missing") && p.includes("cacheRead missing")));
    assert.ok(v.problems.some((p) => p.includes('"negative"') && p.includes("input is not a number from 0 to 2^53")));
    assert.ok(v.problems.some((p) => p.includes('"text"') && p.includes("input")));
    assert.ok(v.problems.some((p) => p.includes('"nan"')));
    assert.ok(v.problems.some((p) => p.includes('"flat"') && p.includes("expected {input, output, cacheWrite, cacheRead}")));
    assert.ok(v.problems.every((p) => p.startsWith("agentSessions.modelPrices[")));
  });

  it("takes an optional cacheWrite1h; a bad one is reported and the entry kept without it", () => {
    const v = validatePriceOverrides({ a: { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1, cacheWrite1h: 2 }, b: { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1, cacheWrite1h: "2" } });
    assert.equal(v.prices.a.cacheWrite1h, 2);
    assert.deepEqual(v.prices.b, { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 });
    assert.deepEqual(v.problems.length, 1);
    assert.match(v.problems[0], /\["b"\]: cacheWrite1h is not a number from 0 to 2\^53/);
  });

  it("reports a setting that is not an object, and accepts an absent one", () => {
    // The table has no prototype (a "__proto__" key is a model name): compare its entries.
    const none = Object.create(null);
    assert.deepEqual(validatePriceOverrides(undefined), { prices: none, problems: [] });
    assert.deepEqual(validatePriceOverrides(null), { prices: none, problems: [] });
    for (const raw of ["claude", 3, [1]]) {
      const v = validatePriceOverrides(raw);
      assert.deepEqual(v.prices, none);
      assert.equal(v.problems.length, 1);
      assert.match(v.problems[0], /^agentSessions\.modelPrices: expected an object/);
    }
  });

  it("cuts a long key in its message", () => {
    const v = validatePriceOverrides({ ["m".repeat(500)]: {} });
    assert.equal(v.problems.length, 1);
    assert.ok(v.problems[0].length < 200, v.problems[0]);
  });
});

describe("the price table against pi's recorded costs", () => {
  // pi records what each call cost by its own price list; our table, applied to the same
  // tokens, must give the same figure (Opus 4.5 and Sonnet 4.5, cache reads and writes).
  for (const name of REAL_SESSIONS) {
    it(`${name}: every recorded step priced from its tokens gives the cost pi recorded`, async function () {
      needFixtures(this);
      const s = await openSession(fixture(`${name}.jsonl`));
      const steps = costSteps(s);
      assert.ok(steps.length > 100, `${steps.length} steps`);
      let cacheSteps = 0;
      for (const st of steps) {
        const { cost, ...tokens } = st.usage;
        assert.equal(typeof cost, "number", st.entryId);
        const priced = costOf(tokens, st.model);
        assert.equal(priced.source, "priced", `${st.entryId}: ${st.model}`);
        assert.ok(Math.abs(priced.usd - (cost as number)) < 1e-9, `${st.entryId} (${st.model}): priced ${priced.usd}, recorded ${cost}`);
        if (tokens.cacheRead > 0 && tokens.cacheWrite > 0) cacheSteps++;
      }
      assert.ok(cacheSteps > 0, "no step with both cache reads and writes");
    });
  }
});
