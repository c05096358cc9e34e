import { strict as assert } from "node:assert";
import { join } from "node:path";
import { searchSessions } from "../../../src/core/search/search-sessions";
import type { SessionHits } from "../../../src/core/search/search-types";
import { tempDir } from "../../helpers/session-builder";
import { asstMsg, OcDb, text, tool, userMsg } from "./oc-db";

async function store(): Promise<string> {
  const data = tempDir();
  await new OcDb()
    .session({ id: "ses_p", directory: "/w/one", title: "parent" })
    .session({ id: "ses_c", parentId: "ses_p", title: "child (@general subagent)" })
    .session({ id: "ses_q", directory: "/w/two", title: "other" })
    .message("ses_p", "msg_01", userMsg("a"), [["prt_01", text("find the needle please")]])
    .message("ses_p", "msg_02", asstMsg("msg_01"), [["prt_02", tool("call_1", "grep", { pattern: "needle" }, { status: "completed", output: "a.ts:1 needle" })]])
    .message("ses_c", "msg_03", userMsg("b"), [["prt_03", text("child looks for the needle")]])
    .message("ses_q", "msg_04", userMsg("c"), [["prt_04", text("nothing here")]])
    .write(join(data, "opencode.db"));
  return data;
}

async function all(s: AsyncIterable<SessionHits>): Promise<SessionHits[]> {
  const out: SessionHits[] = [];
  for await (const h of s) out.push(h);
  return out;
}

describe("ase search over OpenCode's database: rows searched by their visible text, sub-agents with their parent", () => {
  it("finds a prompt, a tool call's arguments and output, and the child session's text under its parent", async () => {
    const data = await store();
    const res = await all(searchSessions({ pattern: "needle", dirs: { opencode: data }, only: ["opencode"] }));
    assert.equal(res.length, 1);
    assert.equal(res[0].path, `${join(data, "opencode.db")}#ses_p`);
    assert.equal(res[0].cwd, "/w/one");
    assert.equal(res[0].title, "parent");
    assert.deepEqual(
      res[0].hits.map((h) => [h.entryId, h.kind, h.subagent?.agentId]),
      [
        ["prt_01", "user", undefined],
        ["prt_02", "tool-call", undefined],
        ["prt_02:result", "tool-result", undefined],
        ["prt_03", "user", "ses_c"],
      ],
    );
  });

  it("kinds, project and limit filter as for files; a session given by its address is searched alone", async () => {
    const data = await store();
    const db = join(data, "opencode.db");
    const results = await all(searchSessions({ pattern: "needle", dirs: { opencode: data }, only: ["opencode"], kinds: ["tool-result"] }));
    assert.deepEqual(results.flatMap((r) => r.hits.map((h) => h.entryId)), ["prt_02:result"]);
    assert.equal((await all(searchSessions({ pattern: "needle", dirs: { opencode: data }, only: ["opencode"], project: "/w/two" }))).length, 0);
    assert.equal((await all(searchSessions({ pattern: "needle", dirs: { opencode: data }, only: ["opencode"], limit: 2 }))).flatMap((r) => r.hits).length, 2);
    const one = await all(searchSessions({ pattern: "needle", files: [`${db}#ses_c`] }));
    assert.deepEqual(one.map((r) => [r.path, r.hits.length]), [[`${db}#ses_c`, 1]]);
  });
});
