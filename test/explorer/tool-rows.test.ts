import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../src/core/formats/registry";
import { ExplorerController } from "../../src/explorer/controller";
import { EDIT_LIMIT, entryDetails } from "../../src/explorer/entry-details";
import { fragment, jsonl, text, toolResult, toolUse, user } from "../formats/claude-code/lines";
import { assistant, header, toolResult as piResult, user as piUser, tempDir, writeSession } from "../helpers/session-builder";

const CWD = "/home/dev/demo";
let rid = 0;
const next = () => ({ requestId: ++rid });

/** A Claude Code transcript: one response with two calls (written as three lines), then an edit. */
async function open(edit: { old_string: string; new_string: string } = { old_string: "a,\nb", new_string: "a;\nb\nc" }) {
  const file = join(tempDir(), "cc000000-0000-4000-8000-000000000000.jsonl");
  writeFileSync(
    file,
    jsonl([
      user("u1", null, "read both"),
      fragment("a1", "u1", "msg_1", text("Reading both.")),
      fragment("a2", "a1", "msg_1", toolUse("tu_1", "Read", { file_path: `${CWD}/a.ts` })),
      fragment("a3", "a2", "msg_1", toolUse("tu_2", "Read", { file_path: `${CWD}/b.ts` })),
      toolResult("r1", "a3", "tu_1", "A"),
      toolResult("r2", "r1", "tu_2", "B"),
      fragment("e1", "r2", "msg_2", toolUse("tu_3", "Edit", { file_path: `${CWD}/src/csv.js`, ...edit })),
    ]),
  );
  const s = await openSession(file);
  return new ExplorerController(s, { trusted: () => true });
}

describe("explorer rows and details of tool calls", () => {
  it("a response with two calls: its row names both, its title is for a person", async () => {
    const c = await open();
    c.init();
    const rows = c.answer({ type: "rows", ...next(), start: 0, count: 100 }).rows;
    const a3 = rows.find((r) => r.id === "a3");
    assert.equal(a3?.preview, "Reading both. -> Read a.ts, Read b.ts");
    assert.equal(a3?.typeLabel, "Tool calls");
    assert.equal(a3?.typeName, "tool_use (response of 3 lines)");
    assert.equal(rows.find((r) => r.id === "e1")?.preview, "Edit src/csv.js (-1 +2)");
  });

  it("details: call blocks titled by what they do, an edit's old and new text for the diff", async () => {
    const c = await open();
    const a3 = c.answer({ type: "details", ...next(), id: "a3" });
    assert.equal(a3.typeLabel, "Tool calls");
    assert.deepEqual(a3.blocks.filter((b) => b.kind === "toolCall").map((b) => b.title), ["Read a.ts", "Read b.ts"]);
    assert.equal(a3.blocks.find((b) => b.edits), undefined, "a read has nothing to diff");
    const e1 = c.answer({ type: "details", ...next(), id: "e1" });
    assert.equal(e1.blocks[0].title, "Edit src/csv.js (-1 +2)");
    assert.deepEqual(e1.blocks[0].edits, [{ path: "src/csv.js", oldText: "a,\nb", newText: "a;\nb\nc" }]);
  });

  it("details of a result: titled by the call it answers, not by that call's id (Claude Code, pi, seed-000)", async () => {
    const c = await open();
    assert.equal(c.answer({ type: "details", ...next(), id: "r1" }).blocks[0].title, "Read a.ts");
    assert.equal(c.answer({ type: "details", ...next(), id: "r2" }).blocks[0].title, "Read b.ts");
    const file = writeSession([
      header({ cwd: CWD }),
      piUser("u1", null, "read it"),
      assistant("a1", "u1", "", { toolCalls: [{ id: "call_1", name: "read", arguments: { path: `${CWD}/README.md` } }] }),
      piResult("t1", "a1", "call_1", "read", "# Readme"),
    ]);
    const pi = new ExplorerController(await openSession(file), { trusted: () => true });
    assert.equal(pi.answer({ type: "details", ...next(), id: "t1" }).blocks[0].title, "Read README.md");
    const seed = await openSession(join(process.cwd(), "test", "fixtures", "seed-000", "branchy.jsonl"));
    assert.equal(entryDetails(seed, seed.requireIndex("r1")).blocks[0].title, 'Grep "lex(" in test/');
  });

  it("a result whose call is not above it keeps its id as title", async () => {
    const file = join(tempDir(), "cc000000-0000-4000-8000-000000000001.jsonl");
    writeFileSync(file, jsonl([user("u1", null, "hi"), toolResult("r1", "u1", "tu_gone", "orphan")]));
    const s = await openSession(file);
    assert.equal(entryDetails(s, s.requireIndex("r1")).blocks[0].title, "tu_gone");
  });

  it("a huge edit's texts are cut for display and flagged; the whole block on request", async () => {
    const big = "x\n".repeat(EDIT_LIMIT);
    const c = await open({ old_string: big, new_string: "y" });
    const cut = c.answer({ type: "details", ...next(), id: "e1" }).blocks[0].edits?.[0];
    assert.equal(cut?.oldText.length, EDIT_LIMIT);
    assert.equal(cut?.cut, true);
    const full = c.answer({ type: "details", ...next(), id: "e1", fullBlock: 0 }).blocks[0].edits?.[0];
    assert.equal(full?.oldText, big);
    assert.equal(full?.cut, undefined);
  });
});
