/**
 * The bulk of a long session line is JSON strings (a tool's output, a file read), and
 * checking the line (json-valid.ts) steps through them byte by byte looking for the few
 * bytes that matter inside a string: its closing quote, a backslash, a raw control
 * character. Here that look is WebAssembly SIMD, 16 bytes at a time. Tool output holds a
 * backslash every 20 bytes or so (\n, \"): the one-character escapes are stepped over here
 * too, or each would cost a return to JavaScript. Hand-assembled (util/wasm-simd.ts); the
 * one function is
 *
 *   stop(p, end) -> the first q in [p, end) whose byte is 0x22 or below 0x20, or 0x5c not
 *   followed (before end) by one of " \ / b f n r t; else end.
 *
 * Near end it loads 16 bytes anyway and masks off what lies at or after end: the memory
 * always holds 16 bytes more than the line copied into it.
 */
import {
  BITMASK, BR, END, EQ, GET, I32, I32_ADD, I32_AND, I32_CONST, I32_CTZ, I32_EQ, I32_GT_S, I32_LOAD8_U, I32_LT_S,
  I32_OR, I32_SHL, I32_SUB, IF, LOOP, LT_U, OR, RETURN, SELECT, SET, SIMD, SPLAT, TEE, UNREACHABLE, V128, V128_LOAD,
  VOID, type LineMemory, type SimdFunction, compiledLazily, lazyLineMemory, nextSixteen, simdModule, sleb,
} from "../util/wasm-simd";

// Params 0-1: p, end; locals: 2 limit, 3 bits, 4 q, 5 c, 6 quotes, 7 backslashes, 8 spaces, 9 the 16 bytes.
const [P, END_, LIMIT, BITS, Q, C, VQUOTE, VBACKSLASH, VSPACE, VBYTES] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];

/** Which of the 16 bytes at p stop a string, as the low 16 bits of an i32 (left on the stack). */
const STOPS_AT_P = [
  GET, P, SIMD, V128_LOAD, 0, 0, TEE, VBYTES, GET, VQUOTE, SIMD, EQ,
  GET, VBYTES, GET, VBACKSLASH, SIMD, EQ, SIMD, OR,
  GET, VBYTES, GET, VSPACE, SIMD, LT_U, SIMD, OR,
  SIMD, BITMASK,
];

/** Whether c is one of the one-character escapes (left on the stack). */
/** The bytes JSON allows after a backslash as a one-character escape: " \ / b f n r t. */
export const ONE_CHARACTER_ESCAPES: readonly number[] = [0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74];

const SIMPLE_ESCAPE = ONE_CHARACTER_ESCAPES.flatMap((e, k) => [GET, C, I32_CONST, ...sleb(e), I32_EQ, ...(k ? [I32_OR] : [])]);

const body = [
  // limit = end - 16: the last p whose 16 bytes all lie before end.
  GET, END_, I32_CONST, 16, I32_SUB, SET, LIMIT,
  I32_CONST, 0x22, SIMD, SPLAT, SET, VQUOTE,
  I32_CONST, ...sleb(0x5c), SIMD, SPLAT, SET, VBACKSLASH,
  I32_CONST, 0x20, SIMD, SPLAT, SET, VSPACE,
  LOOP, VOID,
  // The stops among the 16 bytes at p; past limit, only the low end - p of them count.
  ...STOPS_AT_P,
  I32_CONST, 1, GET, END_, GET, P, I32_SUB, I32_SHL, I32_CONST, 1, I32_SUB,
  I32_CONST, ...sleb(0xffff),
  GET, P, GET, LIMIT, I32_GT_S, SELECT,
  I32_AND, TEE, BITS,
  IF, VOID,
  GET, P, GET, BITS, I32_CTZ, I32_ADD, SET, Q,
  // A backslash whose escape is one character, before end: on from after it.
  GET, Q, I32_LOAD8_U, 0, 0, I32_CONST, ...sleb(0x5c), I32_EQ,
  GET, Q, I32_CONST, 1, I32_ADD, GET, END_, I32_LT_S, I32_AND,
  IF, VOID,
  GET, Q, I32_LOAD8_U, 0, 1, SET, C,
  ...SIMPLE_ESCAPE,
  IF, VOID, GET, Q, I32_CONST, 2, I32_ADD, SET, P, BR, 3, END,
  END,
  GET, Q, RETURN,
  END,
  GET, P, GET, LIMIT, I32_GT_S, IF, VOID, GET, END_, RETURN, END,
  ...nextSixteen(P),
  END,
  UNREACHABLE,
  END,
];

/** The scan's function, for a module of its own (here) or one whose memory holds the line already (StringScanIn). */
export const STOP_FUNCTION: SimdFunction = { name: "stop", params: 2, locals: [2, 4, I32, 4, V128], body };

const MODULE = compiledLazily(simdModule(STOP_FUNCTION.name, STOP_FUNCTION.params, STOP_FUNCTION.locals, STOP_FUNCTION.body));

/** A line's bytes in the module's memory, and the scan over them. */
export interface StringScan {
  /** Copies buf[start, end) into the module's memory: next() then reads that copy. */
  load(buf: Uint8Array, start: number, end: number): void;
  /**
   * The first position q, p <= q < end, whose byte (in buf's positions, as loaded) is a
   * quote, below 0x20, or a backslash but for one of a one-character escape that ends
   * before end (those are stepped over); end if there is none. p must not pass end.
   */
  next(p: number, end: number): number;
  /** The size of the module's memory now (for tests: it grows with lines, and gives back a large one). */
  memoryBytes(): number;
}

/**
 * A scan of lines already in a module's memory that has STOP_FUNCTION among its functions
 * (`stop`; `holds` says which buffers are views of that memory): load copies nothing.
 */
export function stringScanIn(stop: (p: number, end: number) => number, holds: (buf: Uint8Array) => boolean): StringScan {
  let shift = 0;
  let size = 0;
  return {
    load(buf) {
      if (!holds(buf)) throw new Error("stringScanIn: the line is not in the module's memory");
      shift = buf.byteOffset;
      size = buf.buffer.byteLength;
    },
    next(p, end) {
      return stop(p + shift, end + shift) - shift;
    },
    memoryBytes() {
      return size;
    },
  };
}

/** A scan over a LineMemory: its function read again when the memory's instance is made again. */
function scanOver(lines: LineMemory): StringScan {
  let exports = lines.exports;
  let stop = exports.stop as (p: number, end: number) => number;
  return {
    load(buf, start, end) {
      lines.load(buf, start, end);
      if (lines.exports !== exports) {
        exports = lines.exports;
        stop = exports.stop as typeof stop;
      }
    },
    next(p, end) {
      const shift = lines.shift;
      return stop(p - shift, end - shift) + shift;
    },
    memoryBytes() {
      return lines.memoryBytes();
    },
  };
}

const lines = lazyLineMemory(MODULE);
let made: StringScan | null | undefined;

/**
 * This thread's scan (made on the first call; a worker thread makes its own), or
 * undefined where WebAssembly SIMD is not there.
 */
export function stringScan(): StringScan | undefined {
  if (made === undefined) {
    const memory = lines();
    made = memory ? scanOver(memory) : null;
  }
  return made ?? undefined;
}
