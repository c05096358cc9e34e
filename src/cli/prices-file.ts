import { readFileSync } from "node:fs";
import type { PriceOverrides } from "../core/tokens/prices";
import { validatePriceOverrides } from "../core/tokens/price-overrides";
import { CliError, type CliIO } from "./cli-error";

/** Overrides from a JSON file shaped like the agentSessions.modelPrices setting; bad entries are warned about, not fatal. */
export function readPrices(file: string | undefined, io: CliIO): PriceOverrides | undefined {
  if (file === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new CliError(`--prices ${file}: ${e.code ? `cannot read it (${e.code})` : "not JSON"}`);
  }
  const v = validatePriceOverrides(raw, `--prices ${file}`);
  for (const p of v.problems) io.err(`warning: ${p}\n`);
  return v.prices;
}
