/**
 * Whether a pi assistant line may call one of pi's file tools: whether its bytes hold one
 * of FILE_CALL_MARKERS, the names of the file tools (file-ops.ts) as JSON strings or any \u
 * escape (which could spell one). A line holding none of them (text, thinking, bash calls)
 * is skimmed by the history's load and by its own read of pi files alike (piSkims).
 *
 * Most assistant lines hold no marker, and finding that out means looking at each of their
 * bytes: a regular expression steps to every quote of the line (JSON has one every few
 * bytes). Here WebAssembly SIMD looks at 16 positions at a time for the pairs that begin a
 * marker: a quote followed by the first letter of a file tool's name (r, w or e), or a
 * backslash followed by u. A pair found is only a candidate; the whole marker is then
 * compared here in the line's own bytes.
 * Hand-assembled (util/wasm-simd.ts); the one function is
 *
 *   find(p, end) -> the first q >= p where mem[q] mem[q + 1] is one of those pairs, looked
 *   for 16 positions at a time up to end; else end. The bytes after the line are stale (a
 *   q at or past end says there is none before it), and a q whose pair reaches past end is
 *   the caller's to check.
 */
import {
  AND, BITMASK, END, EQ, GET, I32, I32_CONST, I32_GE_S, IF, LOOP, OR, RETURN, SET, SIMD,
  SPLAT, TEE, UNREACHABLE, V128, V128_LOAD, VOID, compiledLazily, lazyLineMemory, nextSixteen, returnFirstFound, simdModule, sleb,
} from "../../util/wasm-simd";
import { FILE_TOOLS } from "./file-tools";

/** The markers, as a regular expression over the line's bytes read as latin1 (a byte a character). */
const FILE_CALL_MARKERS = new RegExp(`"(?:${FILE_TOOLS.join("|")})"|\\\\u`);

/** The names the pairs begin, as their bytes with the quotes. */
const NAMES = FILE_TOOLS.map((n) => Buffer.from(`"${n}"`, "latin1"));

/** The names' first letters, the second bytes of the pairs a quote begins (the module looks for three). */
const FIRSTS = [...new Set(FILE_TOOLS.map((n) => n.charCodeAt(0)))];
if (FIRSTS.length > 3 || !FILE_TOOLS.every((n) => /^[a-z]+$/.test(n))) throw new Error(`file-call-markers: the module looks for three first letters of plain names, not ${FILE_TOOLS.join(", ")}`);
while (FIRSTS.length < 3) FIRSTS.push(FIRSTS[0]);

// Params 0-1: p, end; locals: 2 bits; 3 the 16 bytes at p, 4 those at p + 1, 5-10 the bytes looked for (markerVectors).
const [P, END_, BITS, AT, NEXT, VECTORS] = [0, 1, 2, 3, 4, 5];

const splat = (byte: number, local: number) => [I32_CONST, ...sleb(byte), SIMD, SPLAT, SET, local];
const equals = (v: number, byteVector: number) => [GET, v, GET, byteVector, SIMD, EQ];

/** Sets the six v128 locals from `v` on to the bytes the pairs are made of (a quote, a backslash, FIRSTS, u): for markerBits. */
export function markerVectors(v: number): number[] {
  return [...splat(0x22, v), ...splat(0x5c, v + 1), ...splat(FIRSTS[0], v + 2), ...splat(FIRSTS[1], v + 3), ...splat(FIRSTS[2], v + 4), ...splat(0x75, v + 5)];
}

/**
 * Leaves on the stack the bitmask of the pairs that begin at the 16 positions from the
 * local `p` on (i32 p; v128 locals `at` and `next` are its scratch, `v` on: markerVectors).
 */
export function markerBits(p: number, at: number, next: number, v: number): number[] {
  const [quote, backslash, r, w, e, u] = [v, v + 1, v + 2, v + 3, v + 4, v + 5];
  return [
    GET, p, SIMD, V128_LOAD, 0, 0, SET, at,
    GET, p, SIMD, V128_LOAD, 0, 1, SET, next,
    // (quote and then r, w or e) or (backslash and then u), at each of the 16 positions.
    ...equals(at, quote), ...equals(next, r), ...equals(next, w), SIMD, OR, ...equals(next, e), SIMD, OR, SIMD, AND,
    ...equals(at, backslash), ...equals(next, u), SIMD, AND,
    SIMD, OR, SIMD, BITMASK,
  ];
}

const body = [
  ...markerVectors(VECTORS),
  LOOP, VOID,
  GET, P, GET, END_, I32_GE_S, IF, VOID, GET, END_, RETURN, END,
  ...markerBits(P, AT, NEXT, VECTORS), TEE, BITS,
  ...returnFirstFound(P, BITS),
  ...nextSixteen(P),
  END,
  UNREACHABLE,
  END,
];

const MODULE = compiledLazily(simdModule("find", 2, [2, 1, I32, 8, V128], body));

/** This thread's instance (made on the first call), or undefined where WebAssembly SIMD is not there. */
const lines = lazyLineMemory(MODULE);

/** Whether buf holds `lit` at k, before end. */
function holdsAt(buf: Uint8Array, k: number, end: number, lit: Uint8Array): boolean {
  if (k + lit.length > end) return false;
  for (let j = 0; j < lit.length; j++) if (buf[k + j] !== lit[j]) return false;
  return true;
}

/** Whether the marker's pair at k (a quote or a backslash) begins a whole marker before end. */
function markerAt(buf: Uint8Array, k: number, end: number): boolean {
  if (buf[k] === 0x5c) return k + 1 < end && buf[k + 1] === 0x75;
  for (const name of NAMES) if (holdsAt(buf, k, end, name)) return true;
  return false;
}

/**
 * Whether buf[start, end) holds one of FILE_CALL_MARKERS. `simd` false: by the regular
 * expression over the bytes as latin1 text (where WebAssembly SIMD is not there, and for
 * tests, which hold the two to one answer).
 */
export function holdsFileCallMarker(buf: Buffer, start: number, end: number, simd = true): boolean {
  const mem = simd ? lines() : undefined;
  if (!mem) return FILE_CALL_MARKERS.test(buf.toString("latin1", start, end));
  mem.load(buf, start, end);
  const find = mem.exports.find as (p: number, end: number) => number;
  const n = end - start;
  for (let p = 0; p < n; ) {
    const q = find(p, n);
    if (q >= n) return false;
    if (markerAt(buf, start + q, end)) return true;
    p = q + 1;
  }
  return false;
}
