import { strict as assert } from "node:assert";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../src/core/formats/registry";
import { entryDetails } from "../../src/explorer/entry-details";
import { tempDir } from "../helpers/session-builder";

/** The detail pane for the formats beside pi: tool calls and results as blocks, errors marked, boundaries as compactions. */
describe("explorer details of seed-000 and clawdcode entries", () => {
  async function open(fixture: string) {
    const dir = tempDir();
    const file = join(dir, fixture.split("/").pop() as string);
    copyFileSync(join(process.cwd(), "test", "fixtures", fixture), file);
    const s = await openSession(file);
    return { s, at: (id: string) => entryDetails(s, s.requireIndex(id)) };
  }

  it("seed-000: a tool call is a toolCall block named by its tool, a failed result a toolResult marked as an error, a user message text", async () => {
    const { at } = await open("seed-000/branchy.jsonl");
    const c1 = at("c1");
    assert.equal(c1.kind, "tool-call");
    assert.deepEqual(c1.blocks.map((b) => b.kind), ["toolCall"]);
    assert.equal(c1.blocks[0].title, 'Grep "lex(" in test/');
    assert.match(c1.blocks[0].text ?? "", /"pattern": "lex\("/);
    const r2 = at("r2");
    assert.equal(r2.blocks[0].kind, "toolResult");
    assert.equal(r2.blocks[0].isError, true);
    assert.match(r2.blocks[0].text ?? "", /^Error: npm exited/);
    const r1 = at("r1");
    assert.equal(r1.blocks[0].isError, undefined, "a result that did not fail is not marked");
    const u1 = at("u1");
    assert.deepEqual(u1.blocks.map((b) => [b.kind, b.text]), [["text", "Which tests cover the lexer?"]]);
    assert.ok(u1.meta.some(([k]) => k === "line"));
  });

  it("clawdcode: tool_use and tool_result lines as blocks, the boundary as a compaction, the summary line as a summary", async () => {
    const { s, at } = await open("clawdcode/branches-compaction.jsonl");
    const kinds = new Map<string, string>();
    for (let i = 0; i < s.metas.length; i++) kinds.set(s.metas[i].id, entryDetails(s, i).blocks.map((b) => b.kind).join(","));
    const ids = s.metas.map((m) => m.id);
    const byType = (t: string) => ids.filter((_, i) => s.table.typeAt(i) === t);
    for (const id of byType("tool_use")) assert.equal(kinds.get(id), "toolCall", id);
    for (const id of byType("tool_result")) assert.equal(kinds.get(id), "toolResult", id);
    const boundary = ids.find((_, i) => s.table.typeAt(i) === "system" && s.table.rare.get(i)?.tokensBefore !== undefined) as string;
    const b = at(boundary);
    assert.equal(b.kind, "boundary");
    assert.ok(b.compaction, "a boundary carries what the compaction did");
    assert.match(b.blocks[0].text ?? "", /compact boundary/);
    const summaryLine = ids[ids.indexOf(boundary) + 1];
    assert.equal(at(summaryLine).blocks[0].kind, "summary");
  });
});
