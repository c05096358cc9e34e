import assert from "node:assert/strict";
import { lineDiff, lineDiffCounts } from "../../src/core/util/line-diff";

/** The counts the detail pane's diff shows: its "-" and "+" lines. */
function countedFromScript(oldText: string, newText: string): { minus: number; plus: number } {
  let minus = 0;
  let plus = 0;
  for (const l of lineDiff(oldText, newText)) {
    if (l.op === "-") minus++;
    else if (l.op === "+") plus++;
  }
  return { minus, plus };
}

/** A small deterministic generator, so a failure names a seed that reproduces it. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function text(r: () => number, lines: number, alphabet: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`line ${Math.floor(r() * alphabet)}`);
  return out.join("\n") + (r() < 0.5 ? "\n" : "");
}

describe("lineDiffCounts: the row's -/+ counts without building the diff", () => {
  it("agrees with the diff the detail pane draws on 2,000 random edits (small and large alphabets)", () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const r = rng(seed);
      const a = text(r, Math.floor(r() * 40), seed % 2 ? 5 : 60);
      // The new text: the old one with a few lines changed, inserted and dropped.
      const lines = a.split("\n");
      for (let k = Math.floor(r() * 6); k > 0; k--) {
        const at = Math.floor(r() * (lines.length + 1));
        const op = r();
        if (op < 0.33) lines.splice(at, 1);
        else if (op < 0.66) lines.splice(at, 0, `new ${Math.floor(r() * 9)}`);
        else lines[at] = `changed ${Math.floor(r() * 9)}`;
      }
      const b = lines.join("\n");
      assert.deepEqual(lineDiffCounts(a, b), countedFromScript(a, b), `seed ${seed}`);
    }
  });

  it("agrees past the diff's limits (too many lines, too many edits: all removed, all added)", () => {
    const many = Array.from({ length: 2_500 }, (_, i) => `a${i}`).join("\n");
    const other = Array.from({ length: 2_500 }, (_, i) => `b${i}`).join("\n");
    assert.deepEqual(lineDiffCounts(many, other), countedFromScript(many, other));
    assert.deepEqual(lineDiffCounts(many, other), { minus: 2_500, plus: 2_500 });
    const r = rng(7);
    const x = Array.from({ length: 1_500 }, () => `${Math.floor(r() * 3)}`).join("\n");
    const y = Array.from({ length: 1_500 }, () => `${Math.floor(r() * 3)}`).join("\n");
    assert.deepEqual(lineDiffCounts(x, y), countedFromScript(x, y));
  });

  it("counts the empty sides and identical texts", () => {
    assert.deepEqual(lineDiffCounts("", "a\nb\n"), { minus: 0, plus: 2 });
    assert.deepEqual(lineDiffCounts("a\nb", ""), { minus: 2, plus: 0 });
    assert.deepEqual(lineDiffCounts("same\n", "same\n"), { minus: 0, plus: 0 });
  });
});
