import { strict as assert } from "node:assert";
import { Session } from "../../src/core/formats/pi/pi-session";
import { ExplorerController } from "../../src/explorer/controller";
import { isWebviewToHost } from "../../src/protocol";
import { assistant, header, user, writeSession } from "../helpers/session-builder";

/** The growth chart follows the tree (issue 24, item 12): the host says where a selected row sits on the chart's path. */
describe("explorer: timelinePosition places a tree row on the chart's branch", () => {
  it("answers the path position the timeline's index counts, -1 for an entry on another branch; the guard checks its fields", async () => {
    const s = await Session.load(writeSession([header(), user("u1", null, "q"), assistant("a1", "u1", "x"), user("u2", "a1", "left"), assistant("a2", "u2", "l"), user("u3", "a1", "right"), assistant("a3", "u3", "r")]));
    const c = new ExplorerController(s, { trusted: () => true });
    const t = c.answer({ type: "timeline", requestId: 1, leafId: "a2" });
    assert.deepEqual(c.answer({ type: "timelinePosition", requestId: 2, leafId: "a2", id: "a2" }), { position: t.points[1].index });
    assert.deepEqual(c.answer({ type: "timelinePosition", requestId: 3, leafId: "a2", id: "u2" }), { position: t.points[1].index - 1 });
    assert.deepEqual(c.answer({ type: "timelinePosition", requestId: 4, leafId: "a2", id: "a3" }), { position: -1 });
    assert.throws(() => c.answer({ type: "timelinePosition", requestId: 5, leafId: "nope", id: "a1" }), /no entry with id "nope"/);
    assert.equal(isWebviewToHost({ type: "timelinePosition", requestId: 1, leafId: "a2", id: "u2" }), true);
    assert.equal(isWebviewToHost({ type: "timelinePosition", requestId: 1, leafId: "a2" }), false);
    assert.equal(isWebviewToHost({ type: "timelinePosition", requestId: 1, leafId: "a2", id: "x".repeat(201) }), false);
    c.dispose();
  });
});
