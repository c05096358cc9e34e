// Webview tests of the header's cost chip and the bars' cost tooltips.
import assert from "node:assert/strict";
import { TreeHost } from "./fake-host.mjs";
import { explore, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function headerCostTests(test, browser) {
  test("the header shows the session's cost with where it came from; each bar's tooltip its branch's cost; a prices change updates both", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page, seen }) => {
      const chip = () => page.$eval(".session-head .cost-chip", (c) => ({ text: c.textContent, title: c.title, hidden: c.hidden, unpriced: c.classList.contains("cost-unpriced") }));
      const shown = await chip();
      assert.equal(shown.hidden, false);
      assert.equal(shown.text, "$1.80 · 20 steps (1 unpriced)");
      assert.equal(shown.unpriced, true);
      assert.equal(
        shown.title,
        [
          "Cost of the whole session (every branch): $1.80 · 20 steps (1 unpriced)",
          "recorded by the agent: $1.50 (15 steps)",
          "priced per model: $0.30 (4 steps)",
          "unpriced, not in the total: 1 step, 2.1k tokens of local-llama (set agentSessions.modelPrices to price them)",
        ].join("\n"),
      );
      const barTip = (leaf) => page.$eval(`.token-bar[data-leaf=${leaf}]`, (b) => ({ title: b.title, label: b.getAttribute("aria-label"), head: b.querySelector(".bar-title").title }));
      const a8 = await barTip("a8");
      assert.equal(a8.title, "Cost of this branch (root to leaf): $1.23 · 12 steps");
      assert.ok(a8.label.endsWith(". Cost of this branch (root to leaf): $1.23 · 12 steps"), a8.label);
      assert.equal(a8.head, "Active branch (batch)\nCost of this branch (root to leaf): $1.23 · 12 steps");
      assert.equal((await barTip("a6")).title, "Cost of this branch (root to leaf): $0.30 · 4 steps (1 unpriced)");
      assert.equal((await barTip("a9")).title, "", "a bar without a cost has no cost tooltip");
      // The user priced local-llama: the host sends the new figures.
      const cost = { usd: 1.81, steps: 20, recordedUsd: 1.5, recordedSteps: 15, pricedUsd: 0.31, pricedSteps: 5, unpricedSteps: 0, unpricedTokens: 0, unpricedModels: [] };
      await host.send({ type: "cost", cost, bars: host.data.bars.map((b) => (b.leafId === "a6" ? { ...b, cost: { usd: 0.31, steps: 4, unpricedSteps: 0 } } : b)) });
      await until(async () => (await chip()).text === "$1.81 · 20 steps", "new cost shown");
      assert.equal((await chip()).unpriced, false);
      assert.doesNotMatch((await chip()).title, /unpriced/);
      assert.equal((await barTip("a6")).title, "Cost of this branch (root to leaf): $0.31 · 4 steps");
      // A session with no step to cost shows no cost at all.
      await host.send({ ...host.init(), cost: { ...cost, usd: 0, steps: 0, recordedUsd: 0, recordedSteps: 0, pricedUsd: 0, pricedSteps: 0 } });
      await until(async () => (await chip()).hidden, "cost hidden");
      assert.equal(await page.locator(".cost-chip:visible").count(), 0);
      assert.deepEqual(seen.errors, []);
    });
  });
}
