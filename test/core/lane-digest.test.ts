import { strict as assert } from "node:assert";
import { laneDigest, digestInMemory, LANES_FUNCTION } from "../../src/core/util/lane-digest";
import { compiledLazily, simdFunctions } from "../../src/core/util/wasm-simd";

/** Bytes of a small deterministic generator (xorshift), so a failure can be run again. */
function bytesOf(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed | 1;
  for (let k = 0; k < n; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[k] = x & 0xff;
  }
  return out;
}

describe("lane digest (the history's digest of an edit's bytes)", () => {
  it("the same answer in WebAssembly over a module's memory as in JavaScript, at every length and alignment", function () {
    const exports = compiledLazily(simdFunctions([LANES_FUNCTION], 2)).instance();
    if (!exports) this.skip();
    const memory = (exports!.mem as { buffer: ArrayBuffer }).buffer;
    const lanes = exports!.lanes as (p: number, end: number, out: number) => number;
    let calls = 0;
    const restore = digestInMemory(memory, (p, end, out) => (calls++, lanes(p, end, out)), 0);
    try {
      const area = Buffer.from(memory, 64, 65536);
      let compared = 0;
      for (let n = 0; n <= 300; n++) {
        for (const at of [0, 1, 3, 7, 13]) {
          const own = bytesOf(n, n * 31 + at);
          own.copy(area, at);
          assert.equal(laneDigest(area, at, at + n), laneDigest(own), `${n} bytes at ${at}`);
          compared++;
        }
      }
      const big = bytesOf(60_000, 7);
      big.copy(area, 5);
      assert.equal(laneDigest(area, 5, 5 + big.length), laneDigest(big));
      assert.ok(calls >= 5 * (300 - 64), `the module ran ${calls} of ${compared} digests`);
    } finally {
      restore();
    }
  });

  it("tells apart near texts: no two of 200,000 numbered lines, and every one-bit change of a text, give one digest", () => {
    const seen = new Map<number, number>();
    let collisions = 0;
    for (let k = 0; k < 200_000; k++) {
      const d = laneDigest(Buffer.from(JSON.stringify(`  const value${k % 97} = compute(${k});\n`)));
      if (seen.has(d)) collisions++;
      else seen.set(d, k);
    }
    // A uniform 32-bit digest collides about n^2 / 2^33 times: 4.7 for 200,000.
    assert.ok(collisions <= 20, `${collisions} collisions`);
    const text = bytesOf(100, 99);
    const digests = new Set([laneDigest(text)]);
    for (let bit = 0; bit < 800; bit++) {
      const flipped = Buffer.from(text);
      flipped[bit >> 3] ^= 1 << (bit & 7);
      digests.add(laneDigest(flipped));
    }
    assert.equal(digests.size, 801);
    assert.notEqual(laneDigest(Buffer.from("ab")), laneDigest(Buffer.from("ba")));
    assert.notEqual(laneDigest(Buffer.alloc(16)), laneDigest(Buffer.alloc(32)), "zeros of two lengths");
  });

  it("is the digest the history's cache file holds (version 5): changing it asks for a new cache version", () => {
    assert.equal(laneDigest(Buffer.from('"The quick brown fox jumps over the lazy dog, again and again and again."')), GOLDEN);
  });
});

/** The digest of that text when version 5 was written. */
const GOLDEN = 1889519046;
