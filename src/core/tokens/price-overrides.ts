import { isFigure } from "./usage-figures";
import { type ModelPrice, overrideIndex, type PriceOverrides } from "./prices";

/** The four figures an override must give, USD per million tokens. */
export const PRICE_FIELDS = ["input", "output", "cacheWrite", "cacheRead"] as const;

/** Overrides that passed, and one plain line per entry (or field) that did not. */
export interface ValidatedPrices {
  prices: PriceOverrides;
  problems: string[];
}

function quoted(key: string): string {
  const short = key.length > 60 ? `${key.slice(0, 60)}...` : key;
  return JSON.stringify(short);
}

/**
 * Reads the `agentSessions.modelPrices` setting: `{ "<model or prefix>": {input, output,
 * cacheWrite, cacheRead, cacheWrite1h?} }`. An entry missing a figure, or with one that is not a
 * number >= 0, is left out and reported (a missing cache price is not guessed from the
 * input price); unknown fields are reported and ignored. Never throws.
 */
export function validatePriceOverrides(raw: unknown, where = "agentSessions.modelPrices"): ValidatedPrices {
  // No prototype: "__proto__" (or "constructor") is a model name like any other, not a way to drop an entry.
  const prices: Record<string, ModelPrice> = Object.create(null);
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { prices, problems };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    problems.push(`${where}: expected an object of model ids to prices, got ${Array.isArray(raw) ? "an array" : typeof raw}`);
    return { prices, problems };
  }
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const name = `${where}[${quoted(key)}]`;
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      problems.push(`${name}: expected {input, output, cacheWrite, cacheRead} in USD per million tokens`);
      continue;
    }
    const v = value as Record<string, unknown>;
    // The same check as a session's figures: a price of 1e308 would make every sum Infinity.
    const bad = PRICE_FIELDS.filter((f) => !isFigure(v[f]));
    if (bad.length) {
      problems.push(`${name}: ${bad.map((f) => (v[f] === undefined ? `${f} missing` : `${f} is not a number from 0 to 2^53`)).join(", ")}; entry ignored`);
      continue;
    }
    const price: ModelPrice = { input: v.input as number, output: v.output as number, cacheWrite: v.cacheWrite as number, cacheRead: v.cacheRead as number };
    if (v.cacheWrite1h !== undefined) {
      if (isFigure(v.cacheWrite1h)) price.cacheWrite1h = v.cacheWrite1h;
      else problems.push(`${name}: cacheWrite1h is not a number from 0 to 2^53; 1-hour cache writes priced as cacheWrite`);
    }
    const extra = Object.keys(v).filter((f) => !(PRICE_FIELDS as readonly string[]).includes(f) && f !== "cacheWrite1h");
    if (extra.length) problems.push(`${name}: unknown field(s) ${extra.map(quoted).join(", ")} ignored`);
    prices[key.trim().toLowerCase()] = price;
  }
  // Indexed now, once, rather than on the first step priced.
  overrideIndex(prices);
  return { prices, problems };
}
