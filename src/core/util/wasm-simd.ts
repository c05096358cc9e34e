/**
 * What the hand-assembled WebAssembly SIMD modules share (search/folded-simd.ts,
 * store/json-string-scan.ts, formats/pi/file-call-markers.ts): the opcodes they use, the
 * module's frame (one function, one memory, both exported), compiling it where WebAssembly
 * SIMD runs, and the memory of the modules that read a line at a time (LineMemory). Written
 * out by hand, not by a toolchain: each module is one small loop, and the project builds no wasm.
 */

/** The prefix of every SIMD instruction. */
export const SIMD = 0xfd;
export const [GET, SET, TEE] = [0x20, 0x21, 0x22];
export const [I32_CONST, I32_ADD, I32_SUB, I32_AND, I32_OR, I32_SHL, I32_CTZ] = [0x41, 0x6a, 0x6b, 0x71, 0x72, 0x74, 0x68];
export const [I32_EQ, I32_LT_S, I32_GT_S, I32_GE_S, I32_LOAD8_U, SELECT, UNREACHABLE] = [0x46, 0x48, 0x4a, 0x4e, 0x2d, 0x1b, 0x00];
export const [I32_EQZ, I32_NE, I32_LT_U, I32_GE_U, I32_MUL, I32_STORE] = [0x45, 0x47, 0x49, 0x4f, 0x6c, 0x36];
export const [BLOCK, LOOP, IF, ELSE, END, BR, BR_IF, RETURN, VOID] = [0x02, 0x03, 0x04, 0x05, 0x0b, 0x0c, 0x0d, 0x0f, 0x40];
/** After the SIMD prefix: v128.load, v128.const, i8x16.splat, i8x16.eq, i8x16.lt_u, v128.and, v128.or, i8x16.bitmask. */
export const [V128_LOAD, V128_CONST, SPLAT, EQ, LT_U, AND, OR, BITMASK] = [0x00, 0x0c, 0x0f, 0x23, 0x26, 0x4e, 0x50, 0x64];
export const I32 = 0x7f;
export const V128 = 0x7b;

/** When the local `bits` has a bit set: returns the local `p` plus the place of its lowest (the first of 16 positions found). */
export function returnFirstFound(p: number, bits: number): number[] {
  return [IF, VOID, GET, p, GET, bits, I32_CTZ, I32_ADD, RETURN, END];
}

/** The local `p` on by 16, and the innermost loop again. */
export function nextSixteen(p: number): number[] {
  return [GET, p, I32_CONST, 16, I32_ADD, SET, p, BR, 0];
}

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
 * section writes them) and one memory of `pages` pages (64 KiB each) at first, exported as "mem".
 */
export function simdModule(fn: string, params: number, locals: number[], body: number[], pages = 1): Uint8Array {
  return simdFunctions([{ name: fn, params, locals, body }], pages);
}

/** A function of simdFunctions: `params` i32 params, one i32 result, `locals` as the code section writes them. */
export interface SimdFunction {
  name: string;
  params: number;
  locals: number[];
  body: number[];
}

/** A module of several functions over one memory: simdModule's frame (a type for each function). */
export function simdFunctions(fns: readonly SimdFunction[], pages = 1): Uint8Array {
  const codes = fns.map((f) => [...f.locals, ...f.body]);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [fns.length, ...fns.flatMap((f) => [0x60, f.params, ...new Array<number>(f.params).fill(I32), 1, I32])]),
    ...section(3, [fns.length, ...fns.map((_, k) => k)]),
    ...section(5, [1, 0x00, ...uleb(pages)]),
    ...section(7, [fns.length + 1, ...name("mem"), 0x02, 0, ...fns.flatMap((f, k) => [...name(f.name), 0x00, k])]),
    ...section(10, [fns.length, ...codes.flatMap((c) => [...uleb(c.length), ...c])]),
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

const PAGE = 65536;

/**
 * A memory grown past this is let go (a new instance made) when a line that fits in it
 * comes: a WebAssembly memory never shrinks, and one long line must not hold its size
 * for the thread's life.
 */
const KEPT_BYTES = 4 * 1024 * 1024;

/**
 * An instance of a module that reads one line at a time from its memory: the line is
 * copied to the memory's start with 16 bytes to spare after it (a vector load near the
 * line's end reads them; what they hold is stale). `exports` are the instance's, made again
 * when a long line's memory is let go.
 */
export class LineMemory {
  exports!: Record<string, unknown>;
  /** Where the loaded buffer's position 0 lies before the memory's start: a position p of it is p - shift in the memory. */
  shift = 0;
  private mem!: WasmMemory;
  private bytes!: Uint8Array;

  constructor(
    first: Record<string, unknown>,
    private readonly again: () => Record<string, unknown>,
  ) {
    this.take(first);
  }

  /** Copies buf[start, end) to the memory's start. */
  load(buf: Uint8Array, start: number, end: number): void {
    const need = end - start + 16;
    if (this.bytes.length > KEPT_BYTES && need <= KEPT_BYTES) this.take(this.again());
    if (this.bytes.length < need) {
      this.mem.grow(Math.ceil((need - this.bytes.length) / PAGE));
      // Growing detaches the old view.
      this.bytes = new Uint8Array(this.mem.buffer);
    }
    // A plain view: a Buffer's subarray costs a Buffer made (a fifth more, at every assistant's line).
    this.bytes.set(new Uint8Array(buf.buffer, buf.byteOffset + start, Math.max(0, Math.min(end, buf.length) - start)), 0);
    this.shift = start;
  }

  /** The memory's size now (for tests: it grows with lines, and gives back a large one). */
  memoryBytes(): number {
    return this.bytes.length;
  }

  private take(exports: Record<string, unknown>): void {
    this.exports = exports;
    this.mem = exports.mem as WasmMemory;
    this.bytes = new Uint8Array(this.mem.buffer);
  }
}

/** This thread's one LineMemory over `module` (made at the first call), or undefined where WebAssembly SIMD is not there. */
export function lazyLineMemory(module: SimdModule): () => LineMemory | undefined {
  let made: LineMemory | null | undefined;
  return () => {
    if (made === undefined) {
      const first = module.instance();
      // Where the module made one instance it makes the next.
      made = first ? new LineMemory(first, () => module.instance() as Record<string, unknown>) : null;
    }
    return made ?? undefined;
  };
}
