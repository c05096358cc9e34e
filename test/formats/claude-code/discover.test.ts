import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeCodeRoot, claudeCodeScanner, firstRealPrompt } from "../../../src/core/formats/claude-code/discover";
import { listWith } from "../../../src/core/store/discover";
import { costTargets } from "../../../src/core/usage/cost-scan";
import { tempDir } from "../../helpers/session-builder";

type Raw = Record<string, unknown>;
const jsonl = (lines: Raw[]) => lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

function conv(sessionId: string, cwd: string, n: number, type: string, message: Raw, extra: Raw = {}): Raw {
  return { parentUuid: n > 1 ? `u-${sessionId}-${n - 1}` : null, isSidechain: false, userType: "external", cwd, sessionId, version: "2.1.90", gitBranch: "main", type, message, uuid: `u-${sessionId}-${n}`, timestamp: `2026-03-01T10:00:0${n}.000Z`, ...extra };
}

describe("Claude Code discovery: <root>/projects/<escaped cwd>/<sessionId>.jsonl", () => {
  it("the root: an explicit folder, else $CLAUDE_CONFIG_DIR, else ~/.claude", () => {
    assert.equal(claudeCodeRoot("/x", { CLAUDE_CONFIG_DIR: "/y", HOME: "/h" }), "/x");
    assert.equal(claudeCodeRoot(undefined, { CLAUDE_CONFIG_DIR: "/y", HOME: "/h" }), "/y");
    assert.equal(claudeCodeRoot(undefined, { HOME: "/h" }), "/h/.claude");
  });

  it("the first real prompt skips meta lines, command echoes, compact summaries, sub-agent lines and tool results", () => {
    const u = (content: unknown, extra: Raw = {}) => ({ type: "user", message: { role: "user", content }, ...extra });
    assert.equal(
      firstRealPrompt([
        { type: "summary", summary: "x" },
        u("<local-command-caveat>Caveat: ...</local-command-caveat>", { isMeta: true }),
        u("<command-name>/clear</command-name>"),
        u([{ type: "tool_result", tool_use_id: "t", content: "out" }]),
        u("summary of earlier work", { isCompactSummary: true }),
        u("sub-agent prompt", { isSidechain: true }),
        u([{ type: "text", text: "Fix   the\nlogin bug" }]),
      ]),
      "Fix the login bug",
    );
  });

  it("lists sessions by the cwd their lines name, titled by the latest title line or the first real prompt; sub-agent files and junk are not sessions", async () => {
    const root = tempDir();
    const proj = join(root, "projects", "-srv-a-b");
    mkdirSync(join(proj, "s1", "subagents"), { recursive: true });
    const s1 = [
      { type: "summary", summary: "Old title", leafUuid: "u-s1-1" },
      { type: "file-history-snapshot", messageId: "u-s1-1", snapshot: {}, isSnapshotUpdate: false },
      conv("s1", "/srv/a.b", 1, "user", { role: "user", content: "<command-name>/clear</command-name>" }, { isMeta: true }),
      conv("s1", "/srv/a.b", 2, "user", { role: "user", content: "Why does the build fail?" }),
      conv("s1", "/srv/a.b", 3, "assistant", { id: "msg_1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "Let me look." }] }),
      { type: "ai-title", aiTitle: "Build failure", sessionId: "s1" },
      { type: "custom-title", customTitle: "Fix the build", sessionId: "s1" },
    ];
    writeFileSync(join(proj, "s1.jsonl"), jsonl(s1));
    writeFileSync(join(proj, "agent-1234.jsonl"), jsonl([conv("s1", "/srv/a.b", 1, "user", { role: "user", content: "sub-agent" }, { isSidechain: true, agentId: "1234" })]));
    writeFileSync(join(proj, "s1", "subagents", "agent-abcd.jsonl"), jsonl([conv("s1", "/srv/a.b", 1, "user", { role: "user", content: "nested sub-agent" }, { isSidechain: true })]));
    writeFileSync(join(proj, "s2.jsonl"), jsonl([conv("s2", "/srv/a.b", 1, "user", { role: "user", content: "Add a test" }, { forkedFrom: { sessionId: "s1", messageUuid: "u-s1-2" } })]));
    writeFileSync(join(proj, "empty.jsonl"), "");
    writeFileSync(join(proj, "notes.jsonl"), "not json\n{\"type\":\"summary\",\"summary\":\"only metadata\"}\n");
    const res = await listWith(claudeCodeScanner, root);
    assert.equal(res.projects.length, 1);
    assert.equal(res.projects[0].cwd, "/srv/a.b", "the cwd of the lines, not the escaped folder name");
    const byId = new Map(res.projects[0].sessions.map((s) => [s.id, s]));
    assert.deepEqual([...byId.keys()].sort(), ["s1", "s2"]);
    const a = byId.get("s1");
    assert.equal(a?.agent, "claude-code");
    assert.equal(a?.name, "Fix the build", "the latest title line");
    assert.equal(a?.firstMessage, "Why does the build fail?");
    assert.equal(a?.created, "2026-03-01T10:00:01.000Z");
    assert.equal(byId.get("s2")?.parentSession, "s1", "a /branch copy names the session it came from");
    assert.equal(byId.get("s2")?.name, undefined);
    const skipped = Object.fromEntries(res.skipped.map((s) => [s.path.split("/").pop(), s.reason]));
    assert.deepEqual(Object.keys(skipped).sort(), ["empty.jsonl", "notes.jsonl"]);
    assert.match(skipped["empty.jsonl"], /empty/);
    assert.match(skipped["notes.jsonl"], /no line with a uuid and a sessionId/);
  });
});

describe("Claude Code discovery: sub-agents listed under their session", () => {
  it("2.1.x <sessionId>/subagents/ (with meta.json, nested folders) and ~2.0.x agent-*.jsonl beside the session naming it", async () => {
    const root = tempDir();
    const proj = join(root, "projects", "-home-ana-app");
    mkdirSync(join(proj, "s1", "subagents", "workflows", "w1"), { recursive: true });
    writeFileSync(join(proj, "s1.jsonl"), jsonl([conv("s1", "/home/ana/app", 1, "user", { role: "user", content: "Research two libraries" })]));
    writeFileSync(join(proj, "s2.jsonl"), jsonl([conv("s2", "/home/ana/app", 1, "user", { role: "user", content: "Another session" })]));
    const sub = (sessionId: string, agentId: string) => jsonl([conv(sessionId, "/home/ana/app", 1, "user", { role: "user", content: "sub task" }, { isSidechain: true, agentId })]);
    writeFileSync(join(proj, "s1", "subagents", "agent-a1.jsonl"), sub("s1", "a1"));
    writeFileSync(join(proj, "s1", "subagents", "agent-a1.meta.json"), JSON.stringify({ agentType: "general-purpose", description: "Compare the libraries" }));
    writeFileSync(join(proj, "s1", "subagents", "workflows", "w1", "agent-a2.jsonl"), sub("s1", "a2"));
    writeFileSync(join(proj, "agent-b1.jsonl"), sub("s2", "b1"));
    writeFileSync(join(proj, "agent-b2.jsonl"), "not json\n");
    const res = await listWith(claudeCodeScanner, root);
    const byId = new Map(res.projects[0].sessions.map((s) => [s.id, s]));
    const s1 = byId.get("s1")?.subagents ?? [];
    assert.deepEqual(s1.map((a) => [a.agentId, a.description, a.agentType]), [["a1", "Compare the libraries", "general-purpose"], ["a2", undefined, undefined]]);
    assert.ok(s1.every((a) => a.size > 0 && a.path.endsWith(".jsonl")));
    assert.deepEqual(byId.get("s2")?.subagents?.map((a) => a.agentId), ["b1"], "a file beside the sessions goes to the session its lines name; junk to none");
    assert.equal(res.projects[0].sessions.length, 2, "sub-agent files are not sessions");
  });

  it("sub-agents written inline (sidechain lines in the session's own file) are listed under it by their first line and prompt, from the cache too; a total cost does not count them twice", async () => {
    const root = tempDir();
    const proj = join(root, "projects", "-srv-old");
    mkdirSync(proj, { recursive: true });
    const sid = "11111111-0000-4000-8000-000000000009";
    const file = join(proj, `${sid}.jsonl`);
    const side = (uuid: string, parentUuid: string | null, type: string, message: Raw): Raw => ({ parentUuid, isSidechain: true, userType: "external", cwd: "/srv/old", sessionId: sid, version: "2.0.13", type, message, uuid, timestamp: "2026-03-01T10:00:05.000Z" });
    writeFileSync(
      file,
      jsonl([
        conv(sid, "/srv/old", 1, "user", { role: "user", content: "ask a helper" }, { version: "2.0.13" }),
        side("s1", null, "user", { role: "user", content: "How are you\ndoing?" }),
        side("s2", "s1", "assistant", { role: "assistant", content: [{ type: "text", text: "Fine." }] }),
        side("s3", null, "user", { role: "user", content: [{ type: "text", text: "Second helper" }] }),
      ]),
    );
    const cacheFile = join(root, "cache.json");
    for (const pass of ["first", "cached"]) {
      const res = await listWith(claudeCodeScanner, root, { cacheFile });
      const s = res.projects.flatMap((p) => p.sessions).find((x) => x.path === file);
      assert.deepEqual(
        s?.subagents?.map((a) => [a.agentId, a.entryId, a.description, a.path]),
        [
          ["s1", "s1", "How are you doing?", file],
          ["s3", "s3", "Second helper", file],
        ],
        pass,
      );
      if (pass === "cached") assert.equal(res.stats.fromCache, 1);
    }
    const targets = costTargets((await listWith(claudeCodeScanner, root, { cacheFile })).projects);
    assert.deepEqual(targets.map((t) => t.path), [file], "the file once: its inline sub-agents are in it");
  });
});
