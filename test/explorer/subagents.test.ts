import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openSession } from "../../src/core/formats/registry";
import { ExplorerController } from "../../src/explorer/controller";
import type { Row } from "../../src/protocol";
import { fragment, inlineTask, jsonl, type Raw, SESSION, sidechain, text, toolResult, toolUse, user } from "../formats/claude-code/lines";
import { sharedFolderGuard } from "../helpers/fixtures";
import { tempDir } from "../helpers/session-builder";

const SHARED = resolve(process.env.ASE_CLAUDE_CODE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "claude-code"));
const need = sharedFolderGuard("Claude Code sub-agent", SHARED, "ASE_CLAUDE_CODE_FIXTURES");
const REAL = "real/ccl-subagents-v2.1.114/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl";

const CWD = "/home/dev/demo";
let rid = 0;
const next = () => ({ requestId: ++rid });

/** 2.1.x: an Agent call whose result reports agent `sub1`, then the conversation goes on. */
function main(): Raw[] {
  return [
    user("u1", null, "survey the tests"),
    fragment("a1", "u1", "msg_1", toolUse("t1", "Agent", { description: "Survey the test suite", subagent_type: "Explore", prompt: "Look at every test" })),
    user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "12 tests" }], { sourceToolAssistantUUID: "a1", toolUseResult: { status: "completed", agentId: "sub1", agentType: "Explore" } }),
    fragment("a2", "r1", "msg_2", text("There are 12 tests.")),
  ];
}

/** The sub-agent's own transcript: its prompt, a Read, its result, its answer (`answer` tells two versions apart). */
function subagent(answer: string): Raw[] {
  const sub = (r: Raw) => sidechain({ ...r, agentId: "sub1" });
  return [
    sub(user("s1", null, "Look at every test")),
    sub(fragment("s2", "s1", "msg_s1", toolUse("ts1", "Read", { file_path: `${CWD}/test/a.test.ts` }))),
    sub(toolResult("s3", "s2", "ts1", "it(...)")),
    sub(fragment("s4", "s3", "msg_s2", text(answer))),
  ];
}

async function controllerFor(records: Raw[], sub?: Raw[]) {
  const dir = tempDir();
  const file = join(dir, `${SESSION}.jsonl`);
  writeFileSync(file, jsonl(records));
  const subFile = join(dir, SESSION, "subagents", "agent-sub1.jsonl");
  if (sub) {
    mkdirSync(join(dir, SESSION, "subagents"), { recursive: true });
    writeFileSync(subFile, jsonl(sub));
  }
  const c = new ExplorerController(await openSession(file), { trusted: () => true });
  c.init();
  return { c, subFile };
}

const rows = (c: ExplorerController): Row[] => c.answer({ type: "rows", ...next(), start: 0, count: 1000 }).rows;
const expand = (c: ExplorerController, id: string, on = true) => c.answerAsync({ type: "expandSubagent", ...next(), id, expand: on });

