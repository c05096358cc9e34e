import { strict as assert } from "node:assert";
import { appendFileSync } from "node:fs";
import { Session } from "../../src/core/formats/pi/pi-session";
import { header, user, writeSession } from "../helpers/session-builder";

// pi's context rules on sessions in memory are in test/formats/pi/; this one is about
// the file: an agent finishing its torn last line, read again by refresh.
describe("problems of a file read again (refresh)", () => {
  it("past 1,000 problems the rest are counted, not kept; a torn last line past them is forgotten when completed", async () => {
    const garbage = Array.from({ length: 2_500 }, (_, k) => `garbage ${k}`);
    const file = writeSession([header(), user("00000001", null, "q"), ...garbage, '{"type":"message","id":"000'], { trailingNewline: false });
    const s = await Session.load(file);
    assert.equal(s.problemCount, 2_501);
    const listed = s.problems;
    assert.equal(listed.length, 1_001);
    assert.equal(listed[0].message.startsWith("line 3: not valid JSON"), true);
    assert.match(listed[1_000].message, /^\.\.\. and 1501 more line\(s\) with problems, not listed \(only the first 1000 are kept\)$/);
    // The agent finishes its torn line: the count drops by that line's problem, an entry comes in.
    appendFileSync(file, `00002","parentId":"00000001","timestamp":"2026-01-01T00:10:00.000Z","message":{"role":"user","content":"r"}}\n`);
    await s.refresh();
    assert.equal(s.problemCount, 2_500);
    assert.deepEqual(s.metas.map((m) => m.id), ["00000001", "00000002"]);
  });
});
