/** Helpers for formats' index hooks: numbers, field kinds and previews from untrusted lines. */

const PREVIEW_MAX = 100;

/** A finite number, else 0. */
export function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** What kind of value a field holds, never its content (lines are untrusted). */
export function kindOf(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "string" ? (v ? "a string" : "an empty string") : `a ${typeof v}`;
}

/** Whitespace other than one space between words: what previewOf collapses or trims. */
const UNEVEN_SPACE = /[^\S ]| {2}|^ | $/;

/** Characters of a text previewOf reads: a preview of any longer text is that of its head of this length. */
export const PREVIEW_READS = PREVIEW_MAX * 3;

/** Whitespace runs collapsed, cut to 100 characters with "..." (reads only the head of long texts). */
export function previewOf(text: string): string {
  const head = text.length > PREVIEW_READS ? text.slice(0, PREVIEW_READS) : text;
  // Most heads hold single spaces only: nothing to collapse, and no new string built (a test is cheaper than a replace).
  const flat = UNEVEN_SPACE.test(head) ? head.replace(/\s+/g, " ").trim() : head;
  return flat.length > PREVIEW_MAX ? `${flat.slice(0, PREVIEW_MAX - 3)}...` : flat;
}
