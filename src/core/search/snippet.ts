/** Characters of context shown either side of a match. */
export const SNIPPET_CONTEXT = 60;
/** Longest stretch of a match the snippet shows (a regex can match a whole file). */
const MATCH_MAX = 200;

export interface Snippet {
  text: string;
  /** [start, end) of the match in `text`, in UTF-16 units. */
  match: [number, number];
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The match with up to 60 characters either side, on one line: every line break, tab
 * or other whitespace control becomes one space (so offsets stay put), a cut end is
 * marked "…", and no cut splits a surrogate pair.
 */
export function snippetOf(text: string, start: number, end: number): Snippet {
  // A long match is shown up to MATCH_MAX, with no context after it.
  let to = Math.min(end, start + MATCH_MAX);
  if (to < end && isHigh(text.charCodeAt(to - 1))) to++;
  let from = Math.max(0, start - SNIPPET_CONTEXT);
  let stop = to < end ? to : Math.min(text.length, end + SNIPPET_CONTEXT);
  if (from > 0 && isLow(text.charCodeAt(from))) from--;
  if (stop < text.length && isHigh(text.charCodeAt(stop - 1))) stop++;
  const head = from > 0 ? "…" : "";
  const tail = stop < text.length ? "…" : "";
  const body = text.slice(from, stop).replace(/[\t\n\v\f\r\u0085\u2028\u2029]/g, " ");
  return { text: `${head}${body}${tail}`, match: [head.length + start - from, head.length + to - from] };
}
