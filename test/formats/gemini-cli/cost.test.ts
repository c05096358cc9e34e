import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadAndCost } from "../../../src/core/usage/cost-scan";
import { tempDir } from "../../helpers/session-builder";
import { geminiMsg, lines, meta, userMsg } from "./helpers";

async function costOfTokens(model: string, tokens: Record<string, number>, prices?: Record<string, { input: number; output: number; cacheWrite: number; cacheRead: number }>) {
  const path = join(tempDir(), "session-2026-11-26T06-00-0a1b2c3d.jsonl");
  writeFileSync(path, lines([meta("/p"), userMsg("u1", "go"), geminiMsg("g1", "done", { model, tokens })]));
  return loadAndCost(path, prices);
}

describe("Gemini CLI tokens and cost: input is the whole prompt (cached inside it), thoughts billed as output, tiers by prompt size", () => {
  it("a short prompt: (input - cached) at the input price, cached at the cached price, output + thoughts at the output price", async () => {
    const c = await costOfTokens("gemini-2.5-pro", { input: 10_000, cached: 4_000, output: 500, thoughts: 300, tool: 0, total: 10_800 });
    const step = c.steps[0];
    assert.deepEqual([step.usage.input, step.usage.cacheRead, step.usage.output], [6_000, 4_000, 800]);
    assert.equal(step.cost.usd.toFixed(6), ((6_000 * 1.25 + 4_000 * 0.125 + 800 * 10) / 1e6).toFixed(6));
  });

  it("a prompt above 200K tokens is priced at the long-context tier (Gemini 2.5 Pro: input 2.50, output 15, cached 0.25)", async () => {
    const c = await costOfTokens("gemini-2.5-pro", { input: 250_000, cached: 200_000, output: 1_000, thoughts: 0, tool: 0, total: 251_000 });
    assert.equal(c.steps[0].cost.usd.toFixed(6), ((50_000 * 2.5 + 200_000 * 0.25 + 1_000 * 15) / 1e6).toFixed(6));
  });

  it("Gemini 3 Pro's long tier too; Flash has one tier", async () => {
    const pro = await costOfTokens("gemini-3-pro-preview", { input: 300_000, cached: 0, output: 100, thoughts: 0, tool: 0, total: 300_100 });
    assert.equal(pro.steps[0].cost.usd.toFixed(6), ((300_000 * 4 + 100 * 18) / 1e6).toFixed(6));
    const flash = await costOfTokens("gemini-2.5-flash", { input: 300_000, cached: 0, output: 100, thoughts: 0, tool: 0, total: 300_100 });
    assert.equal(flash.steps[0].cost.usd.toFixed(6), ((300_000 * 0.3 + 100 * 2.5) / 1e6).toFixed(6));
  });

  it("agentSessions.modelPrices overrides the table (one price, no tiers)", async () => {
    const c = await costOfTokens("gemini-2.5-pro", { input: 250_000, cached: 0, output: 0, thoughts: 0, tool: 0, total: 250_000 }, { "gemini-2.5-pro": { input: 1, output: 1, cacheWrite: 0, cacheRead: 0 } });
    assert.equal(c.steps[0].cost.usd.toFixed(6), (0.25).toFixed(6));
    assert.equal(c.steps[0].cost.priceSource, "override");
  });
});
