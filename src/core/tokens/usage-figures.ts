import type { EntryTable } from "../store/entry-table";

/**
 * Usage and cost figures read from session content. A session file is untrusted: a
 * figure of -5, 1e308 or "NaN" would print as `$-5.0000` or `$Infinity`, or overflow a
 * sum. Every format's index hook reads its figures through here, so each is a finite
 * number from 0 to MAX_FIGURE, or the entry's usage is left out with the reason kept
 * (RareFields.badUsage: the cost and token reports say what was left out and why).
 */

/** Above this no count or cost is believed (2^53 - 1: about 9 quadrillion tokens or dollars). */
export const MAX_FIGURE = Number.MAX_SAFE_INTEGER;
/** MAX_FIGURE for people (the bound is open by one: close enough to say). */
export const MAX_FIGURE_TEXT = "2^53";

/** What a bad figure is, in a few characters and never more: the line is untrusted. */
function what(v: unknown): string {
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)}`;
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** Whether a figure can be believed: a finite number from 0 to MAX_FIGURE. */
export function isFigure(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= MAX_FIGURE;
}

/**
 * One figure: `absent` when the field is missing (undefined or null), the number when it
 * can be believed, else NaN with "<name> is <what>" added to `bad`.
 */
export function readFigure(v: unknown, name: string, bad: string[], absent = 0): number {
  if (v === undefined || v === null) return absent;
  if (isFigure(v)) return v;
  bad.push(`${name} is ${what(v)}`);
  return Number.NaN;
}

/** A usage record's raw fields, each with the name it has in the format's lines. */
export interface RawUsage {
  input: [name: string, value: unknown];
  output: [name: string, value: unknown];
  cacheRead?: [name: string, value: unknown];
  cacheWrite?: [name: string, value: unknown];
  /** The provider's total; absent stays absent (NaN). */
  total?: [name: string, value: unknown];
  /** The cost the agent recorded, in USD; absent stays absent (NaN). */
  cost?: [name: string, value: unknown];
}

/**
 * Writes entry i's usage into the table when every figure can be believed; else leaves
 * the entry without usage and keeps why in RareFields.badUsage (never a silent 0).
 */
export function putUsageFigures(t: EntryTable, i: number, raw: RawUsage): void {
  const bad: string[] = [];
  const input = readFigure(raw.input[1], raw.input[0], bad);
  const output = readFigure(raw.output[1], raw.output[0], bad);
  const cacheRead = raw.cacheRead ? readFigure(raw.cacheRead[1], raw.cacheRead[0], bad) : 0;
  const cacheWrite = raw.cacheWrite ? readFigure(raw.cacheWrite[1], raw.cacheWrite[0], bad) : 0;
  const total = raw.total ? readFigure(raw.total[1], raw.total[0], bad, Number.NaN) : Number.NaN;
  const cost = raw.cost ? readFigure(raw.cost[1], raw.cost[0], bad, Number.NaN) : Number.NaN;
  if (bad.length) {
    t.setUsageFigures(i, Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN);
    t.rareOf(i).badUsage = bad.join("; ");
    return;
  }
  t.setUsageFigures(i, input, output, cacheRead, cacheWrite, total, cost);
}

/** Whether every given figure is absent or can be believed (for code that reads usage off a line, not the index). */
export function figuresReadable(...values: unknown[]): boolean {
  return values.every((v) => v === undefined || v === null || isFigure(v));
}
