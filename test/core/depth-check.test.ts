import { strict as assert } from "node:assert";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodexIndexHooks } from "../../src/core/formats/codex/index-hooks";
import { IndexBuilder } from "../../src/core/store/index-builder";
import { scanInto } from "../../src/core/store/index-range";
import { MAX_JSON_DEPTH, TOO_DEEP } from "../../src/core/util/json-depth";
import { tempDir } from "../helpers/session-builder";

const T = "2026-11-26T05:00:01.000Z";
const entry = (ordinal: number, value: string) => `{"ordinal":${ordinal},"timestamp":"${T}","type":"response_item","payload":{"type":"function_call_output","output":${value}}}`;
const nest = (n: number) => "[".repeat(n) + "]".repeat(n);

/**
 * The depth check before a parse is left out for lines too short to be valid and too
 * deep; such a line that fails to parse is still reported as too deep, and every other
 * line exactly as before, short or long.
 */
describe("the depth check of a full read: lines of every length reported as too deep or not as before", () => {
  it("too deep when valid and long, or short and unclosed; at the limit an entry; a short bad line not valid JSON", async () => {
    const lines = [
      JSON.stringify({ ordinal: 0, timestamp: T, type: "session_meta", payload: { id: "01a2166c-0000-7000-8000-0000000000dd", cwd: "/w" } }),
      entry(1, nest(MAX_JSON_DEPTH - 2)), // the line's own object and payload make 2 levels: at the limit
      entry(2, nest(MAX_JSON_DEPTH - 1)), // one level past it, valid JSON: too deep
      "[".repeat(MAX_JSON_DEPTH + 1), // short, unclosed, past the limit: too deep
      `{"a":${"[".repeat(MAX_JSON_DEPTH + 40)}}`, // short, bad brackets, past the limit: too deep
      `{"a":${"[".repeat(10)}}`, // short, bad, shallow: not valid JSON
      entry(6, `"${"x".repeat(3000)}"`), // long, shallow
    ];
    const path = join(tempDir(), "rollout-2026-11-26T05-00-00-01a2166c-0000-7000-8000-0000000000dd.jsonl");
    writeFileSync(path, `${lines.join("\n")}\n`);
    const b = new IndexBuilder(path, new CodexIndexHooks());
    await scanInto(path, b, { fromOffset: 0, toOffset: statSync(path).size });
    assert.deepEqual(b.metas.map((m) => m.id), ["o1", "o6"]);
    const problems = b.problems.map((p) => `${p.line} ${p.message.includes(TOO_DEEP) ? "deep" : p.message.includes("not valid JSON") ? "bad" : p.message}`);
    assert.deepEqual(problems, ["3 deep", "4 deep", "5 deep", "6 bad"]);
    assert.ok(lines[3].length < 2 * MAX_JSON_DEPTH && lines[4].length < 2 * (MAX_JSON_DEPTH + 41), "the unclosed lines are short ones");
  });
});
