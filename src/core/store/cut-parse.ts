// A line parsed with its long texts left in its bytes. The history parses every assistant
// line that calls a file tool, and most of such a line is text it never reads as a string
// (thinking, the answer) or only needs the place of (an edit's old and new text, a written
// file's content: edit-texts.ts keeps places, not texts). Those values are cut out before
// JSON.parse, each replaced by a short mark, and their places handed back: the parse
// costs what the line's structure costs, and no text is made only to be thrown away or
// encoded again to find where it stood.
//
// Why the answer is JSON.parse's own: a match of `"key":"` whose first quote has an even
// run of backslashes before it is, in any JSON text, a key and the start of its string
// value (an unescaped quote followed by a letter cannot close a string). Each cut string is
// checked as JSON.parse checks a string (stringEnd) and replaced by another valid string,
// so the cut line parses exactly when the line does, to the same value but for the marks.

import { isAscii } from "node:buffer";
import { escaped, jsonDeeperThan, jsonTextDeeperThan, MAX_JSON_DEPTH } from "../util/json-depth";
import { stringScan } from "./json-string-scan";
import { stringEnd } from "./json-valid";

/** A cut text is given in the parsed value as this character followed by its number. */
const MARK = 0;

/**
 * A line holding this escape is parsed whole: one of its own strings could then begin with
 * MARK and be taken for a mark.
 */
const MARK_ESCAPE = "\\u0000";

/** A parsed line and the strings cut out of it. */
export interface CutLine {
  value: unknown;
  /** The cut strings' JSON literals, quotes included: the k-th is buf[cuts[2k], cuts[2k+1]). */
  cuts: number[];
}

/**
 * The number of the cut a parsed string stands for (the value of a key LineCutter cut), or
 * -1 for a string of the line's own. `count` is how many cuts the line has.
 */
export function cutNumber(text: string, count: number): number {
  if (count === 0 || text.length < 2 || text.charCodeAt(0) !== MARK) return -1;
  // The digits of k as a mark writes them: no leading zero (but for 0 itself).
  if (text.length > 2 && text.charCodeAt(1) === 0x30) return -1;
  let k = 0;
  for (let i = 1; i < text.length; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return -1;
    k = 10 * k + d;
    if (k >= count) return -1;
  }
  return k;
}

/** The string a parsed line holds for its k-th cut (what `"\u0000k"` parses to). */
export function cutMark(k: number): string {
  return String.fromCharCode(MARK) + k;
}

/** A JSON text shorter than this cannot nest more than MAX_JSON_DEPTH deep (a level is two brackets). */
const MAY_BE_DEEP = 2 * (MAX_JSON_DEPTH + 1);

/** A cut line's buffer grown past this is let go after its line: one long line must not hold its size. */
const KEPT_BYTES = 4 * 2 ** 20;

/** A character past ASCII. */
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * Bytes [from, to) of a line as text (`piece` gives its pieces), the cuts that lie in it
 * given as their marks (numbered among all of `cuts`); with `checkMarks`, undefined when a
 * piece holds MARK_ESCAPE (one of its strings could then be taken for a mark; an escape
 * lies inside a string, so no piece splits one).
 */
function marked(from: number, to: number, cuts: readonly number[], piece: (from: number, to: number) => string, checkMarks: boolean): string | undefined {
  let text = "";
  let k = 0;
  while (k < cuts.length && cuts[k] < from) k += 2;
  for (; k < cuts.length && cuts[k] < to; k += 2) {
    const before = piece(from, cuts[k]);
    if (checkMarks && before.includes(MARK_ESCAPE)) return undefined;
    text += `${before}"${MARK_ESCAPE}${k / 2}"`;
    from = cuts[k + 1];
  }
  const rest = piece(from, to);
  if (checkMarks && rest.includes(MARK_ESCAPE)) return undefined;
  return text + rest;
}

/** The JSON text of an array of items (start/end pairs) with their cuts as marks (marked, checked). */
function itemsText(items: readonly number[], cuts: readonly number[], piece: (from: number, to: number) => string): string | undefined {
  const parts: string[] = [];
  for (let j = 0; j < items.length; j += 2) {
    const part = marked(items[j], items[j + 1], cuts, piece, cuts.length > 0);
    if (part === undefined) return undefined;
    parts.push(part);
  }
  return `[${parts.join(",")}]`;
}

/** Parses lines with the string values of some keys cut out when they are long (see the head of this file). */
export class LineCutter {
  private readonly keys: RegExp;
  /** The cut line's bytes, made again for each line. */
  private cut = Buffer.allocUnsafe(1 << 16);

  /** `keys`: names of plain letters whose string values of at least `minBytes` bytes (quotes included) are cut. */
  constructor(keys: readonly string[], private readonly minBytes: number) {
    for (const k of keys) if (!/^[A-Za-z_]+$/.test(k)) throw new Error(`LineCutter: "${k}" is not a key of plain letters`);
    this.keys = new RegExp(`"(?:${keys.join("|")})":"`, "g");
  }

