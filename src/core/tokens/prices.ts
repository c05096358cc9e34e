/** USD per million tokens. `cacheWrite` is the 5-minute cache write (the default TTL). */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** The 1-hour cache write; left out (an override may): such writes are priced as `cacheWrite`. */
  cacheWrite1h?: number;
  /** A higher rate for calls whose whole prompt (input, cache reads and writes) is above `over` tokens (Gemini Pro: 200K). */
  longContext?: { over: number; input: number; output: number; cacheRead: number };
}

/** Prices by model id or id prefix (the `agentSessions.modelPrices` setting, once validated). */
export type PriceOverrides = Readonly<Record<string, ModelPrice>>;

const OPUS_LEGACY: ModelPrice = { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5, cacheWrite1h: 30 };
const OPUS_45: ModelPrice = { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5, cacheWrite1h: 10 };
const SONNET: ModelPrice = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3, cacheWrite1h: 6 };
const HAIKU_45: ModelPrice = { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1, cacheWrite1h: 2 };
const HAIKU_35: ModelPrice = { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08, cacheWrite1h: 1.6 };
const HAIKU_3: ModelPrice = { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03, cacheWrite1h: 0.5 };

/**
 * Anthropic's list prices (standard tier), from the "Model
 * pricing" table of https://platform.claude.com/docs/en/about-claude/pricing (Claude
 * Sonnet 3.5 from the same table at docs.anthropic.com/en/docs/about-claude/pricing
 * before it was retired), as read on 2026-11-23.
 *
 * 1-hour cache writes are priced at their own rate only where the format says how many
 * of a step's cache writes had that TTL (CostHooks.cacheWrite1h; the index keeps one
 * cache-write figure); the rest at the 5-minute rate. Not modelled: batch discounts,
 * and the long-context rate some models charge above 200K input tokens. A model not listed here has no price:
 * its cost is reported as unpriced, never guessed.
 *
 * Keys are family prefixes matched at a version boundary (see `tableKeyMatches`):
 * "claude-opus-4" prices "claude-opus-4-20250514" but not "claude-opus-4-9", a newer
 * model whose price this table cannot know.
 */
export const KNOWN_PRICES: Readonly<Record<string, ModelPrice>> = {
  "claude-opus-4": OPUS_LEGACY,
  "claude-opus-4-0": OPUS_LEGACY,
  "claude-opus-4-1": OPUS_LEGACY,
  "claude-opus-4-5": OPUS_45,
  "claude-opus-4-6": OPUS_45,
  "claude-opus-4-7": OPUS_45,
  "claude-opus-4-8": OPUS_45,
  "claude-sonnet-4": SONNET,
  "claude-sonnet-4-0": SONNET,
  "claude-sonnet-4-5": SONNET,
  "claude-sonnet-4-6": SONNET,
  "claude-haiku-4-5": HAIKU_45,
  "claude-3-7-sonnet": SONNET,
  "claude-3-5-sonnet": SONNET,
  "claude-3-5-haiku": HAIKU_35,
  "claude-3-opus": OPUS_LEGACY,
  "claude-3-haiku": HAIKU_3,
};

/** OpenAI and Google models have no cache-write charge; reads of cached input are cheaper. */
const p = (input: number, output: number, cacheRead: number): ModelPrice => ({ input, output, cacheWrite: 0, cacheRead });

/**
 * Models of the other providers that pi (and next Codex CLI and Gemini CLI) run, at the
 * providers' list prices for their standard tier as pi's own model table (pi-ai, pinned as a
 * devDependency) records them; test/core/prices-oracle.test.ts checks every entry against
 * it. Matched exactly, never as a family prefix or without a date ("gpt-4o-2024-05-13" had
 * its own price): a model not listed stays unpriced rather than guessed. Gemini's Pro models
 * charge more for a prompt above 200K tokens: `longContext`, which pi's table does not hold.
 * Checked (2026-11-26) against Google's Gemini API pricing page
 * (ai.google.dev/gemini-api/docs/pricing) as recorded by @pydantic/genai-prices 0.1.8, whose
 * entries cite that page: input, output and cached input above 200K tokens 2.5 / 15 / 0.25
 * for 2.5 Pro and 4 / 18 / 0.4 for 3 and 3.1 Pro Preview.
 */
