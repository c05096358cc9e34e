import { strict as assert } from "node:assert";
import { MemorySession } from "../../src/core/session/memory-session";
import { piFormat } from "../../src/core/formats/pi/format";
import { RowView } from "../../src/explorer/row-view";
import { assistant, entry, user } from "../helpers/session-builder";

/** A pi session as pi writes it after /label: the label entry appended at the leaf, so it is the last entry. */
function labelled() {
  return new MemorySession(piFormat.id, piFormat.index, [
    user("u1", null, "Run the tests"),
    assistant("a1", "u1", "All green."),
    entry("label", "l1", "a1", { targetId: "u1", label: "green" }),
  ], "/s/labelled.jsonl", 1, 3);
}

describe("explorer rows: the default leaf's marker stays after a label (issue 24, item 15)", () => {
  it("with label entries hidden, the marker goes to the nearest shown entry on the leaf's path, as pi's /tree does", () => {
    const view = new RowView(labelled());
    const rows = view.page(0, 100);
    assert.ok(!rows.some((r) => r.id === "l1"), "the label entry is not a row under the default filter");
    assert.deepEqual(rows.filter((r) => r.isDefaultLeaf).map((r) => r.id), ["a1"]);
    assert.equal(rows.find((r) => r.id === "u1")?.label, "green");
  });

  it("with every entry shown, the label entry itself is the leaf", () => {
    const view = new RowView(labelled());
    view.setFilter("all");
    assert.deepEqual(view.page(0, 100).filter((r) => r.isDefaultLeaf).map((r) => r.id), ["l1"]);
  });
});
