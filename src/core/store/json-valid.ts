// Whether a line is JSON as JSON.parse reads it, checked on its bytes without building
// anything: a skimmed line (line-skim.ts) is not parsed, yet a line JSON.parse refuses must
// still be refused (and reported by parsing it whole), so the check is the whole grammar,
// not just the brackets: commas, colons, literals, numbers, escapes and control characters.

import { type StringScan, stringScan } from "./json-string-scan";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** After a backslash in a string: the characters JSON allows (u is checked apart). */
const SIMPLE_ESCAPES = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** The position of the first byte from p on that is not JSON whitespace. */
export function skipSpace(buf: Uint8Array, p: number, end: number): number {
  while (p < end) {
    const c = buf[p];
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) break;
    p++;
  }
  return p;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The position after the string whose quote is at p, or -1 (a raw control character, a bad escape, no closing quote). */
function skipString(buf: Uint8Array, p: number, end: number): number {
  for (let i = p + 1; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c !== BACKSLASH) continue;
    if (++i >= end) return -1;
    const e = buf[i];
    if (e === 0x75) {
      if (i + 4 >= end || !isHex(buf[i + 1]) || !isHex(buf[i + 2]) || !isHex(buf[i + 3]) || !isHex(buf[i + 4])) return -1;
      i += 4;
    } else if (!SIMPLE_ESCAPES.has(e)) return -1;
  }
  return -1;
}

/** skipString, jumping to the next quote, control character or escape of more than one character (json-string-scan.ts). */
function skipStringByScan(scan: StringScan, buf: Uint8Array, p: number, end: number): number {
  for (let i = scan.next(p + 1, end); i < end; i = scan.next(i + 1, end)) {
    const c = buf[i];
    if (c === QUOTE) return i + 1;
    if (c !== BACKSLASH) return -1;
    i = escapeEnd(buf, i, end);
    if (i < 0) return -1;
  }
  return -1;
}

/**
 * The position after the JSON string whose opening quote is at p, or -1 where JSON.parse
 * would refuse it (a raw control character, a bad escape, no closing quote before end).
 * With `scan`, buf[start, end) must be loaded in it (StringScan.load) and the string is
 * stepped through 16 bytes at a time.
 */
export function stringEnd(buf: Uint8Array, p: number, end: number, scan?: StringScan): number {
  return scan ? skipStringByScan(scan, buf, p, end) : skipString(buf, p, end);
}

/**
 * The last byte of the escape whose backslash is at i, or -1 for one JSON does not allow:
 * skipString's own check, for the scan's loop. skipString keeps its copy inline: called
 * from there, this took its walk from 1.66 to 1.79 G instructions (callgrind, 10 MB of
 * the bench's pi session, three passes).
 */
function escapeEnd(buf: Uint8Array, i: number, end: number): number {
  if (++i >= end) return -1;
  const e = buf[i];
  if (e === 0x75) {
    if (i + 4 >= end || !isHex(buf[i + 1]) || !isHex(buf[i + 2]) || !isHex(buf[i + 3]) || !isHex(buf[i + 4])) return -1;
    return i + 4;
  }
  return SIMPLE_ESCAPES.has(e) ? i : -1;
}

/**
 * From this many bytes a line is copied into the scan's memory and its strings scanned 16
 * bytes at a time; a shorter one is walked in JavaScript. Measured on the pi fixtures' and
 * the Codex bench rollout's lines by length: the scan costs 1.3x the walk at 64-127 bytes,
 * 1.0x at 128-255, 0.8x at 256-511 and 0.4x from 1 KB.
 */
export const SCANNED_LINE = 256;
/** The scan for the line being checked, or undefined: set by each isValidJson call. */
let scan: StringScan | undefined;

/** The position after a number as JSON writes one (-?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?), or -1. */
export function skipNumber(buf: Uint8Array, p: number, end: number): number {
  if (buf[p] === 0x2d) p++;
  if (p >= end || !isDigit(buf[p])) return -1;
  if (buf[p] === 0x30) p++;
  else while (p < end && isDigit(buf[p])) p++;
  if (p < end && buf[p] === 0x2e) {
    p++;
    if (p >= end || !isDigit(buf[p])) return -1;
    while (p < end && isDigit(buf[p])) p++;
  }
  if (p < end && (buf[p] === 0x65 || buf[p] === 0x45)) {
    p++;
    if (p < end && (buf[p] === 0x2b || buf[p] === 0x2d)) p++;
    if (p >= end || !isDigit(buf[p])) return -1;
    while (p < end && isDigit(buf[p])) p++;
  }
  return p;
}

const LITERALS: ReadonlyArray<readonly number[]> = ["true", "false", "null"].map((w) => [...Buffer.from(w)]);

/** The position after true, false or null at p, or -1. */
export function skipLiteral(buf: Uint8Array, p: number, end: number): number {
  for (const w of LITERALS) {
    if (buf[p] !== w[0] || p + w.length > end) continue;
    let k = 1;
    while (k < w.length && buf[p + k] === w[k]) k++;
    return k === w.length ? p + k : -1;
  }
  return -1;
}

/** What is open at each depth: true for an object (its members need keys). */
const openAt: boolean[] = [];