export const EXACT_PRICES: Readonly<Record<string, ModelPrice>> = {
  "gpt-4.1": p(2, 8, 0.5),
  "gpt-4.1-mini": p(0.4, 1.6, 0.1),
  "gpt-4o": p(2.5, 10, 1.25),
  "gpt-4o-mini": p(0.15, 0.6, 0.08),
  o3: p(2, 8, 0.5),
  "o4-mini": p(1.1, 4.4, 0.28),
  "gpt-5": p(1.25, 10, 0.125),
  "gpt-5-codex": p(1.25, 10, 0.125),
  "gpt-5-mini": p(0.25, 2, 0.025),
  "gpt-5-nano": p(0.05, 0.4, 0.005),
  "gpt-5.1": p(1.25, 10, 0.125),
  "gpt-5.1-codex": p(1.25, 10, 0.125),
  "gpt-5.1-codex-max": p(1.25, 10, 0.125),
  "gpt-5.1-codex-mini": p(0.25, 2, 0.025),
  "gpt-5.2": p(1.75, 14, 0.175),
  "gpt-5.2-codex": p(1.75, 14, 0.175),
  "gpt-5.3-codex": p(1.75, 14, 0.175),
  "gpt-5.4": p(2.5, 15, 0.25),
  "gpt-5.4-mini": p(0.75, 4.5, 0.075),
  "gpt-5.4-nano": p(0.2, 1.25, 0.02),
  "gpt-5.5": p(5, 30, 0.5),
  "gemini-2.5-pro": { ...p(1.25, 10, 0.125), longContext: { over: 200_000, input: 2.5, output: 15, cacheRead: 0.25 } },
  "gemini-2.5-flash": p(0.3, 2.5, 0.03),
  "gemini-2.5-flash-lite": p(0.1, 0.4, 0.025),
  "gemini-3-pro-preview": { ...p(2, 12, 0.2), longContext: { over: 200_000, input: 4, output: 18, cacheRead: 0.4 } },
  "gemini-3-flash-preview": p(0.5, 3, 0.05),
  "gemini-3.1-pro-preview": { ...p(2, 12, 0.2), longContext: { over: 200_000, input: 4, output: 18, cacheRead: 0.4 } },
};

/** What a model's price was found as. */
export interface PriceLookup {
  price: ModelPrice;
  source: "override" | "table";
  /** The key that matched (an exact id or a prefix). */
  key: string;
}

/**
 * The id as the tables know it: lower case, without a provider prefix
 * ("anthropic/claude-...", OpenRouter style) or Bedrock's ("us.anthropic.claude-...").
 */
export function bareModelId(modelId: string): string {
  const id = modelId.trim().toLowerCase();
  const afterSlash = id.slice(id.lastIndexOf("/") + 1);
  const bedrock = afterSlash.lastIndexOf("anthropic.");
  return bedrock >= 0 ? afterSlash.slice(bedrock + "anthropic.".length) : afterSlash;
}

/**
 * A table key matches the id itself, or the id followed by anything but another version
 * number: a date ("-20250514"), a tag ("-latest", "@20250514", "[1m]") all match; "-9"
 * or ".9" (a minor version the table has not seen) does not.
 */
export function tableKeyMatches(key: string, id: string): boolean {
  if (!id.startsWith(key)) return false;
  const rest = id.slice(key.length);
  return !/^[-.]\d{1,2}(?!\d)/.test(rest);
}

/**
 * Keys by length, so that the longest key matching an id is found by looking up the id's
 * own prefixes (one per distinct key length) instead of scanning every key: a table of
 * 100,000 overrides prices each step as fast as a table of ten. Built once per table.
 */
interface KeyIndex {
  /** Lower-cased key -> the key as written (the first, when two differ only in case). */
  byKey: Map<string, string>;
  /** The distinct key lengths, longest first. */
  lengths: number[];
  /** Model id -> its lookup: a session names a few models over many steps. */
  found: Map<string, PriceLookup | undefined>;
}

function indexKeys(keys: readonly string[], lower: boolean): KeyIndex {
  const byKey = new Map<string, string>();
  for (const key of keys) {
    const k = lower ? key.toLowerCase() : key;
    if (!byKey.has(k)) byKey.set(k, key);
  }
  const lengths = [...new Set([...byKey.keys()].map((k) => k.length))].sort((a, b) => b - a);
  return { byKey, lengths, found: new Map() };
}

/** The longest indexed key that is a prefix of `id` and that `accepts` (by the key as indexed). */
function longestKey(index: KeyIndex, id: string, accepts: (key: string) => boolean = () => true): string | undefined {
  for (const len of index.lengths) {
    if (len > id.length) continue;
    const k = id.slice(0, len);
    const key = index.byKey.get(k);
    if (key !== undefined && accepts(k)) return key;
  }
  return undefined;
}

