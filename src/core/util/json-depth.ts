/**
 * How deep a session line's arrays and objects may nest before the line is refused as a
 * bad line. JSON.parse copes with any depth, but JSON.stringify (about 4,000 levels, half
 * that with a replacer), structuredClone and every walk over a parsed value recurse, and
 * a 10 KB line of nested brackets would overflow the stack of whatever reads it next.
 * Real entries nest a few dozen levels at most (a tool input holding a JSON document).
 */
export const MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the quote at q is escaped: an odd run of backslashes right before it (from start on). */
export function escaped(at: (k: number) => number, q: number, start: number): boolean {
  let k = q - 1;
  while (k >= start && at(k) === BACKSLASH) k--;
  return (q - 1 - k) % 2 === 1;
}

/** What bracketWalk returns for text nested deeper than its limit. */
export const DEEPER = -2;

/**
 * One pass over the brackets of the JSON text in buf[start, end) without parsing: strings
 * are skipped by jumping from quote to quote (native indexOf), so text-heavy lines cost
 * little next to JSON.parse itself. DEEPER when arrays and objects nest more than `limit`
 * deep; with `stopAtTop`, the position after the bracket that closes the top level (-1
 * when a string or the top level does not close, or a bracket closes more than opened);
 * without it, -1 for anything not too deep.
 */
export function bracketWalk(buf: Uint8Array, start: number, end: number, limit: number, stopAtTop: boolean): number {
  const at = (k: number) => buf[k];
  let depth = 0;
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (b === QUOTE) {
      let q = i;
      do {
        q = buf.indexOf(QUOTE, q + 1);
        if (q < 0 || q >= end) return -1;
      } while (escaped(at, q, start));
      i = q;
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > limit) return DEEPER;
    } else if (b === 0x5d || b === 0x7d) {
      depth--;
      if (stopAtTop && depth <= 0) return depth === 0 ? i + 1 : -1;
    }
  }
  return -1;
}

/** Whether the JSON text in buf[start, end) nests arrays and objects more than `limit` deep (see bracketWalk). */
export function jsonDeeperThan(buf: Uint8Array, start: number, end: number, limit = MAX_JSON_DEPTH): boolean {
  return bracketWalk(buf, start, end, limit, false) === DEEPER;
}

/** jsonDeeperThan for text already decoded (a JSON string held inside an entry). */
export function jsonTextDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  const at = (k: number) => text.charCodeAt(k);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let q = i;
      do {
        q = text.indexOf('"', q + 1);
        if (q < 0) return false;
      } while (escaped(at, q, 0));
      i = q;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The one-line reason a too-deep line is refused, after "line N: ". */
export const TOO_DEEP = `nesting too deep (arrays and objects more than ${MAX_JSON_DEPTH} levels deep); the line is skipped`;
