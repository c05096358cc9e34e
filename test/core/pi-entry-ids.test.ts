import { strict as assert } from "node:assert";
import { EntryIds, hexIdAt, keyOf } from "../../src/core/formats/pi/entry-ids";

describe("pi's entry ids as the history's quick read keeps them (EntryIds)", () => {
  it("8 lowercase hex digits are a number, anything else stays a string", () => {
    assert.equal(keyOf("00000000"), 0);
    assert.equal(keyOf("ffffffff"), 0xffffffff);
    assert.equal(keyOf("0badcafe"), 0x0badcafe);
    for (const id of ["ABCDEF12", "abcdef1", "abcdef123", "abcdefg1", "u1", "", "0x123456"]) assert.equal(keyOf(id), id);
    const buf = Buffer.from('"dc57c454","DC57C454"');
    assert.equal(hexIdAt(buf, 1, 9), 0xdc57c454);
    assert.equal(hexIdAt(buf, 12, 20), -1);
    assert.equal(hexIdAt(buf, 1, 8), -1);
  });

  it("finds every id it was given, refuses one given twice, and grows past its first table", () => {
    const ids = new EntryIds();
    const n = 50_000;
    // Numbers spread over the whole range and strings beside them.
    const key = (k: number) => (k % 5 === 0 ? `id-${k}` : (Math.imul(k, 2654435761) >>> 0));
    for (let k = 0; k < n; k++) assert.equal(ids.add(key(k), k), true, `add ${k}`);
    for (let k = 0; k < n; k++) assert.equal(ids.get(key(k)), k, `get ${k}`);
    assert.equal(ids.add(key(77), 1), false);
    assert.equal(ids.add(key(100), 1), false);
    assert.equal(ids.get(key(77)), 77);
    assert.equal(ids.get(123_456_789_0), undefined);
    assert.equal(ids.get("id-3"), undefined);
    assert.equal(ids.add(0, 9), true);
    assert.equal(ids.get(0), 9);
  });
});
