import { strict as assert } from "node:assert";
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ExplorerPanel } from "../../src/extension/explorer-panel";
import type { ExtensionApi } from "../../src/extension/extension";
import { openPanel, panelRows } from "./panels";
import { until } from "./until";

/**
 * Gemini CLI in the real extension host, on sessions recorded with the real Gemini CLI
 * (test/fixtures/gemini-cli, copied into the runner's throwaway GEMINI_CLI_HOME): the
 * Sessions view lists them under the project each was recorded in, and the explorer shows
 * a /rewind's abandoned branch, a compression's boundary and an invoke_agent's sub-agent
 * nested under its call. Nothing is written to the copies.
 */

const EXT_ID = "agent-session-explorer.agent-session-explorer";
const home = process.env.GEMINI_CLI_HOME as string;
const CASES = ["compression", "rewind", "subagent"] as const;
const post = (panel: ExplorerPanel, m: unknown) => (panel as unknown as { onMessage(m: unknown): Promise<void> }).onMessage(m);

describe("Gemini CLI sessions in a real VS Code extension host", function () {
  let api: ExtensionApi;
  const opened: string[] = [];
  /** The copied session file Gemini would resume, per case (the largest; a stub is beside it). */
  const file: Partial<Record<(typeof CASES)[number], string>> = {};
  const projectOf: Partial<Record<(typeof CASES)[number], string>> = {};

  before(async () => {
    assert.ok(home, "GEMINI_CLI_HOME must be set by the runner (test/extension/run.mjs)");
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} is installed`);
    api = await ext.activate();
    const projects: Record<string, string> = {};
    for (const name of CASES) {
      const from = join(ext.extensionPath, "test", "fixtures", "gemini-cli", name);
      const project = (JSON.parse(readFileSync(join(from, "recorded-with.json"), "utf8")) as { project: string }).project;
      const slug = `gemini-${name}`;
      const chats = join(home, ".gemini", "tmp", slug, "chats");
      mkdirSync(chats, { recursive: true });
      cpSync(join(from, ".gemini", "tmp", "project", "chats"), chats, { recursive: true });
      writeFileSync(join(home, ".gemini", "tmp", slug, ".project_root"), project);
      projects[project] = slug;
      projectOf[name] = project;
      const files = readdirSync(chats).filter((n) => /^session-.*\.jsonl$/.test(n)).map((n) => join(chats, n));
      file[name] = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
    }
    writeFileSync(join(home, ".gemini", "projects.json"), JSON.stringify({ projects }));
  });

  after(() => {
    for (const f of opened) api?.panelFor(f)?.panel.dispose();
  });

  it("the Sessions view lists the recorded sessions under their projects, marked Gemini CLI, stubs hidden, the sub-agent under its session", async () => {
    await api.sessionsView.refresh();
    let listed: Array<{ path: string; cwd: string; description: string; subagents: number }> = [];
    await until("the three recorded sessions in the Sessions view", async () => {
      listed = [];
      for (const p of await api.sessionsView.getChildren()) {
        if (p.kind !== "project") continue;
        for (const n of await api.sessionsView.getChildren(p)) {
          if (n.kind !== "session" || !n.session.path.startsWith(home)) continue;
          listed.push({ path: n.session.path, cwd: p.group.cwd, description: String(api.sessionsView.getTreeItem(n).description), subagents: (await api.sessionsView.getChildren(n)).length });
        }
      }
      return listed.length >= CASES.length;
    }, 30_000);
    assert.deepEqual(listed.map((s) => s.path).sort(), CASES.map((c) => file[c]).sort(), "one session per recording: the stubs are not listed");
    for (const c of CASES) {
      const s = listed.find((x) => x.path === file[c]);
      assert.equal(s?.cwd, projectOf[c]);
      assert.match(s?.description ?? "", /^Gemini CLI · /);
      assert.equal(s?.subagents, c === "subagent" ? 1 : 0, `${c}: sub-agents listed under it`);
    }
  });

  it("a /rewind recorded in Gemini's interactive UI: the rewound prompt is an abandoned branch beside the prompt typed after it", async () => {
    const before = readFileSync(file.rewind!);
    const panel = await openPanel(api, file.rewind!, opened);
    const rows = await panelRows(panel, "all");
    const row = (text: string) => {
      const r = rows.find((x) => x.preview.includes(text));
      assert.ok(r, `a row showing ${JSON.stringify(text)}: ${rows.map((x) => x.preview).join(" | ")}`);
      return r;
    };
    const kept = row("Noted: first turn");
    const dropped = row("second turn: say beta");
    const after = row("third turn after the rewind");
    assert.equal(kept.childCount, 2, "the turn the rewind went back to has both branches under it");
    assert.equal(dropped.onActivePath, false);
    assert.equal(row("Noted: second turn").onActivePath, false);
    assert.equal(after.onActivePath, true);
    assert.equal(rows.find((r) => r.isDefaultLeaf)?.preview.includes("Noted: third turn"), true, "Gemini resumes after the third turn");
    assert.equal(panel.stats.errors, 0);
    assert.ok(readFileSync(file.rewind!).equals(before), "nothing written");
  });

  it("a compression in the middle of a tool loop: the state snapshot is a compaction boundary on the active path; what it summarized stays, off the path", async () => {
    const panel = await openPanel(api, file.compression!, opened);
    const rows = await panelRows(panel, "all");
    const boundary = rows.find((r) => r.kind === "boundary");
    assert.ok(boundary, `a boundary row: ${rows.map((r) => `${r.kind}:${r.preview}`).join(" | ")}`);
    assert.equal(boundary.onActivePath, true);
    assert.ok(rows.some((r) => !r.onActivePath && r.preview.includes("first a small question")), "the turn it summarized is still a row, off the active path");
    const d = await panel.answer({ type: "details", requestId: 0, id: boundary.id });
    assert.match(JSON.stringify(d), /state_snapshot/);
    assert.equal(panel.stats.errors, 0);
  });

  it("an invoke_agent call: its sub-agent (generalist) is linked and nests its own rows under the call", async () => {
    const panel = await openPanel(api, file.subagent!, opened);
    const rows = await panelRows(panel, "default");
    const call = rows.find((r) => r.subagents);
    assert.ok(call, "the invoke_agent row with its sub-agent cue");
    const d = await panel.answer({ type: "details", requestId: 0, id: call.id });
    assert.deepEqual(d.subagents?.map((a) => [a.agentType, a.found]), [["generalist", true]]);
    await post(panel, { type: "expandSubagent", requestId: 9101, id: call.id, expand: true });
    const shown = await panelRows(panel, "default");
    const at = shown.findIndex((r) => r.id === call.id);
    assert.equal(shown[at].subagents?.expanded, true);
    const nested = shown.slice(at + 1).filter((r) => r.nested?.callId === call.id);
    assert.ok(nested.length > 1, `the sub-agent's rows follow its call (${nested.length})`);
    assert.ok(nested.some((r) => r.preview.includes("notes.txt") || r.preview.includes("complete_task")), nested.map((r) => r.preview).join(" | "));
    assert.equal(panel.stats.errors, 0);
  });
});
