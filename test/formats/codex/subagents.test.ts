import { strict as assert } from "node:assert";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { listAllSessions } from "../../../src/core/formats/list-all";
import { openSession } from "../../../src/core/formats/registry";
import { ExplorerController } from "../../../src/explorer/controller";
import type { Row } from "../../../src/protocol";
import { meta, msg, tempHome, writeRollout } from "./helpers";

/** Recorded with codex-cli 0.169.0 (scripts/codex/record-subagent.mjs): a thread that spawned one sub-agent. */
const DAY = join(process.cwd(), "test", "fixtures", "codex", "subagent-home", "sessions", "2026", "11", "26");

/** The recorded pair; ids and the nickname Codex picks change with every recording. */
function recordedPair(): { parent: string; child: string; childId: string; nickname: string } {
  const files = readdirSync(DAY).map((n) => join(DAY, n));
  const head = (f: string) => JSON.parse(readFileSync(f, "utf8").split("\n", 1)[0]) as { payload: { id: string; source: unknown; agent_nickname?: string } };
  const child = files.find((f) => typeof head(f).payload.source === "object") as string;
  const parent = files.find((f) => f !== child) as string;
  const nickname = head(child).payload.agent_nickname;
  assert.ok(nickname, "the recorded sub-agent has a nickname");
  return { parent, child, childId: head(child).payload.id, nickname };
}

let rid = 0;
const rows = (c: ExplorerController): Row[] => c.answer({ type: "rows", requestId: ++rid, start: 0, count: 1000 }).rows;

describe("Codex sub-agents (source.subagent, parent_thread_id): under their parent thread", () => {
  it("lists a spawned thread under the thread that spawned it, not on its own, with its task and nickname", async () => {
    const { home, day } = tempHome();
    const { parent, child, childId, nickname } = recordedPair();
    for (const f of [parent, child]) copyFileSync(f, join(day, f.split("/").pop() as string));
    const res = await listAllSessions({ dirs: { codex: home }, only: ["codex"], env: {} });
    const all = res.projects.flatMap((p) => p.sessions);
    assert.equal(all.length, 1, all.map((s) => s.path).join("\n"));
    assert.equal(all[0].firstMessage, "Please SPAWN a sub-agent to count the files");
    assert.deepEqual(
      all[0].subagents?.map((a) => ({ agentId: a.agentId, description: a.description, agentType: a.agentType, path: a.path })),
      [{ agentId: childId, description: "CHILD TASK: count the files in the project", agentType: nickname, path: join(day, child.split("/").pop() as string) }],
    );
  });

  it("titles from session_index.jsonl as codex-cli 0.169.0's app-server writes it (thread/name/set appends; the latest name wins)", async () => {
    const { home, day } = tempHome();
    const { parent, child } = recordedPair();
    for (const f of [parent, child]) copyFileSync(f, join(day, f.split("/").pop() as string));
    copyFileSync(join(DAY, "..", "..", "..", "..", "session_index.jsonl.recorded"), join(home, "session_index.jsonl"));
    const res = await listAllSessions({ dirs: { codex: home }, only: ["codex"], env: {} });
    const all = res.projects.flatMap((p) => p.sessions);
    assert.deepEqual(all.map((s) => s.name), ["Spawned helper demo (renamed)"]);
  });

  it("a sub-agent whose parent is not listed, and heads that name each other as parents, stay listed on their own", async () => {
    const { home, day } = tempHome();
    const { child } = recordedPair();
    copyFileSync(child, join(day, child.split("/").pop() as string));
    const a = "01a2166c-0000-7000-8000-00000000000a";
    const b = "01a2166c-0000-7000-8000-00000000000b";
    const spawned = (parent: string) => ({ parent_thread_id: parent, source: { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1 } } } });
    writeRollout(day, a, [meta(a, spawned(b)), msg(1, "user", "loop a")]);
    writeRollout(day, b, [meta(b, spawned(a)), msg(1, "user", "loop b")]);
    const res = await listAllSessions({ dirs: { codex: home }, only: ["codex"], env: {} });
    const all = res.projects.flatMap((p) => p.sessions);
    assert.equal(all.length, 3, all.map((s) => s.path).join("\n"));
    assert.ok(all.every((s) => !s.subagents));
  });

  it("a sub-agent's sub-agent is listed under the top thread too (nothing lost in a one-level list)", async () => {
    const { home, day } = tempHome();
    const top = "01a2166c-0000-7000-8000-000000000010";
    const mid = "01a2166c-0000-7000-8000-000000000011";
    const leaf = "01a2166c-0000-7000-8000-000000000012";
    const spawned = (parent: string, nick: string) => ({ parent_thread_id: parent, source: { subagent: { thread_spawn: { parent_thread_id: parent, depth: 1, agent_nickname: nick, agent_role: null } } } });
    writeRollout(day, top, [meta(top), msg(1, "user", "top task")]);
    writeRollout(day, mid, [meta(mid, spawned(top, "Ada")), msg(1, "user", "mid task")]);
    writeRollout(day, leaf, [meta(leaf, spawned(mid, "Bo")), msg(1, "user", "leaf task")]);
    const res = await listAllSessions({ dirs: { codex: home }, only: ["codex"], env: {} });
    const all = res.projects.flatMap((p) => p.sessions);
    assert.deepEqual(all.map((s) => s.id), [top]);
    assert.deepEqual(all[0].subagents?.map((s) => [s.agentId, s.description, s.agentType]), [
      [mid, "mid task", "Ada"],
      [leaf, "leaf task", "Bo"],
    ]);
  });

  it("the explorer nests the sub-agent's own rollout under the spawn_agent call that started it", async () => {
    const { day } = tempHome();
    const { parent, child, childId, nickname } = recordedPair();
    const parentCopy = join(day, parent.split("/").pop() as string);
    copyFileSync(parent, parentCopy);
    copyFileSync(child, join(day, child.split("/").pop() as string));
    const c = new ExplorerController(await openSession(parentCopy), { trusted: () => true });
    c.init();
    const before = rows(c);
    const calls = before.filter((r) => r.subagents);
    assert.equal(calls.length, 1, "only the spawn_agent call row has the cue");
    assert.deepEqual(calls[0].subagents, { expanded: false, agents: [{ agentId: childId, description: "CHILD TASK: count the files in the project", agentType: nickname, found: true }] });
    assert.match(calls[0].preview, /spawn_agent/);
    const { rowCount } = await c.answerAsync({ type: "expandSubagent", requestId: ++rid, id: calls[0].id, expand: true });
    const after = rows(c);
    assert.ok(rowCount > before.length);
    const nested = after.filter((r) => r.nested?.agentId === childId);
    assert.ok(nested.some((r) => r.preview === "Sub-agent result: CHILD TASK: count the files in the project"), nested.map((r) => r.preview).join("\n"));
    // Nested right under the call row.
    assert.equal(after[after.findIndex((r) => r.id === calls[0].id) + 1].nested?.agentId, childId);
    assert.equal(c.subagentToOpen(calls[0].id, childId), join(day, child.split("/").pop() as string));
  });
});
