/**
 * What the hand-assembled WebAssembly SIMD modules share (search/folded-simd.ts,
 * store/json-string-scan.ts): the opcodes they use, the module's frame (one function, one
 * memory, both exported) and compiling it where WebAssembly SIMD runs. Written out by
 * hand, not by a toolchain: each module is one small loop, and the project builds no wasm.
 */

/** The prefix of every SIMD instruction. */
export const SIMD = 0xfd;
export const [GET, SET, TEE] = [0x20, 0x21, 0x22];
export const [I32_CONST, I32_ADD, I32_SUB, I32_AND, I32_OR, I32_SHL, I32_CTZ] = [0x41, 0x6a, 0x6b, 0x71, 0x72, 0x74, 0x68];
export const [I32_EQ, I32_LT_S, I32_GT_S, I32_GE_S, I32_LOAD8_U, SELECT, UNREACHABLE] = [0x46, 0x48, 0x4a, 0x4e, 0x2d, 0x1b, 0x00];
export const [BLOCK, LOOP, IF, END, BR, BR_IF, RETURN, VOID] = [0x02, 0x03, 0x04, 0x0b, 0x0c, 0x0d, 0x0f, 0x40];
/** After the SIMD prefix: v128.load, i8x16.splat, i8x16.eq, i8x16.lt_u, v128.and, v128.or, i8x16.bitmask. */
export const [V128_LOAD, SPLAT, EQ, LT_U, AND, OR, BITMASK] = [0x00, 0x0f, 0x23, 0x26, 0x4e, 0x50, 0x64];
export const I32 = 0x7f;
export const V128 = 0x7b;

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

/** An i32.const's operand: signed LEB128 (0x40 and up take two bytes, or they read as negative). */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

function section(id: number, bytes: number[]): number[] {
  return [id, ...uleb(bytes.length), ...bytes];
}

const name = (s: string) => [s.length, ...Buffer.from(s)];

/**
 * A module of one function `fn` (i32 params, one i32 result; `locals` as the code
 * section writes them) and one memory of a page, exported as "mem".
 */
export function simdModule(fn: string, params: number, locals: number[], body: number[]): Uint8Array {
  const code = [...locals, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, params, ...new Array<number>(params).fill(I32), 1, I32]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [2, ...name("mem"), 0x02, 0, ...name(fn), 0x00, 0]),
    ...section(10, [1, ...uleb(code.length), ...code]),
  ]);
}

/** The little of the WebAssembly API used here (the project's TypeScript libs carry no DOM or wasm types). */
interface Wasm {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
export interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** One of simdModule's modules, compiled once, instantiated on each call (each has its own memory). */
export interface SimdModule {
  /** A new instance's exports, or undefined where WebAssembly SIMD is not there. */
  instance(): Record<string, unknown> | undefined;
}

const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly;

export function compiledLazily(bytes: Uint8Array): SimdModule {
  let compiled: object | null | undefined;
  return {
    instance() {
      if (!wasm) return undefined;
      if (compiled === undefined) compiled = wasm.validate(bytes) ? new wasm.Module(bytes) : null;
      return compiled ? new wasm.Instance(compiled, {}).exports : undefined;
    },
  };
}
