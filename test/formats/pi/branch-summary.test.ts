import { strict as assert } from "node:assert";
import { planBranch } from "../../../src/core/formats/pi/compaction/branch-summary";
import { branchedLines } from "../../compaction/helpers";
import { piSession } from "./memory";

// What pi's /tree would summarize when the leaf moves back (nothing written); writing the
// branch summary is tested in test/compaction/branch.test.ts.
describe("pi's branch summary plan", () => {
  it("plan: entries from the old leaf back to the common ancestor, files, budget newest first", () => {
    const session = piSession(branchedLines());
    const plan = planBranch(session, { targetId: "a1" });
    assert.equal(plan.fromLeafId, "a3");
    assert.equal(plan.commonAncestorId, "a1");
    assert.deepEqual(plan.branchEntryIds, ["u2", "a2", "t2", "a3"]);
    assert.deepEqual(plan.messages.map((m) => m.entryId), ["u2", "a2", "a3"], "tool results are left out");
    assert.deepEqual(plan.modifiedFiles, ["/src/x.ts"]);
    const tight = planBranch(session, { targetId: "a1", contextWindow: 16384 + 5, reserveTokens: 16384 });
    assert.deepEqual(tight.messages.map((m) => m.entryId), ["a3"]);
    assert.equal(tight.leftOut, 2);
  });
});
