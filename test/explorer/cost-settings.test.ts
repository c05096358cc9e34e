import { strict as assert } from "node:assert";
import { appendFileSync, statSync } from "node:fs";
import type { SessionCost } from "../../src/core/usage/session-cost";
import { ModelPrices } from "../../src/extension/model-prices";
import { SessionCosts } from "../../src/extension/session-costs";
import { assistant, header, user, writeSession } from "../helpers/session-builder";

const good = { input: 1, output: 4, cacheWrite: 1.25, cacheRead: 0.1 };

describe("agentSessions.modelPrices setting", () => {
  it("keeps the valid entries, warns once per bad one, and reads the setting again after a change", () => {
    let raw: unknown = { "My-Model": good, broken: { input: 1 }, "odd": { ...good, colour: "red" } };
    const warned: string[] = [];
    const prices = new ModelPrices(() => raw, { warn: (m) => warned.push(m) });
    const first = prices.get();
    assert.deepEqual(Object.keys(first).sort(), ["my-model", "odd"], "keys as the price lookup matches them (lower case)");
    assert.equal(warned.length, 2);
    assert.match(warned[0], /agentSessions\.modelPrices\["broken"\]: output missing, cacheWrite missing, cacheRead missing; entry ignored/);
    assert.match(warned[1], /\["odd"\]: unknown field\(s\) "colour" ignored/);
    assert.equal(prices.get(), first, "the same object until the setting changes");
    prices.reset();
    assert.notEqual(prices.get(), first, "a new object after a change (caches tell by identity)");
    assert.equal(warned.length, 2, "a problem that stays is not warned about again");
    raw = { broken: good };
    prices.reset();
    assert.deepEqual(Object.keys(prices.get()), ["broken"]);
    raw = { broken: { input: 1 } };
    prices.reset();
    prices.get();
    assert.equal(warned.length, 3, "fixed, then broken again: warned again");
  });

  it("a setting that is not an object gives no prices and one warning; none at all gives none", () => {
    const warned: string[] = [];
    assert.deepEqual(new ModelPrices(() => [good], { warn: (m) => warned.push(m) }).get(), Object.create(null));
    assert.deepEqual(warned, ["agentSessions.modelPrices: expected an object of model ids to prices, got an array"]);
    assert.deepEqual(new ModelPrices(() => undefined, { warn: (m) => warned.push(m) }).get(), Object.create(null));
    assert.equal(warned.length, 1);
  });
});

describe("session costs cache", () => {
  function file(): string {
    return writeSession([header(), user("u1", null, "hi"), assistant("a1", "u1", "ok", { model: "local-llama" })]);
  }

  it("computes a file's cost once per mtime and size, with the prices of the moment; a grown file again", async () => {
    const path = file();
    let prices = {};
    const costs = new SessionCosts(() => prices);
    const first = await costs.get(path);
    assert.equal(first.total.unpricedSteps, 1);
    const st = statSync(path);
    assert.equal(costs.peek(path, st), first);
    assert.deepEqual(costs.peekTotal(path, st), { usd: 0, steps: 1, unpricedSteps: 1 });
    assert.equal(await costs.get(path), first, "cached");
    prices = { "local-": good };
    assert.equal(await costs.get(path), first, "prices are picked up only after clear()");
    costs.clear();
    assert.equal(costs.peek(path, st), undefined);
    assert.equal(costs.peekTotal(path, st), undefined);
    const priced = await costs.get(path);
    assert.equal(priced.total.pricedSteps, 1);
    appendFileSync(path, `${JSON.stringify(assistant("a2", "a1", "more", { model: "local-llama" }))}\n`);
    assert.equal(costs.peek(path, statSync(path)), undefined, "a grown file is not the cached one");
    assert.equal((await costs.get(path)).total.steps, 2);
  });

  it("asks at once share one load; a load that ends after clear() is not kept", async () => {
    const path = file();
    let loads = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const fake = { steps: [], total: { steps: 0 } } as unknown as SessionCost;
    const costs = new SessionCosts(() => ({}), async () => {
      loads++;
      await gate;
      return fake;
    });
    // With the stamp given, no stat comes first: both asks are in before clear().
    const st = statSync(path);
    const a = costs.get(path, st);
    const b = costs.get(path, st);
    assert.equal(loads, 1);
    costs.clear();
    release();
    assert.equal(await a, fake);
    assert.equal(await b, fake);
    assert.equal(loads, 1);
    assert.equal(costs.peek(path, statSync(path)), undefined, "computed with the old prices: dropped");
  });

  it("totals outlive the full costs the cache lets go (rows would be costed again at each redraw)", async () => {
    const fake = (n: number) => ({ steps: new Array(n).fill(null), total: { usd: n, steps: n, unpricedSteps: 0 } }) as unknown as SessionCost;
    const a = file();
    const b = file();
    const costs = new SessionCosts(() => ({}), async (p) => fake(p === a ? 300_000 : 200_000));
    await costs.get(a);
    await costs.get(b);
    assert.equal(costs.peek(a, statSync(a)), undefined, "evicted: 500,000 steps are more than the cache keeps");
    assert.deepEqual(costs.peekTotal(a, statSync(a)), { usd: 300_000, steps: 300_000, unpricedSteps: 0 });
  });

  it("a file that cannot be read rejects with its reason", async () => {
    const costs = new SessionCosts(() => ({}));
    await assert.rejects(costs.get("/no/such/session.jsonl"), /ENOENT/);
  });
});
