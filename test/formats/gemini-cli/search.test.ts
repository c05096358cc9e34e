import { strict as assert } from "node:assert";
import { join } from "node:path";
import { searchSessions } from "../../../src/core/search/search-sessions";
import type { SessionHits } from "../../../src/core/search/search-types";

const FIX = join(process.cwd(), "test", "fixtures", "gemini-cli");

async function hits(pattern: string, home: string): Promise<SessionHits[]> {
  const out: SessionHits[] = [];
  for await (const s of searchSessions({ pattern, dirs: { "gemini-cli": home }, only: ["gemini-cli"], env: {} })) out.push(s);
  return out;
}

describe("Gemini CLI search: its store found as the listing finds it, messages and sub-agents searched", () => {
  it("finds prompts, tool calls, results and the sub-agent's lines (recorded sub-agent case)", async () => {
    const res = await hits("notes", join(FIX, "subagent"));
    assert.equal(res.length, 1);
    const kinds = res[0].hits.map((h) => h.kind);
    for (const k of ["user", "tool-call", "tool-result"] as const) assert.ok(kinds.includes(k), `${k} in ${kinds.join(", ")}`);
    assert.ok(res[0].hits.some((h) => /sub-agent/.test(JSON.stringify(h))), "a hit in the sub-agent's transcript");
  });

  it("a compression's state snapshot, held only by a checkpoint, is found as a summary; the stub file is not searched", async () => {
    const res = await hits("state_snapshot", join(FIX, "compression"));
    assert.equal(res.length, 1);
    assert.deepEqual(res[0].hits.map((h) => h.kind), ["summary"]);
  });

  it("the abandoned branch of a rewind is searched too (recorded rewind)", async () => {
    const res = await hits("say beta", join(FIX, "rewind"));
    assert.deepEqual(res[0]?.hits.map((h) => h.entryId), ["ea1b0aac-727f-4b17-9e09-3fd2d3a10036", "de8fefd3-491a-42e2-a938-5760882d25f0"]);
  });
});
