import { strict as assert } from "node:assert";
import { KnownNames } from "../../src/core/store/known-names";

describe("KnownNames (a walk's and pi's tool calls' names found by their bytes)", () => {
  const names = new KnownNames(["type", "id", "name", "text", "path", "oldText", "newText"]);
  const at = (s: string, pad = 3) => {
    const buf = Buffer.from(`${"x".repeat(pad)}${s}${"y".repeat(pad)}`, "latin1");
    return names.nameIn(buf, pad, pad + Buffer.byteLength(s, "latin1"));
  };

  it("finds each name wherever it lies in a buffer, and only a whole name", () => {
    for (const n of names.names) for (const pad of [0, 1, 5]) assert.equal(at(n, pad), n);
    for (const other of ["typ", "types", "Type", "nama", "newTexT", "", "i", "oldTexts", "pathx"]) assert.equal(at(other), undefined, other);
    assert.equal(names.indexIn(Buffer.from("path"), 0, 4), 4);
    assert.equal(names.indexIn(Buffer.from("path"), 3, 1), -1, "an empty or reversed range");
  });

  it("refuses a name that is not printable ASCII (a line's bytes are UTF-8)", () => {
    assert.throws(() => new KnownNames(["naïve"]), /not printable ASCII/);
    assert.throws(() => new KnownNames([""]), /not printable ASCII/);
  });
});
