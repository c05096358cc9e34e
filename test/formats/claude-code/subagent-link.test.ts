import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { subagentLink } from "../../../src/core/formats/claude-code/subagent-link";
import { openSession } from "../../../src/core/formats/registry";
import { entryDetails } from "../../../src/explorer/entry-details";
import { ExplorerController } from "../../../src/explorer/controller";
import { sharedFolderGuard } from "../../helpers/fixtures";
import { fragment, jsonl, type Raw, SESSION, sidechain, text, toolResult, toolUse, user } from "./lines";

const SHARED = resolve(process.env.ASE_CLAUDE_CODE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "claude-code"));
const need = sharedFolderGuard("Claude Code sub-agent", SHARED, "ASE_CLAUDE_CODE_FIXTURES");
const INLINE = "real/agentlogs-subagent-inline.jsonl";

/** A main session whose Agent call's result reports agentId `id`. */
function mainSession(id: string): Raw[] {
  const result = user("r1", "a1", [{ type: "tool_result", tool_use_id: "t1", content: "report" }], { sourceToolAssistantUUID: "a1", toolUseResult: { status: "completed", agentId: id, agentType: "Explore" } });
  return [user("u1", null, "look around"), fragment("a1", "u1", "msg_1", toolUse("t1", "Agent", { description: "Map the repo", subagent_type: "Explore", prompt: "..." })), result];
}

describe("claude-code: the sub-agent a tool call started", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ase-subagent-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function load(records: Raw[]) {
    const file = join(dir, `${SESSION}.jsonl`);
    writeFileSync(file, jsonl(records));
    return openSession(file);
  }

  it("2.1.x layout: the call and its result both link to <sessionId>/subagents/agent-<id>.jsonl, described by the call", async () => {
    const sub = join(dir, SESSION, "subagents");
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, "agent-abc123.jsonl"), "");
    writeFileSync(join(sub, "agent-abc123.meta.json"), JSON.stringify({ agentType: "Explore", description: "from meta" }));
    const s = await load(mainSession("abc123"));
    const want = { agentId: "abc123", description: "Map the repo", agentType: "Explore", path: join(sub, "agent-abc123.jsonl") };
    assert.deepEqual(subagentLink(s, s.requireIndex("a1")), want);
    assert.deepEqual(subagentLink(s, s.requireIndex("r1")), want);
    assert.equal(subagentLink(s, s.requireIndex("u1")), undefined);
    // What the webview gets: no path, only whether it was found.
    assert.deepEqual(entryDetails(s, s.requireIndex("a1")).subagents, [{ agentId: "abc123", description: "Map the repo", agentType: "Explore", found: true }]);
  });

  it("nested (subagents/workflows/...) and beside-the-session (2.0.x) layouts are found; the meta file describes when the call does not", async () => {
    const nested = join(dir, SESSION, "subagents", "workflows", "w1");
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, "agent-deep1.jsonl"), "");
    writeFileSync(join(nested, "agent-deep1.meta.json"), JSON.stringify({ description: "from meta" }));
    const recs = mainSession("deep1");
    const bare = recs.map((r) => (r.uuid === "a1" ? fragment("a1", "u1", "msg_1", toolUse("t1", "Task", {})) : r));
    let s = await load(bare);
    assert.deepEqual(subagentLink(s, s.requireIndex("a1")), { agentId: "deep1", description: "from meta", agentType: "Explore", path: join(nested, "agent-deep1.jsonl") });
    writeFileSync(join(dir, "agent-side2.jsonl"), "");
    s = await load(mainSession("side2"));
    assert.equal(subagentLink(s, s.requireIndex("a1"))?.path, join(dir, "agent-side2.jsonl"));
  });

  it("no transcript on disk: linked, not found; an agentId that is not a plain name is not looked up", async () => {
    let s = await load(mainSession("gone9"));
    assert.deepEqual(entryDetails(s, s.requireIndex("a1")).subagents, [{ agentId: "gone9", description: "Map the repo", agentType: "Explore", found: false }]);
    writeFileSync(join(dir, "agent-..jsonl"), "");
    s = await load(mainSession("../x"));
    assert.equal(subagentLink(s, s.requireIndex("a1")), undefined);
    assert.equal(f.details?.(s, s.requireIndex("r1")).subagents, undefined);
  });

  it("1.0.x, written inline: the call links to the sidechain root whose prompt is its prompt; the explorer shows its lines and gives its own figures", async () => {
    const recs: Raw[] = [
      user("u1", null, "ask a helper"),
      fragment("a1", "u1", "msg_1", toolUse("t1", "Task", { description: "Check in", subagent_type: "general-purpose", prompt: "How are you?" })),
      sidechain(user("x0", null, "Some other helper")),
      sidechain(user("x1", null, "How are you?")),
      sidechain(fragment("x2", "x1", "msg_x", text("Fine, thanks."))),
      toolResult("r1", "a1", "t1", "Fine, thanks."),
    ];
    const s = await load(recs);
    assert.deepEqual(subagentLink(s, s.requireIndex("a1")), { agentId: "x1", inlineEntryId: "x1", description: "Check in", agentType: "general-purpose" });
    assert.deepEqual(entryDetails(s, s.requireIndex("a1")).subagents, [{ agentId: "x1", inlineEntryId: "x1", description: "Check in", agentType: "general-purpose", found: true }]);
    const c = new ExplorerController(s, { trusted: () => true });
    assert.equal(c.inlineSubagentEntry("a1", "x1"), "x1");
    assert.equal(c.subagentToOpen("a1", "x1"), undefined);
    const d = await c.answerAsync({ type: "details", requestId: 1, id: "a1" });
    const fig = d.subagents?.[0].figures;
    assert.ok(fig, "figures for the inline sub-agent");
    assert.equal(fig.steps, 1, "its one response, not the parent's");
    assert.ok(fig.contextTokens > 0);
    // A prompt no sidechain root holds links nothing.
    const none = await load(recs.map((r) => (r.uuid === "x1" ? sidechain(user("x1", null, "Something else")) : r)));
    assert.equal(subagentLink(none, none.requireIndex("a1")), undefined);
  });

  it("the real 1.0.x fixture (agentlogs-subagent-inline.jsonl): its Task call links to the sidechain lines written inline", async function () {
    need(this, INLINE);
    const s = await openSession(join(SHARED, INLINE));
    const call = s.metas.findIndex((m) => m.id.startsWith("577cbc05"));
    const link = subagentLink(s, call);
    assert.equal(link?.description, "Check how agent is doing");
    assert.ok(link?.inlineEntryId?.startsWith("cd49a45d"));
  });
});
