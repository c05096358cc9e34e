/**
 * A case-insensitive byte search in WebAssembly SIMD: 16 positions at a time, each
 * tested on two chosen bytes of the needle with the ASCII case bit set on both sides
 * ((b | 0x20) === (c | 0x20)). A hit is only a candidate (non-letters can fold too);
 * the caller checks the whole needle. Hand-assembled: the one function is
 *
 *   find(from, end, first, last, gap) -> the first p >= from with p + gap < end,
 *   (mem[p] | 0x20) == first and (mem[p + gap] | 0x20) == last; else -1.
 */
const SIMD = 0xfd;
const [GET, SET, TEE] = [0x20, 0x21, 0x22];
const [I32_CONST, I32_ADD, I32_SUB, I32_GT_S, I32_GE_S, I32_EQ, I32_OR, I32_CTZ, I32_LOAD8_U] = [0x41, 0x6a, 0x6b, 0x4a, 0x4e, 0x46, 0x72, 0x68, 0x2d];
const [BLOCK, LOOP, IF, END, BR, BR_IF, RETURN, VOID] = [0x02, 0x03, 0x04, 0x0b, 0x0c, 0x0d, 0x0f, 0x40];
const [V128_LOAD, SPLAT, EQ, AND, OR, BITMASK] = [0x00, 0x0f, 0x23, 0x4e, 0x50, 0x64];
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
  IF, VOID, GET, P, GET, BITS, I32_CTZ, I32_ADD, RETURN, END,
  GET, P, I32_CONST, 16, I32_ADD, SET, P,
  BR, 0,
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

function section(id: number, bytes: number[]): number[] {
  return [id, ...uleb(bytes.length), ...bytes];
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

const I32 = 0x7f;
const V128 = 0x7b;
const name = (s: string) => [s.length, ...Buffer.from(s)];
const locals = [2, 3, I32, 3, V128];
const code = [...locals, ...body];

const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 1, I32]),
  ...section(3, [1, 0]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [2, ...name("mem"), 0x02, 0, ...name("find"), 0x00, 0]),
  ...section(10, [1, ...uleb(code.length), ...code]),
]);

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

/** The little of the WebAssembly API used here (the project's TypeScript libs carry no DOM or wasm types). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;
let compiled: object | null | undefined;

/** A new instance (its own memory), or undefined where WebAssembly SIMD is not there. */
export function foldedSearch(): FoldedSearch | undefined {
  if (!wasm) return undefined;
  if (compiled === undefined) compiled = wasm.validate(MODULE) ? new wasm.Module(MODULE) : null;
  if (!compiled) return undefined;
  const inst = new wasm.Instance(compiled, {});
  const mem = inst.exports.mem as WasmMemory;
  const find = inst.exports.find as FoldedSearch["find"];
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
