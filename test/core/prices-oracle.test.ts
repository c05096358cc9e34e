import { strict as assert } from "node:assert";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { EXACT_PRICES, KNOWN_PRICES, priceFor, priceTokens } from "../../src/core/tokens/prices";

type PiCost = { input: number; output: number; cacheRead: number; cacheWrite: number };
type PiModels = Record<string, Record<string, { id: string; cost: PiCost }>>;

/** pi's own model table (pi-ai, a pinned devDependency): the prices pi records its costs at. */
async function piModels(): Promise<PiModels> {
  const file = join(process.cwd(), "node_modules", "@mariozechner", "pi-ai", "dist", "models.generated.js");
  const mod = (await import(pathToFileURL(file).href)) as { MODELS: PiModels };
  return mod.MODELS;
}

/** Where we differ from pi on purpose, and why. */
const KNOWN_DIFFERENCES: Record<string, string> = {
  // pi's table has 0.13 for gpt-5.1's cached input, its other GPT-5 models 0.125 (OpenAI's list price).
  "gpt-5.1 cacheRead": "0.125",
};

describe("prices: our table against pi's own (the agent's oracle)", () => {
  it("every exact entry (OpenAI, Google) has pi's input, output and cache-read price", async () => {
    const models = await piModels();
    const byId = new Map<string, PiCost>();
    for (const provider of ["openai", "google"]) for (const m of Object.values(models[provider] ?? {})) byId.set(m.id, m.cost);
    let checked = 0;
    for (const [id, ours] of Object.entries(EXACT_PRICES)) {
      const theirs = byId.get(id);
      assert.ok(theirs, `${id}: not in pi's table`);
      for (const k of ["input", "output", "cacheRead"] as const) {
        if (KNOWN_DIFFERENCES[`${id} ${k}`] !== undefined) {
          assert.equal(String(ours[k]), KNOWN_DIFFERENCES[`${id} ${k}`]);
          continue;
        }
        assert.equal(ours[k], theirs[k], `${id} ${k}: ours ${ours[k]}, pi's ${theirs[k]}`);
      }
      checked++;
    }
    assert.ok(checked >= 20, `${checked} checked`);
  });

  it("every Anthropic model pi lists is priced by our family table exactly as pi prices it (cache writes at the 5-minute rate)", async () => {
    const models = await piModels();
    const anthropic = Object.values(models.anthropic ?? {});
    assert.ok(anthropic.length > 10);
    let checked = 0;
    for (const m of anthropic) {
      const ours = priceFor(m.id);
      if (!ours) continue;
      // pi's claude-3-sonnet-20240229 lists a cache write of 0.3 (a data slip: Sonnet 3 had no caching); the family key is Sonnet 3.x's.
      if (m.id === "claude-3-sonnet-20240229") continue;
      for (const k of ["input", "output", "cacheRead", "cacheWrite"] as const) assert.equal(ours.price[k], m.cost[k], `${m.id} ${k}`);
      checked++;
    }
    assert.ok(checked >= 20, `${checked} Anthropic models checked`);
    assert.ok(Object.keys(KNOWN_PRICES).length > 10);
  });

  it("Gemini Pro's long-context tier: Google's published prices above 200K prompt tokens (pi's table has no tiers)", () => {
    // ai.google.dev/gemini-api/docs/pricing, as @pydantic/genai-prices 0.1.8 records it.
    const published: Record<string, [number, number, number]> = { "gemini-2.5-pro": [2.5, 15, 0.25], "gemini-3-pro-preview": [4, 18, 0.4], "gemini-3.1-pro-preview": [4, 18, 0.4] };
    for (const [id, [input, output, cacheRead]] of Object.entries(published)) {
      assert.deepEqual(EXACT_PRICES[id].longContext, { over: 200_000, input, output, cacheRead }, id);
    }
    const pro = EXACT_PRICES["gemini-2.5-pro"];
    const at = (input: number, cacheRead: number) => priceTokens({ input, output: 1_000_000, cacheRead, cacheWrite: 0 }, pro);
    // The tier is chosen by the whole prompt, cached part included; 200K itself is still the base tier.
    assert.equal(at(100_000, 100_000), (100_000 * 1.25 + 10_000_000 + 100_000 * 0.125) / 1_000_000);
    assert.equal(at(100_000, 100_001), (100_000 * 2.5 + 15_000_000 + 100_001 * 0.25) / 1_000_000);
    for (const id of ["gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-3-flash-preview"]) assert.equal(EXACT_PRICES[id].longContext, undefined, `${id} has one tier`);
  });

  it("exact entries never price a neighbour: a nano is not its family, a dated id not the undated one", () => {
    assert.equal(priceFor("gpt-5")?.price.input, 1.25);
    assert.equal(priceFor("openai/gpt-5-nano")?.price.input, 0.05);
    assert.equal(priceFor("gpt-5-turbo-unknown"), undefined);
    assert.equal(priceFor("gpt-4o-2024-05-13"), undefined);
    assert.equal(priceFor("gemini-2.5-pro")?.key, "gemini-2.5-pro");
  });
});
