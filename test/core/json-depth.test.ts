import { strict as assert } from "node:assert";
import { jsonDeeperThan, jsonTextDeeperThan, MAX_JSON_DEPTH } from "../../src/core/util/json-depth";

function both(text: string, limit?: number): boolean {
  const buf = Buffer.from(`xx${text}yy`);
  const a = jsonDeeperThan(buf, 2, buf.length - 2, limit);
  assert.equal(jsonTextDeeperThan(text, limit), a, "the Buffer and the string scans agree");
  return a;
}

describe("jsonDeeperThan: nesting counted outside strings only", () => {
  it("counts arrays and objects, stops at the limit", () => {
    assert.equal(both("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH)), false);
    assert.equal(both("[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1)), true);
    assert.equal(both('{"a":{"a":{"a":[1]}}}', 3), true);
    assert.equal(both('{"a":{"a":{"a":1}}}', 3), false);
    // Siblings do not add up: depth comes back down.
    assert.equal(both(`[${"[],".repeat(5000)}[]]`, 3), false);
  });

  it("brackets inside strings, escaped quotes and escaped backslashes are not nesting", () => {
    assert.equal(both(JSON.stringify({ t: "[".repeat(5000) }), 3), false);
    assert.equal(both(JSON.stringify({ t: `a"b${"{".repeat(100)}` }), 3), false);
    // A string ending in a backslash: its closing quote is not escaped, the brackets after it count.
    assert.equal(both(`["a\\\\",[[[1]]]]`, 3), true);
    assert.equal(both(`["a\\\\\\"[[[[",1]`, 3), false);
  });

  it("bytes of other scripts are never brackets", () => {
    assert.equal(both(JSON.stringify({ t: "é€😀[" }), 1), false);
  });
});
