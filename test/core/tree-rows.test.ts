import { strict as assert } from "node:assert";
import { Session } from "../../src/core/formats/pi/pi-session";
import { MAX_DRAWN_LEVELS, treeRows } from "../../src/core/formats/tree-rows";
import { header, type Raw, user, writeSession } from "../helpers/session-builder";

describe("tree rows of deeply nested branches", () => {
  it("draws at most 16 levels: deeper rows show the innermost ones after a ⋯ column, and keep their depth", async () => {
    // c0 - c1 - ... - c39, each ci (i >= 1) with an earlier sibling side branch si.
    const lines: Raw[] = [header(), user("c0", null, "start")];
    const N = 40;
    for (let i = 1; i < N; i++) {
      lines.push(user(`s${i}`, `c${i - 1}`, `side ${i}`));
      lines.push(user(`c${i}`, `c${i - 1}`, `chain ${i}`));
    }
    const s = await Session.load(writeSession(lines));
    const rows = treeRows(s);
    const byId = new Map(rows.map((r) => [s.metas[r.index].id, r]));
    assert.equal(rows.length, 2 * N - 1);
    for (let i = 1; i < N; i++) {
      // Undrawn, ci's prefix would be i-1 empty levels and a last-child connector; si's the same with ├─.
      const full = { [`c${i}`]: `${"   ".repeat(i - 1)}└─ `, [`s${i}`]: `${"   ".repeat(i - 1)}├─ ` };
      for (const [id, want] of Object.entries(full)) {
        const r = byId.get(id);
        assert.ok(r, id);
        assert.equal(r.depth, i, `${id} depth`);
        if (i <= MAX_DRAWN_LEVELS) assert.equal(r.prefix, want, `${id} prefix`);
        else assert.equal(r.prefix, `⋯  ${want.slice(want.length - (MAX_DRAWN_LEVELS - 1) * 3)}`, `${id} prefix`);
        assert.ok(r.prefix.length <= MAX_DRAWN_LEVELS * 3);
      }
    }
    assert.equal(byId.get("c0")?.depth, 0);
    assert.equal(byId.get("c0")?.prefix, "");
  });
});
