import { strict as assert } from "node:assert";
import { Session } from "../../src/core/formats/pi/pi-session";
import { entryDetails } from "../../src/explorer/entry-details";
import { assistant, entry, header, user, writeSession } from "../helpers/session-builder";

/** Issue 24, "the summary printed twice in compaction details": the pane shows a compaction's summary once. */
describe("compaction details show the summary once", () => {
  const SUMMARY = "## Goal\nShorten the parser.\n## Done\nRead a.ts";

  it("pi: the compaction's summary is in its compaction facts and not again as a block", async () => {
    const s = await Session.load(
      writeSession([
        header(),
        user("u1", null, "hello"),
        assistant("a1", "u1", "hi"),
        entry("compaction", "c1", "a1", { summary: SUMMARY, firstKeptEntryId: "u1", tokensBefore: 9000 }),
        user("u2", "c1", "go on"),
      ]),
    );
    const d = entryDetails(s, s.requireIndex("c1"));
    const shown = [d.compaction?.summary ?? "", ...d.blocks.map((b) => b.text ?? "")].filter((t) => t.includes("Shorten the parser"));
    assert.equal(shown.length, 1, `the summary is shown ${shown.length} times: ${JSON.stringify(d.blocks.map((b) => b.kind))}`);
    assert.equal(d.compaction?.summary, SUMMARY);
  });

  it("pi: a branch summary (no compaction facts) keeps its summary block", async () => {
    const s = await Session.load(
      writeSession([header(), user("u1", null, "hello"), assistant("a1", "u1", "hi"), entry("branch_summary", "b1", "a1", { summary: SUMMARY, fromId: "a1" })]),
    );
    const d = entryDetails(s, s.requireIndex("b1"));
    assert.equal(d.compaction, undefined);
    assert.deepEqual(d.blocks.map((b) => [b.kind, b.text]), [["summary", SUMMARY]]);
  });
});
