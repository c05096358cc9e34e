import { strict as assert } from "node:assert";
import { claudeCodeIndexHooks } from "../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../src/core/session/memory-session";
import { RowView } from "../../src/explorer/row-view";
import { fragment, text, user } from "../formats/claude-code/lines";

describe("explorer rows: a broken parent link is marked, the part after it reachable", () => {
  it("the line naming a parent that is not in the file is a root row marked with that parent; the rows before and after stay", () => {
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, [
      user("u1", null, "first"),
      fragment("a1", "u1", "msg_1", text("one")),
      user("u2", "never-written", "after the break"),
      fragment("a2", "u2", "msg_2", text("two")),
    ]);
    const view = new RowView(s);
    const rows = view.page(0, 100);
    assert.deepEqual(rows.map((r) => r.id).sort(), ["a1", "a2", "u1", "u2"]);
    const marked = rows.filter((r) => r.brokenParent !== undefined).map((r) => [r.id, r.brokenParent]);
    assert.deepEqual(marked, [["u2", "never-written"]]);
    assert.ok(rows.some((r) => r.id === "a2"), "the cut-off part is reachable");
    assert.equal(rows.find((r) => r.id === "u1")?.brokenParent, undefined, "a true root is not marked");
  });
});
