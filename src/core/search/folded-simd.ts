/**
 * A case-insensitive byte search in WebAssembly SIMD: 16 positions at a time, each
 * tested on two chosen bytes of the needle with the ASCII case bit set on both sides
 * ((b | 0x20) === (c | 0x20)). A hit is only a candidate (non-letters can fold too);
 * the caller checks the whole needle. Hand-assembled: the one function is
 *
 *   find(from, end, first, last, gap) -> the first p >= from with p + gap < end,
 *   (mem[p] | 0x20) == first and (mem[p + gap] | 0x20) == last; else -1.
 */
import { AND, BITMASK, BLOCK, BR, BR_IF, END, EQ, GET, I32, I32_ADD, I32_CONST, I32_EQ, I32_GE_S, I32_GT_S, I32_LOAD8_U, I32_OR, I32_SUB, IF, LOOP, OR, RETURN, SET, SIMD, SPLAT, TEE, V128, V128_LOAD, VOID, type WasmMemory, compiledLazily, nextSixteen, returnFirstFound, simdModule } from "../util/wasm-simd";

// Params 0-4: from, end, first, last, gap; locals: 5 p, 6 limit, 7 bits, 8 case bit, 9 first, 10 last.
const [FROM, END_, FIRST, LAST, GAP, P, LIMIT, BITS, CASE, VFIRST, VLAST] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

const body = [
  // limit = end - gap - 16: the last p whose two 16-byte loads stay before end.
  GET, END_, GET, GAP, I32_SUB, I32_CONST, 16, I32_SUB, SET, LIMIT,
  GET, FROM, SET, P,
  I32_CONST, 0x20, SIMD, SPLAT, SET, CASE,
  GET, FIRST, SIMD, SPLAT, SET, VFIRST,
  GET, LAST, SIMD, SPLAT, SET, VLAST,
  BLOCK, VOID,
  LOOP, VOID,
  GET, P, GET, LIMIT, I32_GT_S, BR_IF, 1,
  GET, P, SIMD, V128_LOAD, 0, 0, GET, CASE, SIMD, OR, GET, VFIRST, SIMD, EQ,
  GET, P, GET, GAP, I32_ADD, SIMD, V128_LOAD, 0, 0, GET, CASE, SIMD, OR, GET, VLAST, SIMD, EQ,
  SIMD, AND, SIMD, BITMASK, TEE, BITS,
  ...returnFirstFound(P, BITS),
  ...nextSixteen(P),
  END,
  END,
  // The last few positions, one at a time.
  BLOCK, VOID,
  LOOP, VOID,
  GET, P, GET, GAP, I32_ADD, GET, END_, I32_GE_S, BR_IF, 1,
  GET, P, I32_LOAD8_U, 0, 0, I32_CONST, 0x20, I32_OR, GET, FIRST, I32_EQ,
  IF, VOID,
  GET, P, GET, GAP, I32_ADD, I32_LOAD8_U, 0, 0, I32_CONST, 0x20, I32_OR, GET, LAST, I32_EQ,
  IF, VOID, GET, P, RETURN, END,
  END,
  GET, P, I32_CONST, 1, I32_ADD, SET, P,
  BR, 0,
  END,
  END,
  I32_CONST, 0x7f,
  END,
];

const MODULE = compiledLazily(simdModule("find", 5, [2, 3, I32, 3, V128], body));

export interface FoldedSearch {
  /** The module's memory. */
  readonly memory: ArrayBuffer;
  /**
   * Two buffers of `size` bytes inside the module's memory, made on the first call (the
   * memory grows once, then never: growing would detach them). Files are read straight
   * into them, so the search needs no copy.
   */
  chunkBuffers(size: number): [Buffer, Buffer];
  find(from: number, end: number, first: number, last: number, gap: number): number;
}

/** A new instance (its own memory), or undefined where WebAssembly SIMD is not there. */
export function foldedSearch(): FoldedSearch | undefined {
  const exports = MODULE.instance();
  if (!exports) return undefined;
  const mem = exports.mem as WasmMemory;
  const find = exports.find as FoldedSearch["find"];
  let buffers: [Buffer, Buffer] | undefined;
  return {
    get memory() {
      return mem.buffer;
    },
    chunkBuffers(size) {
      if (buffers && buffers[0].length === size) return buffers;
      if (buffers) throw new Error(`chunk buffers of ${buffers[0].length} bytes exist; ${size} asked for`);
      // 64 bytes apart and after: the vector loads never read past a buffer's end, but stay clear anyway.
      const need = 2 * size + 128;
      const have = mem.buffer.byteLength;
      if (have < need) mem.grow(Math.ceil((need - have) / 65536));
      buffers = [Buffer.from(mem.buffer, 0, size), Buffer.from(mem.buffer, size + 64, size)];
      return buffers;
    },
    find,
  };
}
