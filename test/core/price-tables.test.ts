import { strict as assert } from "node:assert";
import { performance } from "node:perf_hooks";
import { seed000Format } from "../../src/core/formats/seed-000/format";
import { validatePriceOverrides } from "../../src/core/tokens/price-overrides";
import { type PriceOverrides, priceFor } from "../../src/core/tokens/prices";
import { sessionCost } from "../../src/core/usage/session-cost";
import { assistant, memory, user } from "../formats/seed-000/helpers";

const PRICE = { input: 1, output: 2, cacheWrite: 0, cacheRead: 0 };

/** A table of n made-up models (none of them the session's), validated as the setting is. */
function table(n: number): PriceOverrides {
  const raw: Record<string, unknown> = {};
  for (let k = 0; k < n; k++) raw[`vendor-model-${k}`] = PRICE;
  const v = validatePriceOverrides(raw);
  assert.deepEqual(v.problems, []);
  return v.prices;
}

/** The fastest of three cost passes (the least disturbed by the busy machine). */
function fastest(run: () => void): number {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

describe("price tables", () => {
  it('keeps a "__proto__" key as a model name: it prices that model, nothing else changes', () => {
    const v = validatePriceOverrides(JSON.parse('{"__proto__": {"input": 7, "output": 0, "cacheWrite": 0, "cacheRead": 0}, "x": {"input": 1, "output": 0, "cacheWrite": 0, "cacheRead": 0}}'));
    assert.deepEqual(v.problems, []);
    assert.deepEqual(Object.keys(v.prices).sort(), ["__proto__", "x"]);
    assert.equal(priceFor("__proto__", v.prices)?.price.input, 7);
    assert.equal(priceFor("__proto__", v.prices)?.key, "__proto__");
    // The table's own object methods are no model names.
    assert.equal(priceFor("constructor", v.prices), undefined);
    assert.equal(priceFor("tostring", v.prices), undefined);
  });

  it("a step's price is looked up, not found by a scan of the table: 100,000 keys cost about what 10 do", function () {
    this.timeout(120_000);
    const records = [user("u0", null, "q")];
    for (let k = 1; k <= 1000; k++) records.push(assistant(`a${k}`, k === 1 ? "u0" : `a${k - 1}`, "a", { model: `claude-sonnet-4-5-2025${String(k).padStart(4, "0")}`, usage: { input_tokens: 10, output_tokens: 1 } }));
    const s = memory(records);
    const small = table(10);
    const big = table(100_000);
    // Each table is checked the same way: priced from the built-in table, none of the overrides match.
    assert.equal(sessionCost(s, seed000Format, { prices: big }).total.pricedSteps, 1000);
    const tSmall = fastest(() => sessionCost(s, seed000Format, { prices: small }));
    const tBig = fastest(() => sessionCost(s, seed000Format, { prices: big }));
    assert.ok(tBig < Math.max(tSmall, 5) * 5, `1,000 steps: ${tBig.toFixed(1)} ms with 100,000 keys, ${tSmall.toFixed(1)} ms with 10`);
  });

  it("an override prefix still wins over the table, longest first, after the index", () => {
    const o = { ...table(1000) };
    const v = validatePriceOverrides({ ...Object.fromEntries(Object.entries(o)), "claude-": PRICE, "claude-sonnet": { ...PRICE, input: 3 } });
    assert.equal(priceFor("anthropic/claude-sonnet-4-5", v.prices)?.key, "claude-sonnet");
    assert.equal(priceFor("claude-opus-4-5", v.prices)?.key, "claude-");
    assert.equal(priceFor("vendor-model-999-x", v.prices)?.key, "vendor-model-999");
    assert.equal(priceFor("other", v.prices), undefined);
  });
});

describe("price tables: figures", () => {
  it("a price of 1e308 is refused like a negative one: no sum can overflow to Infinity", () => {
    const v = validatePriceOverrides({ huge: { input: 1e308, output: 0, cacheWrite: 0, cacheRead: 0 } });
    assert.equal(priceFor("huge", v.prices), undefined);
    assert.match(v.problems[0], /\["huge"\]: input is not a number from 0 to 2\^53; entry ignored/);
  });
});
