import { strict as assert } from "node:assert";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { searchSessions, type SearchOptions } from "../../src/core/search/search-sessions";
import type { SessionHits } from "../../src/core/search/search-types";
import * as cc from "../formats/claude-code/lines";
import { tempDir } from "../helpers/session-builder";

async function collect(opts: SearchOptions): Promise<SessionHits[]> {
  const out: SessionHits[] = [];
  for await (const s of searchSessions(opts)) out.push(s);
  return out;
}

/** A Claude Code store: a 2.1.x session with a nested sub-agent, a 2.0.x session with one beside it. */
function store(): { root: string; newer: string; older: string; nested: string; beside: string } {
  const root = tempDir();
  const proj = join(root, "projects", "-home-dev-demo");
  mkdirSync(join(proj, cc.SESSION, "subagents", "workflows"), { recursive: true });
  const OLD = "cc000000-0000-4000-8000-000000000002";
  const newer = join(proj, `${cc.SESSION}.jsonl`);
  // Metadata lines first: the session's id is past the first lines the format is told by.
  const meta = Array.from({ length: 6 }, (_, k) => ({ type: "file-history-snapshot", messageId: `m${k}`, snapshot: {}, isSnapshotUpdate: false }));
  writeFileSync(newer, cc.jsonl([...meta, cc.user("n1", null, "Research the zebra libraries"), cc.fragment("n2", "n1", "msg_1", cc.toolUse("tu1", "Agent", { description: "Compare", prompt: "compare" }))]));
  const nested = join(proj, cc.SESSION, "subagents", "workflows", "agent-a1.jsonl");
  writeFileSync(nested, cc.jsonl([cc.sidechain(cc.user("s1", null, "compare two zebra crates", { agentId: "a1" })), cc.sidechain(cc.fragment("s2", "s1", "msg_2", cc.text("The striped zebra one is faster.")))]));
  writeFileSync(nested.replace(/\.jsonl$/, ".meta.json"), JSON.stringify({ agentType: "general-purpose", description: "Compare the libraries" }));
  const older = join(proj, `${OLD}.jsonl`);
  writeFileSync(older, cc.jsonl([{ ...cc.user("o1", null, "An older session"), sessionId: OLD, version: "2.0.20" }]));
  const beside = join(proj, "agent-b1.jsonl");
  writeFileSync(beside, cc.jsonl([{ ...cc.sidechain(cc.user("b1", null, "find the zebra tests")), sessionId: OLD, agentId: "b1", version: "2.0.20" }]));
  for (const [f, day] of [[newer, 5], [nested, 5], [older, 3], [beside, 3]] as const) utimesSync(f, new Date(Date.UTC(2026, 2, day)), new Date(Date.UTC(2026, 2, day)));
  return { root, newer, older, nested, beside };
}

function hitsOf(res: SessionHits[]): string[] {
  return res.flatMap((s) => s.hits.map((h) => `${s.path.split("/").pop()} ${h.entryId} line ${h.line}${h.subagent ? ` sub-agent ${h.subagent.agentId} ${h.subagent.description ?? "-"} ${h.subagent.path.split("/").pop()}` : ""}`));
}

describe("search: sub-agent transcripts are searched as part of their session", () => {
  it("both layouts (<id>/subagents/** and agent-*.jsonl beside); each hit names its sub-agent and the file its line is in", async () => {
    const st = store();
    for (const regex of [false, true]) {
      const res = await collect({ pattern: "zebra", regex, dirs: { "claude-code": st.root }, only: ["claude-code"], env: {} });
      assert.deepEqual(res.map((s) => s.path), [st.newer, st.older], "sub-agent files are no sessions of their own");
      assert.deepEqual(hitsOf(res), [
        `${cc.SESSION}.jsonl n1 line 7`,
        `${cc.SESSION}.jsonl s1 line 1 sub-agent a1 Compare the libraries agent-a1.jsonl`,
        `${cc.SESSION}.jsonl s2 line 2 sub-agent a1 Compare the libraries agent-a1.jsonl`,
        "cc000000-0000-4000-8000-000000000002.jsonl b1 line 1 sub-agent b1 - agent-b1.jsonl",
      ]);
      assert.equal(res[1].hits[0].subagent?.path, st.beside);
    }
  });

  it("a session given by path brings its sub-agents; the limit counts their hits", async () => {
    const st = store();
    const one = await collect({ pattern: "zebra", files: [st.older] });
    assert.deepEqual(hitsOf(one), ["cc000000-0000-4000-8000-000000000002.jsonl b1 line 1 sub-agent b1 - agent-b1.jsonl"]);
    const limited = await collect({ pattern: "zebra", files: [st.newer], limit: 2 });
    assert.equal(limited.flatMap((s) => s.hits).length, 2);
  });

  it("a sub-agent file also given by path is read once", async () => {
    const st = store();
    const s = searchSessions({ pattern: "zebra", files: [st.newer, st.nested] });
    const res: SessionHits[] = [];
    for await (const x of s) res.push(x);
    assert.equal(res.flatMap((x) => x.hits).length, 3);
    assert.equal(s.scanned.files, 2);
  });
});
