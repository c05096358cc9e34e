import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { jsonLength } from "../../src/core/tokens/json-length";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";

describe("jsonLength (JSON.stringify(x).length without the string)", () => {
  it("agrees with JSON.stringify on escapes, surrogates, numbers and skipped values", () => {
    const cases: unknown[] = [
      "", "plain", 'quote " and \\ backslash', "\n\r\t\b\f", "\u0001\u001f\u007f", "\ud83d\ude00", "\ud800", "x\udc00y", "\ud800\ud800",
      0, -0, 1.5e-7, 1e21, 123456789.125, NaN, Infinity, true, false, null,
      [], [undefined, () => 1, Symbol("s"), 1], {}, { a: undefined, b: () => 2, c: 1, "k\"ey": [null] }, { nested: { deep: ["é", "中文", { x: "\u2028" }] } },
    ];
    for (const c of cases) assert.equal(jsonLength(c), JSON.stringify(c).length, JSON.stringify(c));
  });

  it("agrees on every tool call of the real sessions", function () {
    needFixtures(this);
    let n = 0;
    for (const name of REAL_SESSIONS) {
      for (const line of readFileSync(fixture(`${name}.jsonl`), "utf8").split("\n")) {
        if (!line.includes('"toolCall"')) continue;
        const content = (JSON.parse(line) as { message?: { content?: Array<{ type: string; arguments?: unknown }> } }).message?.content ?? [];
        for (const b of content) {
          if (b.type !== "toolCall") continue;
          assert.equal(jsonLength(b.arguments), JSON.stringify(b.arguments).length);
          n++;
        }
      }
    }
    assert.ok(n > 500, `${n} tool calls checked`);
  });
});