describe("explorer: sub-agents nested under the call that started them", () => {
  it("a file sub-agent: its call row carries a cue, collapsed; expanding reads its transcript then and nests its rows, steps and cost on the call row", async () => {
    const { c, subFile } = await controllerFor(main(), subagent("first version"));
    const before = rows(c);
    assert.deepEqual(
      before.map((r) => r.id),
      ["u1", "a1", "r1", "a2"],
    );
    const call = before[1];
    assert.deepEqual(call.subagents, { expanded: false, agents: [{ agentId: "sub1", description: "Survey the test suite", agentType: "Explore", found: true }] });
    assert.equal(before.filter((r) => r.subagents).length, 1, "only the call row has the cue");
    // Rewritten after the session loaded: what shows is what the file holds when the call is expanded.
    writeFileSync(subFile, jsonl(subagent("second version")));
    const { rowCount } = await expand(c, "a1");
    assert.equal(rowCount, 4 + 4);
    const after = rows(c);
    const nested = after.slice(2, 6);
    assert.deepEqual(
      after.map((r) => r.nested?.agentId ?? r.id),
      ["u1", "a1", "sub1", "sub1", "sub1", "sub1", "r1", "a2"],
    );
    assert.deepEqual(
      nested.map((r) => r.preview),
      ["Look at every test", "Read test/a.test.ts", "it(...)", "second version"],
    );
    for (const r of nested) {
      assert.ok(r.depth > after[1].depth, `${r.id} indented under the call`);
      assert.equal(r.nested?.callId, "a1");
      assert.ok(!["s1", "s2", "s3", "s4"].includes(r.id), "nested rows have ids of their own");
    }
    assert.equal(new Set(after.map((r) => r.id)).size, after.length, "ids are unique");
    const cue = after[1].subagents;
    assert.equal(cue?.expanded, true);
    const fig = cue?.agents[0].figures;
    assert.ok(fig, "figures once read");
    assert.equal(fig.steps, 2);
    assert.ok(fig.usd > 0);
    assert.equal(fig.source, "recorded");

    // Its rows' details, read-only; selecting one keeps it selected.
    const d = await c.answerAsync({ type: "details", ...next(), id: nested[1].id });
    assert.equal(d.id, nested[1].id);
    assert.equal(d.blocks[0].title, "Read test/a.test.ts");
    assert.match(d.unavailable?.fork ?? "", /sub-agent's own transcript/);
    assert.match(c.actionRefusal({ action: "fork", id: nested[1].id }) ?? "", /sub-agent's own transcript/);
    assert.equal(c.answer({ type: "select", ...next(), id: nested[1].id }).rowIndex, 3);
    // The explorer's search finds text inside an expanded sub-agent.
    assert.deepEqual(c.answer({ type: "search", ...next(), query: "second version" }).matches, [5]);

    assert.equal((await expand(c, "a1", false)).rowCount, 4);
    assert.deepEqual(rows(c)[1].subagents?.agents[0].figures?.steps, 2, "figures stay on the folded call");
  });

  it("a transcript not beside the session: expanding shows a row saying so", async () => {
    const { c } = await controllerFor(main());
    assert.equal(rows(c)[1].subagents?.agents[0].found, false);
    await expand(c, "a1");
    const note = rows(c)[2];
    assert.equal(note.nested?.agentId, "sub1");
    assert.match(note.preview, /Agent \(Explore\): Survey the test suite\. Its transcript \(agent-sub1\.jsonl\) is not beside the session/);
  });

  it("an inline (isSidechain) sub-agent: nested under its call, not a root at the bottom; revealing its line keeps the default filter", async () => {
    const { c } = await controllerFor(inlineTask());
    assert.equal(c.filter, "default");
    assert.deepEqual(
      rows(c).map((r) => r.id),
      ["u1", "a1", "r1", "a2"],
    );
    c.answer({ type: "setFilter", ...next(), filter: "all" });
    assert.ok(!rows(c).some((r) => r.id === "x1" || r.id === "x2"), "no separate root under All entries either");
    c.answer({ type: "setFilter", ...next(), filter: "default" });
    const r = c.answer({ type: "reveal", ...next(), id: "x2" });
    assert.equal(r.filter, "default", "the filter did not switch to All entries");
    const shown = rows(c);
    assert.deepEqual(
      shown.map((x) => x.nested?.agentId ?? x.id),
      ["u1", "a1", "x1", "x1", "r1", "a2"],
    );
    assert.equal(r.rowIndex, 3, "the revealed line's nested row");
    assert.equal(shown[3].preview, "Fine, thanks.");
    assert.equal(shown[1].subagents?.expanded, true);
    assert.equal(shown[1].subagents?.agents[0].figures?.steps, 1);
    const d = await c.answerAsync({ type: "details", ...next(), id: shown[3].id });
    assert.match(d.unavailable?.compact ?? "", /written inline/);
  });

  it("the real 2.1.114 fixture: every Agent call row has a cue, and each expands into its own transcript's rows with its figures", async function () {
    need(this, REAL);
    const c = new ExplorerController(await openSession(join(SHARED, REAL)), { trusted: () => true });
    c.init();
    const calls = rows(c).filter((r) => r.subagents);
    assert.ok(calls.length >= 1, "Agent calls with a cue");
    for (const call of calls) {
      const before = c.rowCount;
      await expand(c, call.id);
      const shown = rows(c);
      const at = shown.findIndex((r) => r.id === call.id);
      const nested = shown.slice(at + 1).filter((r, k, all) => all.slice(0, k + 1).every((x) => x.nested?.callId === call.id));
      assert.ok(nested.length > 0 && c.rowCount === before + nested.length, `${call.preview}: ${nested.length} nested rows`);
      for (const a of shown[at].subagents?.agents ?? []) {
        assert.equal(a.found, true, `${a.agentId} found`);
        assert.ok((a.figures?.steps ?? 0) > 0, `${a.agentId}: its steps`);
      }
      await expand(c, call.id, false);
      assert.equal(c.rowCount, before);
    }
  });
});