/**
 * Whether buf[start, end) is one JSON value that JSON.parse would accept, nested at most
 * `limit` deep (deeper is refused too: a full read reports it as too deep); with
 * `ownKeysOnce`, also refused when its own object, or an object that is one of its
 * members' values, repeats a key or escapes one (onceKey), as a skim must: a skim reads
 * names at both levels (a Codex event's payload.type, a pi message's role). Nothing is decoded.
 * `simd: false` keeps to the JavaScript walk where WebAssembly SIMD runs too (tests compare the two).
 */
export function isValidJson(buf: Uint8Array, start: number, end: number, limit: number, opts: { ownKeysOnce?: boolean; simd?: boolean } = {}): boolean {
  const once = opts.ownKeysOnce === true;
  scan = end - start >= SCANNED_LINE && opts.simd !== false ? stringScan() : undefined;
  scan?.load(buf, start, end);
  let depth = 0;
  let p = skipSpace(buf, start, end);
  for (;;) {
    // A value at p.
    if (p >= end) return false;
    const c = buf[p];
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      const isObject = c === OPEN_OBJECT;
      // An empty one counts as a level too, as the depth check of a full read counts it.
      if (depth >= limit) return false;
      p = skipSpace(buf, p + 1, end);
      if (buf[p] === (isObject ? CLOSE_OBJECT : CLOSE_ARRAY) && p < end) p++;
      else {
        openAt[depth++] = isObject;
        if (isObject) {
          if (depth <= KEYED_LEVELS) newKeyLevel(depth - 1);
          p = once && depth <= KEYED_LEVELS && openAt[0] ? onceKey(buf, p, end, depth - 1, scan) : memberKey(buf, p, end, scan);
          if (p < 0) return false;
        }
        continue;
      }
    } else if (c === QUOTE) p = scan ? skipStringByScan(scan, buf, p, end) : skipString(buf, p, end);
    else if (c === 0x2d || isDigit(c)) p = skipNumber(buf, p, end);
    else p = skipLiteral(buf, p, end);
    if (p < 0) return false;
    // After a value: a comma and the next, or the close of what holds it.
    for (;;) {
      p = skipSpace(buf, p, end);
      if (depth === 0) return p === end;
      if (p >= end) return false;
      const isObject = openAt[depth - 1];
      const d = buf[p];
      if (d === 0x2c) {
        p = skipSpace(buf, p + 1, end);
        if (isObject) {
          p = once && depth <= KEYED_LEVELS && openAt[0] ? onceKey(buf, p, end, depth - 1, scan) : memberKey(buf, p, end, scan);
          if (p < 0) return false;
        }
        break;
      }
      if (d !== (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return false;
      depth--;
      p++;
    }
  }
}

/** Levels whose objects' keys are checked with ownKeysOnce: the line's own object (1) and its members' values (2). */
export const KEYED_LEVELS = 2;
/** Keys an object checked by onceKey may have: past this the line is parsed whole (the check compares every pair). */
const MAX_KEYS = 64;
/** Per level: where the keys of the object open at that level start and end (keyCount of them so far). */
const keyStart: number[][] = [[], []];
const keyEnd: number[][] = [[], []];
const keyCount = [0, 0];

/** An object opens at a checked level (0 or 1): onceKey forgets the keys of the one before there. */
export function newKeyLevel(level: number): void {
  keyCount[level] = 0;
}

/**
 * A member of an object at a checked level (0: the line's own, 1: one of its members'
 * values): as memberKey, and -1 when its key repeats an earlier one of the same object or
 * holds an escape. JSON.parse keeps a repeated key's last value, a skim reads the first
 * one it meets; and an escaped key could spell a name the skim looks for. Agents write
 * neither, so such a line is simply parsed whole.
 */
export function onceKey(buf: Uint8Array, p: number, end: number, level: number, s: StringScan | undefined): number {
  const start = p + 1;
  const next = memberKey(buf, p, end, s);
  if (next < 0) return -1;
  const close = lastQuoteBefore(buf, next);
  for (let i = start; i < close; i++) if (buf[i] === BACKSLASH) return -1;
  const len = close - start;
  const starts = keyStart[level];
  const ends = keyEnd[level];
  const n = keyCount[level];
  if (n >= MAX_KEYS) return -1;
  for (let k = 0; k < n; k++) {
    if (ends[k] - starts[k] !== len) continue;
    let i = 0;
    while (i < len && buf[starts[k] + i] === buf[start + i]) i++;
    if (i === len) return -1;
  }
  starts[n] = start;
  ends[n] = close;
  keyCount[level] = n + 1;
  return next;
}

/** The closing quote of a key whose value starts at `value` (back over the colon and spaces). */
function lastQuoteBefore(buf: Uint8Array, value: number): number {
  let i = value - 1;
  while (buf[i] !== QUOTE) i--;
  return i;
}

/** A member's key and colon at p: the position of its value, or -1 (`s`: the scan buf is loaded in, if any). */
export function memberKey(buf: Uint8Array, p: number, end: number, s: StringScan | undefined): number {
  if (buf[p] !== QUOTE) return -1;
  p = s ? skipStringByScan(s, buf, p, end) : skipString(buf, p, end);
  if (p < 0) return -1;
  p = skipSpace(buf, p, end);
  if (buf[p] !== 0x3a || p >= end) return -1;
  return skipSpace(buf, p + 1, end);
}
