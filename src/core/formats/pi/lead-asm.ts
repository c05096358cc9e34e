// The pieces pi's line scan (line-leads.ts, line-rests.ts) is assembled from: one layout of
// params and locals for its functions, and code that compares bytes, reads hex ids, steps over
// strings and numbers as JSON writes them, moving the local p along a line that ends at nl.

import {
  BITMASK, BLOCK, EQ, GET, I32, I32_ADD, I32_AND, I32_CONST, I32_CTZ, I32_EQ, I32_EQZ, I32_GE_U, I32_LOAD8_U, I32_LT_U,
  I32_NE, I32_OR, I32_SHL, I32_SUB, LOOP, LT_U, OR, SELECT, SET, SIMD, SPLAT, TEE, V128, V128_CONST, V128_LOAD, sleb, uleb,
} from "../../util/wasm-simd";
import { ONE_CHARACTER_ESCAPES } from "../../store/json-string-scan";
import type { Asm } from "../../util/wasm-asm";

// Params: lo, hi, out, cap. Locals: i32 s (the line's start), nl (its newline), k (records), p, c, d, e, ok, id, parent, kind, bits, q, flags; v128 vnl, at, next, then markerVectors' six.
export const [LO, HI, OUT, CAP_, S, NL, K, P, C, D, E, OK, ID, PAR, KIND, BITS, Q, FLAGS, LEAD_END] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
export const [VNL, AT, NEXT, VECTORS] = [19, 20, 21, 22];
export const LOCALS = [2, 15, I32, 9, V128];

/** A literal's bytes. */
export const bytes = (s: string) => Buffer.from(s, "latin1");

/** Whether mem[local + off, + piece.length) holds `piece` (at most 16 bytes, compared at once): 1 or 0 on the stack. */
export function holds(a: Asm, local: number, piece: Uint8Array, off = 0): void {
  const lanes = new Array<number>(16).fill(0);
  piece.forEach((b, j) => (lanes[j] = b));
  const mask = piece.length === 16 ? 0xffff : (1 << piece.length) - 1;
  a.op(GET, local, SIMD, V128_LOAD, 0, ...uleb(off), SIMD, V128_CONST, ...lanes, SIMD, EQ, SIMD, BITMASK);
  a.op(I32_CONST, ...sleb(mask), I32_AND, I32_CONST, ...sleb(mask), I32_EQ);
}

/** Branches to `fail` unless mem[local + off, + bytes.length) holds `bytes` (16 at a time). */
export function literal(a: Asm, local: number, off: number, bytes: Uint8Array, fail: string): void {
  for (let k = 0; k < bytes.length; k += 16) {
    holds(a, local, bytes.subarray(k, k + 16), off + k);
    a.op(I32_EQZ).brIf(fail);
  }
}

/** Eight lowercase hex digits at mem[s + off] into the local `into` (their number, unsigned), else to `fail`. */
export function hex(a: Asm, off: number, into: number, fail: string): void {
  a.op(I32_CONST, 0, SET, into);
  for (let j = 0; j < 8; j++) {
    a.op(GET, S, I32_LOAD8_U, 0, ...uleb(off + j), SET, C);
    a.op(GET, C, I32_CONST, ...sleb(0x30), I32_SUB, SET, D);
    a.op(GET, C, I32_CONST, ...sleb(0x61), I32_SUB, SET, E);
    a.op(GET, D, I32_CONST, 10, I32_LT_U, SET, OK);
    a.op(GET, OK, GET, E, I32_CONST, 6, I32_LT_U, I32_OR, I32_EQZ).brIf(fail);
    a.op(GET, into, I32_CONST, 4, I32_SHL, GET, D, GET, E, I32_CONST, 10, I32_ADD, GET, OK, SELECT, I32_OR, SET, into);
  }
}

/** The local p, at a plain string's first byte, moved on to its closing quote; to `fail` at a backslash, a control byte, a byte past ASCII or the line's end. */
export function plainString(a: Asm, fail: string): void {
  a.nest(BLOCK, "closed", () =>
    a.nest(LOOP, "byte", () => {
      a.op(GET, P, GET, NL, I32_GE_U).brIf(fail);
      a.op(GET, P, I32_LOAD8_U, 0, 0, TEE, C, I32_CONST, 0x22, I32_EQ).brIf("closed");
      a.op(GET, C, I32_CONST, ...sleb(0x5c), I32_EQ).brIf(fail);
      a.op(GET, C, I32_CONST, 0x20, I32_LT_U).brIf(fail);
      a.op(GET, C, I32_CONST, ...sleb(0x80), I32_GE_U).brIf(fail);
      a.op(GET, P, I32_CONST, 1, I32_ADD, SET, P).br("byte");
    }),
  );
}