const TABLE_INDEX = indexKeys(Object.keys(KNOWN_PRICES), false);
/** Each override table's index, made on its first use: a table is not changed once in use. */
const overrideIndexes = new WeakMap<PriceOverrides, KeyIndex>();

/** The index of an override table; validatePriceOverrides builds it as it builds the table. */
export function overrideIndex(overrides: PriceOverrides): KeyIndex {
  let index = overrideIndexes.get(overrides);
  if (!index) overrideIndexes.set(overrides, (index = indexKeys(Object.keys(overrides), true)));
  return index;
}

const NO_OVERRIDES: PriceOverrides = Object.freeze(Object.create(null) as Record<string, ModelPrice>);

/**
 * The price of a model. Overrides (exact id or plain prefix, as the user wrote them;
 * "" matches every model) beat the table; the table matches family prefixes at a version
 * boundary. Undefined: no price (an unknown model, or no model named). Only a table's
 * own keys count: a model named "constructor" is not priced by Object's prototype.
 */
export function priceFor(modelId: string | undefined, overrides: PriceOverrides = NO_OVERRIDES): PriceLookup | undefined {
  if (modelId === undefined) {
    const any = Object.hasOwn(overrides, "") ? overrides[""] : undefined;
    return any ? { price: any, source: "override", key: "" } : undefined;
  }
  const index = overrideIndex(overrides);
  if (index.found.has(modelId)) return index.found.get(modelId);
  const found = lookUp(modelId, overrides, index);
  // Bounded: a session of a million made-up model names must not keep them all.
  if (index.found.size >= 10_000) index.found.clear();
  index.found.set(modelId, found);
  return found;
}

function lookUp(modelId: string, overrides: PriceOverrides, index: KeyIndex): PriceLookup | undefined {
  const full = modelId.trim().toLowerCase();
  const bare = bareModelId(modelId);
  if (index.byKey.size) {
    for (const candidate of [full, bare]) {
      const key = longestKey(index, candidate);
      if (key !== undefined) return { price: overrides[key], source: "override", key };
    }
  }
  if (Object.hasOwn(EXACT_PRICES, bare)) return { price: EXACT_PRICES[bare], source: "table", key: bare };
  const key = longestKey(TABLE_INDEX, bare, (k) => tableKeyMatches(k, bare));
  return key === undefined ? undefined : { price: KNOWN_PRICES[key], source: "table", key };
}

/** Tokens of one step, as the index records them. */
export interface TokenFigures {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of `cacheWrite` written with the 1-hour TTL, where the format knows it. */
  cacheWrite1h?: number;
}

/** USD of a step's tokens at a price. */
export function priceTokens(t: TokenFigures, price: ModelPrice): number {
  const tier = price.longContext;
  const p = tier && t.input + t.cacheRead + t.cacheWrite > tier.over ? { ...price, ...tier } : price;
  const long = Math.min(Math.max(t.cacheWrite1h ?? 0, 0), t.cacheWrite);
  const writes = (t.cacheWrite - long) * p.cacheWrite + long * (p.cacheWrite1h ?? p.cacheWrite);
  return (t.input * p.input + t.output * p.output + writes + t.cacheRead * p.cacheRead) / 1_000_000;
}

/** Where a step's cost came from: the agent's own record, our price table, or nowhere. */
export type CostSource = "recorded" | "priced" | "none";

export interface StepCost {
  usd: number;
  source: CostSource;
  /** For "priced": the table key or override that matched. */
  priceKey?: string;
  priceSource?: PriceLookup["source"];
}

/** Usage as the index keeps it; `cost` is what the agent recorded, in USD. */
export interface UsageWithCost extends TokenFigures {
  cost?: number;
}

/**
 * The cost of one step: the recorded cost when the usage carries one (pi's
 * `usage.cost.total`), else its tokens at the model's price, else none (usd 0, and the
 * caller says how many tokens went unpriced).
 */
export function costOf(usage: UsageWithCost, model: string | undefined, overrides: PriceOverrides = {}): StepCost {
  if (typeof usage.cost === "number" && Number.isFinite(usage.cost)) return { usd: usage.cost, source: "recorded" };
  const p = priceFor(model, overrides);
  if (!p) return { usd: 0, source: "none" };
  return { usd: priceTokens(usage, p.price), source: "priced", priceKey: p.key, priceSource: p.source };
}
