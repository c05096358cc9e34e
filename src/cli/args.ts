import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError } from "./cli-error";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** node:util parseArgs in strict mode, with its errors turned into one-line CLI errors. */
export function parseFlags<O extends Options>(args: string[], options: O, usage: string) {
  // pi names its session folders `--<cwd>--`: a relative path into one looks like an
  // option. An argument that starts with `--` and holds a `/` or ends in .jsonl is a path.
  const fixed = args.map((a) => (a.startsWith("--") && !a.includes("=") && (a.includes("/") || a.endsWith(".jsonl")) ? `./${a}` : a));
  try {
    return parseArgs({ args: fixed, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${(err as Error).message.split("\n")[0]} (usage: ${usage})`);
  }
}

export function onePositional(positionals: string[], what: string, usage: string): string {
  if (positionals.length !== 1) {
    throw new CliError(positionals.length ? `expected one ${what}, got ${positionals.length}: ${positionals.join(" ")} (usage: ${usage})` : `missing ${what} (usage: ${usage})`);
  }
  return positionals[0];
}

export function intFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new CliError(`--${name} expects a whole number, got "${value}"`);
  return Number(value);
}