  /**
   * JSON.parse of buf[start, end) with the long values of the keys cut out; undefined when
   * `checkDepth` and the line nests deeper than jsonDeeperThan allows. Throws as JSON.parse
   * does for text that is not JSON. `latin1`: the line's bytes as latin1 text, when the
   * caller has made it already.
   */
  parse(buf: Buffer, start: number, end: number, checkDepth: boolean, latin1?: string): CutLine | undefined {
    const cuts = end - start >= this.minBytes ? this.cutsOf(buf, start, end, latin1) : [];
    if (!cuts.length) {
      if (checkDepth && jsonDeeperThan(buf, start, end)) return undefined;
      return { value: JSON.parse(buf.toString("utf8", start, end)), cuts };
    }
    // A line of ASCII (most are) is its latin1 text: the cut line is made of slices of it, no bytes copied or decoded.
    if (latin1 !== undefined && isAscii(buf.subarray(start, end))) {
      // Its marks need no check: cutsOf cuts nothing in a line holding MARK_ESCAPE.
      const text = marked(start, end, cuts, (from, to) => latin1.slice(from - start, to - start), false) as string;
      // The cut line nests as deep as the line (a cut is a string), and one this short cannot nest too deep.
      if (checkDepth && text.length >= MAY_BE_DEEP && jsonTextDeeperThan(text)) return undefined;
      return { value: JSON.parse(text), cuts };
    }
    let len = 0;
    let from = start;
    for (let k = 0; k < cuts.length; k += 2) {
      len = this.put(len, buf, from, cuts[k]);
      len = this.putMark(len, k / 2);
      from = cuts[k + 1];
    }
    len = this.put(len, buf, from, end);
    const cut = this.cut;
    if (cut.length > KEPT_BYTES) this.cut = Buffer.allocUnsafe(1 << 16);
    if (checkDepth && len >= MAY_BE_DEEP && jsonDeeperThan(cut, 0, len)) return undefined;
    return { value: JSON.parse(cut.toString("utf8", 0, len)), cuts };
  }

  /**
   * JSON.parse of the array of the JSON texts buf[items[2k], items[2k+1]) (a walked line's
   * items, json-walk.ts, or some of them, in order), the strings buf[cuts[2j], cuts[2j+1])
   * inside them (valid JSON strings, in order; the j-th given as mark j) cut out, the line
   * being buf[start, end) and `latin1` its bytes as latin1 text; undefined when an item
   * holds MARK_ESCAPE outside its cuts (a string of its own could be taken for a mark: the
   * caller reads the line otherwise).
   */
  parseItems(buf: Buffer, start: number, end: number, latin1: string, items: readonly number[], cuts: readonly number[]): unknown[] | undefined {
    // Made of slices of the latin1 text, right where they are ASCII (most are: the long texts are cut out); else made again of decoded pieces.
    const text = itemsText(items, cuts, (from, to) => latin1.slice(from - start, to - start));
    if (text === undefined) return undefined;
    if (!NOT_ASCII.test(text)) return JSON.parse(text) as unknown[];
    return JSON.parse(itemsText(items, cuts, (from, to) => buf.toString("utf8", from, to)) as string) as unknown[];
  }

  /** The literals to cut, as start/end pairs; none when a value found is not a JSON string (JSON.parse then says so). */
  private cutsOf(buf: Buffer, start: number, end: number, latin1: string | undefined): number[] {
    const cuts: number[] = [];
    const scan = stringScan();
    if (!scan) return cuts;
    const text = latin1 ?? buf.toString("latin1", start, end);
    if (text.includes(MARK_ESCAPE)) return cuts;
    let loaded = false;
    const keys = this.keys;
    keys.lastIndex = 0;
    for (let m = keys.exec(text); m; m = keys.exec(text)) {
      const q = start + m.index;
      // Inside a string (the line is then not JSON, or this is not a key): looked at no further.
      if (escaped((k) => buf[k], q, start)) continue;
      const v = q + m[0].length - 1;
      if (!loaded) {
        scan.load(buf, start, end);
        loaded = true;
      }
      const r = stringEnd(buf, v, end, scan);
      if (r < 0) return [];
      keys.lastIndex = r - start;
      if (r - v >= this.minBytes) cuts.push(v, r);
    }
    return cuts;
  }

  /** Appends buf[from, to) to the cut line at len: the new length. */
  private put(len: number, buf: Buffer, from: number, to: number): number {
    this.room(len + to - from);
    buf.copy(this.cut, len, from, to);
    return len + to - from;
  }

  /** Appends the k-th mark as a JSON string ("\u0000k"): the new length. */
  private putMark(len: number, k: number): number {
    const mark = `"${MARK_ESCAPE}${k}"`;
    this.room(len + mark.length);
    return len + this.cut.write(mark, len, "latin1");
  }

  private room(bytes: number): void {
    if (bytes <= this.cut.length) return;
    const grown = Buffer.allocUnsafe(Math.max(bytes, this.cut.length * 2));
    this.cut.copy(grown);
    this.cut = grown;
  }
}
