import { strict as assert } from "node:assert";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { header, user } from "../../helpers/session-builder";
import { piSession, texts } from "./memory";

describe("pi's tree: children order, the default leaf, broken links (sessions in memory)", () => {
  it("children with out-of-order timestamps are sorted oldest first", () => {
    const lines = [
      header(),
      user("a0000001", null, "q"),
      { ...user("b0000001", "a0000001", "later"), timestamp: "2030-01-01T00:00:00.000Z" },
      { ...user("c0000001", "a0000001", "earlier"), timestamp: "2020-01-01T00:00:00.000Z" },
    ];
    const s = piSession(lines);
    assert.deepEqual(Array.from(s.tree.children(0)).map((i) => s.metas[i].id), ["c0000001", "b0000001"]);
    // The default leaf is still the last line, not the newest timestamp.
    assert.equal(buildContext(s).leafId, "c0000001");
  });

  it("unknown parents start their own root; a parent cycle is cut and reported", () => {
    const lines = [
      header(),
      user("00000001", null, "q"),
      user("00000002", "deadbeef", "orphan"),
      user("00000003", "00000004", "loop a"),
      user("00000004", "00000003", "loop b"),
    ];
    const s = piSession(lines);
    // The walk from entry 3 meets itself at 3, so 3 loses its parent and becomes a root.
    assert.deepEqual(s.tree.roots().map((i) => s.metas[i].id), ["00000001", "00000002", "00000003"]);
    assert.ok(s.problems.some((p) => p.kind === "unknown-parent" && p.line === 3));
    assert.ok(s.problems.some((p) => p.kind === "cycle"));
    assert.deepEqual(texts(buildContext(s, "00000002")), ["orphan"]);
    // Walking a cut cycle ends.
    assert.ok(buildContext(s, "00000004").parts.length <= 2);
  });
});