/** p on by n. */
export const step = (a: Asm, n: number) => a.op(GET, P, I32_CONST, ...sleb(n), I32_ADD, SET, P);

/** Moves p over the digits from p on (none is fine), before nl. */
export function digits(a: Asm): void {
  a.nest(BLOCK, "past", () =>
    a.nest(LOOP, "digit", () => {
      a.op(GET, P, GET, NL, I32_GE_U).brIf("past");
      a.op(GET, P, I32_LOAD8_U, 0, 0, I32_CONST, ...sleb(0x30), I32_SUB, I32_CONST, 10, I32_LT_U, I32_EQZ).brIf("past");
      a.op(GET, P, I32_CONST, 1, I32_ADD, SET, P).br("digit");
    }),
  );
}

/** Branches to `fail` unless p is at a digit before nl, then moves p over the digits. */
export function someDigits(a: Asm, fail: string): void {
  a.op(GET, P, GET, NL, I32_GE_U).brIf(fail);
  a.op(GET, P, I32_LOAD8_U, 0, 0, I32_CONST, ...sleb(0x30), I32_SUB, I32_CONST, 10, I32_LT_U, I32_EQZ).brIf(fail);
  digits(a);
}

/** Whether the byte at p, before nl, is `byte`: 1 or 0 on the stack. */
export function byteIs(a: Asm, byte: number): void {
  a.op(GET, P, GET, NL, I32_LT_U, GET, P, I32_LOAD8_U, 0, 0, I32_CONST, ...sleb(byte), I32_EQ, I32_AND);
}

/** p moved over a number as JSON writes one (-?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?), else to `fail`. */
export function number(a: Asm, fail: string): void {
  byteIs(a, 0x2d);
  a.then(() => step(a, 1));
  a.op(GET, P, GET, NL, I32_GE_U).brIf(fail);
  a.op(GET, P, I32_LOAD8_U, 0, 0, TEE, C, I32_CONST, ...sleb(0x30), I32_EQ);
  a.ifElse(
    () => step(a, 1),
    () => {
      a.op(GET, C, I32_CONST, ...sleb(0x31), I32_SUB, I32_CONST, 9, I32_LT_U, I32_EQZ).brIf(fail);
      step(a, 1);
      digits(a);
    },
  );
  byteIs(a, 0x2e);
  a.then(() => {
    step(a, 1);
    someDigits(a, fail);
  });
  a.op(GET, P, GET, NL, I32_LT_U, GET, P, I32_LOAD8_U, 0, 0, I32_CONST, 0x20, I32_OR, I32_CONST, ...sleb(0x65), I32_EQ, I32_AND);
  a.then(() => {
    step(a, 1);
    byteIs(a, 0x2b);
    byteIs(a, 0x2d);
    a.op(I32_OR).then(() => step(a, 1));
    someDigits(a, fail);
  });
}

/** The bits prompt() sets at its `out` for the text it found: an escape, a byte past ASCII. */
export const TEXT_ESCAPED = 1;
export const TEXT_PAST_ASCII = 2;

/** Whether the byte at q + off is a hex digit: 1 or 0 on the stack. */
export function isHex(a: Asm, off: number): void {
  a.op(GET, Q, I32_LOAD8_U, 0, off, TEE, C, I32_CONST, ...sleb(0x30), I32_SUB, I32_CONST, 10, I32_LT_U);
  a.op(GET, C, I32_CONST, 0x20, I32_OR, I32_CONST, ...sleb(0x61), I32_SUB, I32_CONST, 6, I32_LT_U, I32_OR);
}

/**
 * p, at the first byte of a JSON string, moved to its closing quote, else to `fail`: a raw
 * control byte, an escape JSON has not, or no closing quote before nl, as JSON.parse
 * refuses them (json-string-scan.ts's loop, its \u escapes checked here too, and what it
 * met noted). FLAGS gets TEXT_ESCAPED for an escape, TEXT_PAST_ASCII for a byte past ASCII.
 * Uses the v128 locals from VECTORS on: a quote, a backslash and 0x20 in every lane, then the 16 bytes.
 */
