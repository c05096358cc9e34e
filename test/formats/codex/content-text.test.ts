import { strict as assert } from "node:assert";
import { contentText, contentTextHead, contentTextLength } from "../../../src/core/formats/codex/lines";

/** A message content of every shape a line could hold (texts of lengths around the cut, items without text, no array at all). */
function contents(seed: number): unknown[] {
  let x = seed;
  const rnd = (n: number) => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x % n;
  };
  const text = () => ["", "a", "😀", "x".repeat(298), "y".repeat(299), "z".repeat(300), "w".repeat(301), `${"v".repeat(299)}😀`, "line\nbreak"][rnd(9)];
  const item = () => [{ type: "input_text", text: text() }, { type: "output_text", text: text(), extra: 1 }, { type: "input_image" }, { text: 5 }, null, "bare", [text()], { text: text() }][rnd(8)];
  const out: unknown[] = ["a string content", "", 7, null, undefined, {}, []];
  for (let k = 0; k < 400; k++) out.push(Array.from({ length: rnd(6) }, item));
  return out;
}

describe("Codex message texts read for the index without joining them", () => {
  it("contentTextLength and contentTextHead give contentText's length and head, for any content and cut", () => {
    for (const c of contents(42)) {
      const full = contentText(c);
      assert.equal(contentTextLength(c), full.length, JSON.stringify(c));
      for (const max of [0, 1, 2, 299, 300, 301, 600]) assert.equal(contentTextHead(c, max), full.slice(0, max), `${max}: ${JSON.stringify(c)}`);
    }
  });
});
