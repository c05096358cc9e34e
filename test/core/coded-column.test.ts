import { strict as assert } from "node:assert";
import { CodedColumn, partValue } from "../../src/core/util/coded-column";

describe("CodedColumn (a repeated string per position, as codes)", () => {
  it("gives back what each position was set to, nothing where none was, past the first growth", () => {
    const c = new CodedColumn();
    const want: Array<string | undefined> = [];
    for (let i = 0; i < 5000; i++) {
      const v = i % 7 === 3 ? undefined : `turn-${Math.floor(i / 40)}`;
      c.set(i, v);
      want.push(v);
    }
    assert.equal(c.length, 5000);
    assert.deepEqual([...c], want);
    assert.equal(c.get(-1), undefined);
    assert.equal(c.get(5000), undefined);
  });

  it("sets out of order and over a value, and lists only the values still held", () => {
    const c = new CodedColumn();
    c.set(9, "b");
    c.set(2, "a");
    c.set(9, "c");
    c.set(4, undefined);
    assert.equal(c.length, 10);
    assert.deepEqual([...c], [undefined, undefined, "a", undefined, undefined, undefined, undefined, undefined, undefined, "c"]);
    assert.deepEqual([...c.distinct()].sort(), ["a", "c"]);
  });

  it("hands its first positions over as a part whose values read back the same, and a later set does not change the part", () => {
    const c = new CodedColumn();
    ["t1", "t1", undefined, "t2", "t2", "t3"].forEach((v, i) => c.set(i, v));
    const p = c.part(5);
    assert.equal(p.codes.length, 5);
    assert.deepEqual([0, 1, 2, 3, 4].map((k) => partValue(p, k)), ["t1", "t1", undefined, "t2", "t2"]);
    c.set(0, "t9");
    assert.equal(partValue(p, 0), "t1");
  });
});
