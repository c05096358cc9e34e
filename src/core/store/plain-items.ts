// A walked line's items (json-walk.ts) made into values straight from their bytes, when
// they are written plainly: objects and arrays without spaces, keys of printable ASCII
// without escapes, strings (one with escapes or bytes past ASCII parsed alone), integers,
// true, false and null, and the long strings a walk noted to cut given as their marks
// (cut-parse.ts: "\u0000" and the cut's number). That is how pi writes a tool call's block,
// so the history's read of a file call makes no text of the line and parses no more than
// such a string. Anything else (a \u escape, a fraction, a space, deep nesting, a key
// JSON.parse would treat otherwise) is not read here: the caller parses the items
// (LineCutter.parseItems), whose answer this one equals where it gives one.

import { cutMark } from "./cut-parse";
import { KnownNames } from "./known-names";

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** Nesting deeper than this (an item is level 1) is left to JSON.parse. */
const MAX_LEVELS = 6;

/** Digits of an integer read here at most: more may not be a safe integer (JSON.parse then rounds). */
const MAX_DIGITS = 15;

/** What a reader gives for bytes it does not read (never a JSON value). */
const NOT_PLAIN: unique symbol = Symbol("not plain");

/** Keys pi's tool calls use, made once (each key read is compared with these before a string is made of it). */
const KNOWN_KEYS = new KnownNames(["type", "id", "name", "arguments", "path", "oldText", "newText", "content", "offset", "limit", "edits", "command", "timeout"]);
/** Values as common: a call's type, and the names of the tools pi calls most. */
const KNOWN_VALUES = new KnownNames(["toolCall", "read", "write", "edit", "bash"]);

/**
 * The position after the plain string (printable ASCII, no escape) whose opening quote is at
 * p, or -1: not plain (an escape, a control character, which JSON has none of raw, or a byte
 * of a longer UTF-8 sequence), or not closed before `stop`. pi's lead read (plain-lead.ts)
 * reads its strings by the same rule.
 */
export function plainStringEnd(buf: Uint8Array, p: number, stop: number): number {
  for (let i = p + 1; i < stop; i++) {
    const c = buf[i];
    if (c === QUOTE) return i + 1;
    if (c === 0x5c || c < 0x20 || c >= 0x80) return -1;
  }
  return -1;
}

/** One reader of the items of one line: its bytes, its cuts, and where it is. */
class PlainReader {
  p = 0;
  /** The next cut (its place in `cuts`, an even number) at or after `p`. */
  c = 0;

  private buf: Buffer = Buffer.alloc(0);
  private cuts: readonly number[] = [];

  /** Reads `buf` (with these cuts) from its start. */
  reset(buf: Buffer, cuts: readonly number[]): void {
    this.buf = buf;
    this.cuts = cuts;
    this.p = this.c = 0;
  }

  /** The value at `p` (which it leaves after it), or NOT_PLAIN. */
  value(level: number): unknown {
    const b = this.buf[this.p];
    if (b === QUOTE) return this.string();
    if (b === OPEN_OBJECT) return level < MAX_LEVELS ? this.object(level + 1) : NOT_PLAIN;
    if (b === OPEN_ARRAY) return level < MAX_LEVELS ? this.array(level + 1) : NOT_PLAIN;
    if (b === MINUS || (b >= ZERO && b <= NINE)) return this.integer();
    if (this.word("true")) return true;
    if (this.word("false")) return false;
    if (this.word("null")) return null;
    return NOT_PLAIN;
  }

  private word(w: string): boolean {
    const { buf, p } = this;
    for (let k = 0; k < w.length; k++) if (buf[p + k] !== w.charCodeAt(k)) return false;
    this.p += w.length;
    return true;
  }

  /** A string at p: a cut one's mark, or a plain one's text. */
  private string(): string | typeof NOT_PLAIN {
    const { cuts } = this;
    while (this.c < cuts.length && cuts[this.c] < this.p) this.c += 2;
    if (cuts[this.c] === this.p) {
      this.p = cuts[this.c + 1];
      const mark = cutMark(this.c / 2);
      this.c += 2;
      return mark;
    }
    const from = this.p + 1;
    const after = plainStringEnd(this.buf, this.p, this.buf.length);
    if (after >= 0) {
      this.p = after;
      return KNOWN_VALUES.nameIn(this.buf, from, after - 1) ?? this.buf.toString("latin1", from, after - 1);
    }
    return this.escapedString(from);
  }

