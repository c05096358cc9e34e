import type { PriceOverrides } from "../core/tokens/prices";
import { validatePriceOverrides } from "../core/tokens/price-overrides";
import { CliError, type CliIO } from "./cli-error";
import { CONFIG_CAP, FileTooLargeError, NotRegularFileError, readTextFile } from "../core/util/safe-open";

/** Overrides from a JSON file shaped like the agentSessions.modelPrices setting; bad entries are warned about, not fatal. */
export function readPrices(file: string | undefined, io: CliIO): PriceOverrides | undefined {
  if (file === undefined) return undefined;
  let raw: unknown;
  let text: string;
  try {
    // A FIFO, a device or a huge file is refused before a byte is read (/dev/zero never ends).
    text = readTextFile(file, CONFIG_CAP);
  } catch (err) {
    if (err instanceof NotRegularFileError || err instanceof FileTooLargeError) throw new CliError(`--prices ${err.message}`);
    throw new CliError(`--prices ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    raw = JSON.parse(text);
  } catch {
    throw new CliError(`--prices ${file}: not JSON`);
  }
  const v = validatePriceOverrides(raw, `--prices ${file}`);
  for (const p of v.problems) io.err(`warning: ${p}\n`);
  return v.prices;
}
