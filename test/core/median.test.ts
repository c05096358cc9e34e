import { strict as assert } from "node:assert";
import { median } from "../../src/core/formats/pi/tokens/calibration";

/** The plain statement: sort, take the middle (the mean of the middle two for an even count). */
function sortedMedian(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

describe("median by selection", () => {
  it("equals the sorted median for odd and even counts, duplicates, negatives and sorted input", () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cases: number[][] = [[5], [2, 1], [3, 3, 3], [1, 2, 3, 4], [4, 3, 2, 1], Array.from({ length: 1000 }, (_, k) => k)];
    for (let t = 0; t < 300; t++) {
      const n = 1 + Math.floor(rand() * 200);
      const few = rand() < 0.3; // many equal values
      cases.push(Array.from({ length: n }, () => (few ? Math.floor(rand() * 4) : (rand() - 0.5) * 1e4)));
    }
    for (const xs of cases) {
      const before = [...xs];
      assert.equal(median(xs), sortedMedian(xs), `median of ${xs.length} values`);
      assert.deepEqual(xs, before, "the input was reordered");
    }
  });
});
