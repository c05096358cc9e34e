/**
 * A 32-bit digest of bytes, for the history's places of edit texts (history/edit-texts.ts):
 * enough to tell bytes read back from others, and cheap at the rate a cold index digests
 * (every edit of every session: 650 MB of texts at the bench's 4 GB of sessions, where
 * Node's CRC-32 and the string made of it were a twentieth of the read).
 *
 * Four lanes run murmur3's 32-bit block step side by side over the bytes' 16-byte blocks
 * (lane i takes the little-endian words at 4i of each block); the four lane values, the
 * bytes left after the last whole block and the length are then run through the same step
 * and murmur3's final mix. In JavaScript here; where the bytes lie in a WebAssembly memory
 * that has LANES_FUNCTION among its functions (pi's line scan: formats/pi/line-leads.ts),
 * the blocks are run there four lanes at once (WebAssembly SIMD), the rest here.
 * test/core/lane-digest.test.ts holds the two to one answer.
 */
import { GET, I32_ADD, I32_CONST, SET, SIMD, V128, V128_CONST, V128_LOAD, BLOCK, LOOP, END, type SimdFunction, sleb } from "./wasm-simd";
import { Asm } from "./wasm-asm";

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const N = 0xe6546b64;
/** Each lane's start (distinct, so that equal words in two lanes do not cancel). */
const SEEDS = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f];

function mixWord(k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, C2);
}

function step(h: number, w: number): number {
  h ^= mixWord(w);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + N) | 0;
}

function word(b: Uint8Array, p: number): number {
  return b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24);
}

/** A memory whose bytes are digested there: its lanes function and where that writes its four lanes. */
interface InMemory {
  memory: ArrayBuffer;
  lanes: (p: number, end: number, out: number) => number;
  out: number;
  view: Int32Array;
}

let inMemory: InMemory | undefined;

/** Below this many bytes the blocks are run here: a call into WebAssembly costs about as much. */
const IN_MEMORY_BYTES = 64;

/**
 * Bytes in `memory` are digested by `lanes` (LANES_FUNCTION's export in a module over it),
 * which writes its four lanes at `out` (16 bytes of the memory the caller keeps for it).
 * One memory at a time (a thread has one line scan); what it gives puts back the one before.
 */
export function digestInMemory(memory: ArrayBuffer, lanes: InMemory["lanes"], out: number): () => void {
  const before = inMemory;
  inMemory = { memory, lanes, out, view: new Int32Array(memory, out, 4) };
  return () => {
    inMemory = before;
  };
}

/** The digest of bytes[from, to), an unsigned 32-bit number. */
export function laneDigest(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let p = from;
  let h0: number;
  let h1: number;
  let h2: number;
  let h3: number;
  const m = inMemory;
  if (m && to - from >= IN_MEMORY_BYTES && bytes.buffer === m.memory) {
    const shift = bytes.byteOffset;
    p = m.lanes(shift + from, shift + to, m.out) - shift;
    [h0, h1, h2, h3] = m.view;
  } else {
    [h0, h1, h2, h3] = SEEDS;
    for (; p + 16 <= to; p += 16) {
      h0 = step(h0, word(bytes, p));
      h1 = step(h1, word(bytes, p + 4));
      h2 = step(h2, word(bytes, p + 8));
      h3 = step(h3, word(bytes, p + 12));
    }
  }
  let h = step(step(step(step(0, h0), h1), h2), h3);
  for (; p + 4 <= to; p += 4) h = step(h, word(bytes, p));
  if (p < to) {
    let k = 0;
    for (let s = 0; p < to; p++, s += 8) k |= bytes[p] << s;
    h ^= mixWord(k);
  }
  h ^= to - from;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

// After the SIMD prefix, as LEB128: i32x4.splat, v128.store, v128.or, v128.xor, i32x4.shl, i32x4.shr_u, i32x4.add, i32x4.mul.
const [I32X4_SPLAT, V128_STORE, V128_OR, V128_XOR] = [[0x11], [0x0b], [0x50], [0x51]];
const [I32X4_SHL, I32X4_SHR_U, I32X4_ADD, I32X4_MUL] = [
  [0xab, 0x01],
  [0xad, 0x01],
  [0xae, 0x01],
  [0xb5, 0x01],
];
const I32_GT_U = 0x4b;

// Params 0-2: p, end, out; locals: 3 the lanes, 4 a block's words, 5-7 C1, C2 and N in each lane.
const [P, END_, OUT, H, K, VC1, VC2, VN] = [0, 1, 2, 3, 4, 5, 6, 7];

/** v rotated left by r in each lane, left on the stack. */
const rotl = (v: number, r: number) => [GET, v, I32_CONST, r, SIMD, ...I32X4_SHL, GET, v, I32_CONST, 32 - r, SIMD, ...I32X4_SHR_U, SIMD, ...V128_OR];

function lanesBody(): number[] {
  const a = new Asm();
  for (const [c, v] of [[C1, VC1], [C2, VC2], [N, VN]]) a.op(I32_CONST, ...sleb(c | 0), SIMD, ...I32X4_SPLAT, SET, v);
  a.op(SIMD, V128_CONST, ...SEEDS.flatMap((s) => [s & 0xff, (s >>> 8) & 0xff, (s >>> 16) & 0xff, s >>> 24]), SET, H);
  a.nest(BLOCK, "done", () =>
    a.nest(LOOP, "blocks", () => {
      a.op(GET, P, I32_CONST, 16, I32_ADD, GET, END_, I32_GT_U).brIf("done");
      a.op(GET, P, SIMD, V128_LOAD, 0, 0, GET, VC1, SIMD, ...I32X4_MUL, SET, K);
      a.op(...rotl(K, 15), GET, VC2, SIMD, ...I32X4_MUL, SET, K);
      a.op(GET, H, GET, K, SIMD, ...V128_XOR, SET, H);
      // h = rotl(h, 13) * 5 + N, the multiply by 5 as (h << 2) + h.
      a.op(...rotl(H, 13), SET, H);
      a.op(GET, H, I32_CONST, 2, SIMD, ...I32X4_SHL, GET, H, SIMD, ...I32X4_ADD, GET, VN, SIMD, ...I32X4_ADD, SET, H);
      a.op(GET, P, I32_CONST, 16, I32_ADD, SET, P).br("blocks");
    }),
  );
  a.op(GET, OUT, GET, H, SIMD, ...V128_STORE, 0, 0, GET, P, END);
  return a.code;
}

/**
 * lanes(p, end, out) -> the position after the last whole 16-byte block of mem[p, end): the
 * four lanes over those blocks written at out. For a module over the memory the bytes are in
 * (digestInMemory).
 */
export const LANES_FUNCTION: SimdFunction = { name: "lanes", params: 3, locals: [1, 5, V128], body: lanesBody() };