  /**
   * A string with escapes or bytes past ASCII (a shell command's quotes, a name in another
   * script), its text starting at `from`: JSON.parse of its literal alone, which gives what
   * JSON.parse of the line gives there (a literal's quotes are ASCII, so its bytes decode
   * alike alone or in the line). Not one with a \u escape: "\u0000" could make a string
   * taken for a cut's mark (JSON.parse of the items refuses such an item too).
   */
  private escapedString(from: number): string | typeof NOT_PLAIN {
    const buf = this.buf;
    let wide = false;
    for (let i = from; i < buf.length; i++) {
      const c = buf[i];
      if (c === QUOTE) {
        this.p = i + 1;
        return JSON.parse(buf.toString(wide ? "utf8" : "latin1", from - 1, i + 1)) as string;
      }
      if (c === 0x5c) {
        if (buf[i + 1] === 0x75) return NOT_PLAIN;
        i++;
      } else if (c < 0x20) return NOT_PLAIN;
      else if (c >= 0x80) wide = true;
    }
    return NOT_PLAIN;
  }

  /** A key at p, and the colon after it: its name, or undefined. */
  private key(): string | undefined {
    const buf = this.buf;
    if (buf[this.p] !== QUOTE) return undefined;
    const from = this.p + 1;
    const after = plainStringEnd(buf, this.p, buf.length);
    if (after < 0 || buf[after] !== COLON) return undefined;
    const to = after - 1;
    this.p = after + 1;
    const known = KNOWN_KEYS.nameIn(buf, from, to);
    if (known !== undefined) return known;
    const name = this.buf.toString("latin1", from, to);
    // JSON.parse makes this an own member; an assignment would set the object's prototype.
    return name === "__proto__" ? undefined : name;
  }

  private object(level: number): Record<string, unknown> | typeof NOT_PLAIN {
    const buf = this.buf;
    const out: Record<string, unknown> = {};
    this.p++;
    if (buf[this.p] === CLOSE_OBJECT) {
      this.p++;
      return out;
    }
    for (;;) {
      const key = this.key();
      if (key === undefined) return NOT_PLAIN;
      const v = this.value(level);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      out[key] = v;
      const b = buf[this.p++];
      if (b === CLOSE_OBJECT) return out;
      if (b !== COMMA) return NOT_PLAIN;
    }
  }

  private array(level: number): unknown[] | typeof NOT_PLAIN {
    const buf = this.buf;
    const out: unknown[] = [];
    this.p++;
    if (buf[this.p] === CLOSE_ARRAY) {
      this.p++;
      return out;
    }
    for (;;) {
      const v = this.value(level);
      if (v === NOT_PLAIN) return NOT_PLAIN;
      out.push(v);
      const b = buf[this.p++];
      if (b === CLOSE_ARRAY) return out;
      if (b !== COMMA) return NOT_PLAIN;
    }
  }

  /** An integer of at most MAX_DIGITS digits, no leading zero, followed by what may follow a value; else NOT_PLAIN (a fraction, an exponent, -0). */
  private integer(): number | typeof NOT_PLAIN {
    const buf = this.buf;
    let p = this.p;
    const negative = buf[p] === MINUS;
    if (negative) p++;
    const first = p;
    let n = 0;
    while (p < buf.length && buf[p] >= ZERO && buf[p] <= NINE) n = n * 10 + buf[p++] - ZERO;
    const digits = p - first;
    if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && buf[first] === ZERO) || (negative && n === 0)) return NOT_PLAIN;
    const next = buf[p];
    if (next !== COMMA && next !== CLOSE_OBJECT && next !== CLOSE_ARRAY) return NOT_PLAIN;
    this.p = p;
    return negative ? -n : n;
  }
}

/** This thread's reader (its state is one line's at a time). */
const reader = new PlainReader();

/**
 * The values of the JSON texts buf[items[2k], items[2k+1]) (a walked line's items, in order),
 * the strings starting at cuts[2j] (to cuts[2j+1]) given as cut j's mark, as JSON.parse of
 * LineCutter.parseItems's text gives them; undefined when an item is not written plainly
 * (see the head of this file).
 */
export function plainItems(buf: Buffer, items: readonly number[], cuts: readonly number[]): unknown[] | undefined {
  reader.reset(buf, cuts);
  const out: unknown[] = [];
  for (let j = 0; j < items.length; j += 2) {
    reader.p = items[j];
    const v = reader.value(1);
    if (v === NOT_PLAIN || reader.p !== items[j + 1]) return undefined;
    out.push(v);
  }
  return out;
}
