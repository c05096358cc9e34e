import { strict as assert } from "node:assert";
import { seed000Format as f } from "../../../src/core/formats/seed-000/format";
import { RowView } from "../../../src/explorer/row-view";
import { memory, toolCall, toolResult, user } from "./helpers";

describe("seed-000 rows: what each tool call did, titles for a person", () => {
  const s = memory([
    user("u1", null, "Which tests cover the lexer?", { cwd: "/work/lexer-demo" }),
    toolCall("c1", "u1", "grep", { pattern: "lex(", path: "/work/lexer-demo/test/" }),
    toolResult("r1", "c1", "test/lex.test.ts:3"),
    toolCall("c2", "r1", "edit_file", { path: "src/parse.ts", old: "function parse(", new: "/** Parses. */\nfunction parse(" }),
    toolCall("c3", "c2", "run", { cmd: "npm test -- lex" }),
    toolCall("c4", "c3", "run_test", { name: "test_10" }),
  ]);
  const rows = new RowView(s);
  const text = (id: string) => rows.page(0, 100).find((r) => r.id === id)?.preview;

  it("one line per call, paths inside the first line's cwd relative", () => {
    assert.equal(text("c1"), 'Grep "lex(" in test/');
    assert.equal(text("c2"), "Edit src/parse.ts (-0 +1)");
    assert.equal(text("c3"), "$ npm test -- lex");
    assert.equal(text("c4"), "Run test test_10");
  });

  it("labels for a person, the seed's own names second", () => {
    const d = (id: string) => f.describe(s, s.requireIndex(id));
    assert.deepEqual([d("c1").label, d("c1").typeName], ["Tool call", "tool_call"]);
    assert.deepEqual([d("r1").label, d("r1").typeName], ["Tool result", "tool_result"]);
    assert.deepEqual([d("u1").label, d("u1").typeName], ["User", "user"]);
  });
});
