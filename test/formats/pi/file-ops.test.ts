import { strict as assert } from "node:assert";
import { fileActivity, piFileLists } from "../../../src/core/formats/pi/file-ops";
import { toolsSession as sample } from "./memory";

describe("file operations", () => {
  it("read/written/edited counts in first-touched order, cumulative through summary details", () => {
    const s = sample();
    const acts = fileActivity(s, s.tree.path(s.tree.defaultLeaf));
    assert.deepEqual(acts.map((a) => a.path), ["old.md", "old.ts", "a.ts", "b.ts"]);
    const a = acts.find((x) => x.path === "a.ts");
    assert.deepEqual([a?.read, a?.written, a?.edited, a?.firstEntryId], [2, 1, 0, "00000002"]);
    assert.deepEqual(piFileLists(acts), { readFiles: ["old.md"], modifiedFiles: ["a.ts", "b.ts", "old.ts"] });
    // A subtree below the first tool calls sees only the write/read of a.ts.
    const sub = fileActivity(s, s.tree.subtree(s.requireIndex("00000005")));
    assert.deepEqual(sub.map((x) => [x.path, x.read, x.written]), [["a.ts", 1, 1]]);
  });
});