export function jsonString(a: Asm, fail: string): void {
  const [vquote, vbackslash, vspace, vbytes] = [VECTORS, VECTORS + 1, VECTORS + 2, VECTORS + 3];
  a.op(I32_CONST, 0x22, SIMD, SPLAT, SET, vquote, I32_CONST, ...sleb(0x5c), SIMD, SPLAT, SET, vbackslash, I32_CONST, 0x20, SIMD, SPLAT, SET, vspace);
  a.nest(BLOCK, "closed", () =>
    a.nest(LOOP, "inside", () => {
      a.op(GET, P, GET, NL, I32_GE_U).brIf(fail);
      // The stops among the 16 bytes at p (a quote, a backslash, a control byte), and their bytes past ASCII (their high bits).
      a.op(GET, P, SIMD, V128_LOAD, 0, 0, TEE, vbytes, GET, vquote, SIMD, EQ, GET, vbytes, GET, vbackslash, SIMD, EQ, SIMD, OR);
      a.op(GET, vbytes, GET, vspace, SIMD, LT_U, SIMD, OR, SIMD, BITMASK, SET, BITS);
      a.op(GET, vbytes, SIMD, BITMASK, SET, D);
      a.op(GET, BITS, I32_EQZ).then(() => {
        a.op(GET, D).then(() => a.op(GET, FLAGS, I32_CONST, TEXT_PAST_ASCII, I32_OR, SET, FLAGS));
        step(a, 16).br("inside");
      });
      a.op(GET, P, GET, BITS, I32_CTZ, TEE, E, I32_ADD, TEE, Q, GET, NL, I32_GE_U).brIf(fail);
      // Bytes past ASCII before the stop.
      a.op(GET, D, I32_CONST, 1, GET, E, I32_SHL, I32_CONST, 1, I32_SUB, I32_AND).then(() => a.op(GET, FLAGS, I32_CONST, TEXT_PAST_ASCII, I32_OR, SET, FLAGS));
      a.op(GET, Q, I32_LOAD8_U, 0, 0, TEE, C, I32_CONST, 0x22, I32_EQ).then(() => a.op(GET, Q, SET, P).br("closed"));
      a.op(GET, C, I32_CONST, ...sleb(0x5c), I32_NE).brIf(fail);
      a.op(GET, FLAGS, I32_CONST, TEXT_ESCAPED, I32_OR, SET, FLAGS);
      a.op(GET, Q, I32_CONST, 1, I32_ADD, GET, NL, I32_GE_U).brIf(fail);
      a.op(GET, Q, I32_LOAD8_U, 0, 1, SET, C);
      ONE_CHARACTER_ESCAPES.forEach((e, k) => a.op(GET, C, I32_CONST, ...sleb(e), I32_EQ, ...(k ? [I32_OR] : [])));
      a.then(() => a.op(GET, Q, I32_CONST, 2, I32_ADD, SET, P).br("inside"));
      a.op(GET, C, I32_CONST, ...sleb(0x75), I32_NE).brIf(fail);
      a.op(GET, Q, I32_CONST, 5, I32_ADD, GET, NL, I32_GE_U).brIf(fail);
      for (let j = 2; j <= 5; j++) {
        isHex(a, j);
        a.op(I32_EQZ).brIf(fail);
      }
      a.op(GET, Q, I32_CONST, 6, I32_ADD, SET, P).br("inside");
    }),
  );
}

/** One piece of REST at p, p moved past it; to `fail` (`absent`: the first bytes of an optional piece) where it is not there. */
export function piece(a: Asm, what: string, fail: string): void {
  if (what === "N") return number(a, fail);
  if (what === "S") {
    byteIs(a, 0x22);
    a.op(I32_EQZ).brIf(fail);
    step(a, 1);
    plainString(a, fail);
    step(a, 1);
    return;
  }
  literal(a, P, 0, bytes(what), fail);
  step(a, what.length);
}

/** A line's rest as pi writes it, piece by piece (see piece): a piece in `optional` is there or not as a whole. */
export type Template = ReadonlyArray<string | { optional: readonly string[] }>;

/** p moved over the pieces of `template`, else to `fail`. */
export function pieces(a: Asm, template: Template, fail: string): void {
  for (const what of template) {
    if (typeof what === "string") piece(a, what, fail);
    else a.nest(BLOCK, "absent", () => what.optional.forEach((w, k) => piece(a, w, k ? fail : "absent")));
  }
}
