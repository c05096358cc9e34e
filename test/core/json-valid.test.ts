import { strict as assert } from "node:assert";
import { isValidJson } from "../../src/core/store/json-valid";
import { mutated, rng } from "../helpers/json-mutations";

/** What JSON.parse says of the bytes, decoded as a line is decoded for a whole read. */
function parses(b: Buffer): boolean {
  try {
    JSON.parse(b.toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

const SAMPLES = [
  '{"type":"message","id":"a","parentId":null,"message":{"role":"toolResult","content":[{"type":"text","text":"x\\n\\"y\\" \\u00e9"}]}}',
  '[1,-2.5e+3,0,true,false,null,"",{},[],{"a":[{"b":"\\\\"}]}]',
  ' { "a" : [ 1 , 2 ] , "b" : { } } ',
  '"\\/\\b\\f\\n\\r\\t"',
];
const NOISE = ['{', '}', '[', ']', ',', ':', '"', "\\", " ", "\t", "0", "1", "-", "+", ".", "e", "E", "t", "n", "u", "x", "a", "é"];

describe("JSON checked on its bytes (isValidJson)", () => {
  it("agrees with JSON.parse on every sample and on thousands of mutations of them", () => {
    const next = rng(31);
    let invalid = 0;
    for (const sample of SAMPLES) {
      assert.equal(isValidJson(Buffer.from(sample), 0, Buffer.byteLength(sample), 512), true, sample);
      for (let k = 0; k < 4000; k++) {
        const s = mutated(sample, NOISE, next);
        const b = Buffer.from(s);
        const want = parses(b);
        if (!want) invalid++;
        assert.equal(isValidJson(b, 0, b.length, 512), want, s);
      }
    }
    assert.ok(invalid > 1000, `only ${invalid} invalid mutations`);
  });

  it("reads only its range of a larger buffer, and refuses what nests deeper than the limit", () => {
    const b = Buffer.from('xx{"a":"b"}{"c"');
    assert.equal(isValidJson(b, 2, 11, 512), true);
    assert.equal(isValidJson(b, 2, 13, 512), false);
    assert.equal(isValidJson(Buffer.from('{"a":"b\\'), 0, 8, 512), false);
    assert.equal(isValidJson(Buffer.from('"\\u00e'), 0, 6, 512), false);
    assert.equal(isValidJson(Buffer.from("[[[]]]"), 0, 6, 3), true);
    assert.equal(isValidJson(Buffer.from("[[[[]]]]"), 0, 8, 3), false);
  });

  it("refuses a line whose own object, or an object that is a member's value, repeats a key or escapes one (JSON keeps the last, a skim reads the first)", () => {
    const valid = (s: string) => isValidJson(Buffer.from(s), 0, Buffer.byteLength(s), 512, { ownKeysOnce: true });
    assert.equal(valid('{"type":"a","payload":{},"type":"b"}'), false);
    assert.equal(valid('{"type":"a", "type" :"b"}'), false);
    assert.equal(valid('{"t\\u0079pe":"a"}'), false);
    assert.equal(valid('{"ty":1,"type":2,"typ":3}'), true, "keys that share a start are not repeats");
    assert.equal(valid('{"a":{"x":1,"x":2}}'), false, "a member's object (a skim reads payload.type)");
    assert.equal(valid('{"a":{"x":1,"\\u0078":2}}'), false);
    assert.equal(valid('{"a":{"x":1},"b":{"x":2}}'), true, "keys of two objects are not repeats");
    assert.equal(valid('{"a":[{"y":1,"y":2}],"b":{"c":{"z":1,"z":2}}}'), true, "only the line's members and their members count");
    assert.equal(valid('{"a":1}'), true);
    assert.equal(valid('[{"a":1,"a":2}]'), true, "an array line has no members of its own");
    assert.equal(isValidJson(Buffer.from('{"a":1,"a":2}'), 0, 13, 512), true, "without the option: JSON.parse's grammar alone");
  });
});
