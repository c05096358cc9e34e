import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as vscode from "vscode";
import { renderFormatContext } from "../../src/core/context/format-context";
import type { ExplorerPanel } from "../../src/extension/explorer-panel";
import type { ExtensionApi } from "../../src/extension/extension";
import { openPanel, panelRows } from "./panels";
import { until } from "./until";

/**
 * Codex CLI in the real extension host, on the rollouts recorded with codex-cli 0.169.0,
 * laid out by the demo's store builder (scripts/demo/codex-demo.mjs) in the runner's
 * throwaway CODEX_HOME: the Sessions view lists them (the sub-agent under its thread, the
 * title from session_index.jsonl); the explorer opens a compaction, a fork and a .zst
 * rollout from there, shows their rows and details, and rebuilds the context Codex sent
 * when it resumed each (the recorded goldens); nothing is written to Codex's files.
 */

const EXT_ID = "agent-session-explorer.agent-session-explorer";
const codexHome = process.env.CODEX_HOME as string;

interface Demo {
  zst: string;
  compaction: string;
  fork: string;
  subagentParent: string;
}

describe("Codex rollouts in a real VS Code extension host", function () {
  let api: ExtensionApi;
  let demo: Demo;
  let goldens: string;
  const opened: string[] = [];
  const open = (file: string): Promise<ExplorerPanel> => openPanel(api, file, opened);

  /** The native context of the panel's session at its default leaf, as `ase context --format native` prints it. */
  const native = (panel: ExplorerPanel): string => {
    const s = panel.session;
    assert.ok(s, "the panel has a session");
    return JSON.stringify((renderFormatContext(s, s.metas.length - 1, "native") as { messages: unknown[] }).messages);
  };
  const golden = (name: string): string => JSON.stringify((JSON.parse(readFileSync(join(goldens, `${name}.json`), "utf8")) as { input: unknown[] }).input);

  before(async () => {
    assert.ok(codexHome, "CODEX_HOME must be set by the runner (test/extension/run.mjs)");
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} is installed`);
    api = await ext.activate();
    goldens = join(ext.extensionPath, "test", "fixtures", "codex", "goldens");
    // The demo's own store builder (an ES module of the repo, loaded as such).
    const builder = (await import(pathToFileURL(join(ext.extensionPath, "scripts", "demo", "codex-demo.mjs")).href)) as { generateCodexDemo(home: string): Demo };
    demo = builder.generateCodexDemo(codexHome);
  });

  after(() => {
    for (const f of opened) api?.panelFor(f)?.panel.dispose();
  });

  it("the Sessions view lists the threads marked Codex (the .zst one too), the sub-agent under the thread that spawned it, named from session_index.jsonl", async () => {
    await api.sessionsView.refresh();
    const sessions: Array<{ path: string; label: string; description: string; children: string[] }> = [];
    await until("the Codex threads in the Sessions view", async () => {
      sessions.length = 0;
      for (const p of await api.sessionsView.getChildren()) {
        for (const n of await api.sessionsView.getChildren(p)) {
          if (n.kind !== "session" || n.session.agent !== "codex") continue;
          const item = api.sessionsView.getTreeItem(n);
          const children = (await api.sessionsView.getChildren(n)).map((c) => (c.kind === "subagent" ? c.sub.path : ""));
          sessions.push({ path: n.session.path, label: String(typeof item.label === "string" ? item.label : item.label?.label), description: String(item.description), children });
        }
      }
      return sessions.length >= 4;
    }, 30_000);
    assert.deepEqual(sessions.map((s) => s.path).sort(), [demo.zst, demo.compaction, demo.fork, demo.subagentParent].sort());
    for (const s of sessions) assert.match(s.description, /^Codex · /, s.path);
    const parent = sessions.find((s) => s.path === demo.subagentParent);
    assert.equal(parent?.label, "Spawned helper demo (renamed)");
    assert.equal(parent?.children.length, 1, "the sub-agent's rollout under its thread");
    assert.match(parent?.children[0] ?? "", /\.jsonl$/);
  });

  it("a compaction opens from the Sessions view's path: the compacted row and its details (the summary, what it kept), the context Codex resumed with", async () => {
    const before = readFileSync(demo.compaction);
    const panel = await open(demo.compaction);
    const rows = await panelRows(panel);
    const boundary = rows.find((r) => r.compaction);
    assert.ok(boundary, "a row for the compacted line");
    const d = await panel.answer({ type: "details", requestId: 0, id: boundary.id });
    assert.match(d.compaction?.summary ?? "", /SUMMARY: the user asked for a big answer/);
    assert.equal(native(panel), golden("compact"));
    const sel = await panel.answer({ type: "select", requestId: 0, id: rows[rows.length - 1].id });
    assert.ok(sel.bars.length > 0 && sel.bars[0].total > 0, "token bars");
    assert.equal(panel.stats.errors, 0);
    assert.deepEqual(panel.sessionInfo()?.problems, []);
    assert.ok(readFileSync(demo.compaction).equals(before), "nothing written");
  });

  it("a fork opens with its parent's history (the parent found inside the .zst rollout) and its own prompt", async () => {
    const panel = await open(demo.fork);
    const rows = await panelRows(panel);
    assert.ok(rows.some((r) => r.preview.includes("A question asked on the fork")), "the fork's own prompt is a row");
    assert.deepEqual(panel.sessionInfo()?.problems, [], "the parent was found");
    assert.equal(native(panel), golden("fork"));
    assert.equal(panel.stats.errors, 0);
  });

  it("a .jsonl.zst rollout opens (decompressed by streaming, never written): its rows, a tool call's details, the context Codex resumed it with", async () => {
    const before = readFileSync(demo.zst);
    const panel = await open(demo.zst);
    const rows = await panelRows(panel);
    assert.ok(rows.some((r) => r.preview.includes("Please run TOOLS")), rows.map((r) => r.preview).join("\n"));
    const call = rows.find((r) => r.preview.includes("echo hi"));
    assert.ok(call, "the echo tool call is a row");
    const d = await panel.answer({ type: "details", requestId: 0, id: call.id });
    assert.ok(d.blocks.some((b) => b.kind === "toolCall"), "its details show the call");
    assert.equal(native(panel), golden("main-zst"));
    assert.equal(panel.sessionInfo()?.agent, "Codex");
    assert.equal(panel.stats.errors, 0);
    assert.ok(readFileSync(demo.zst).equals(before), "the .zst is never written");
  });

  it("the spawn_agent call's row expands into the sub-agent's own rollout", async () => {
    const panel = await open(demo.subagentParent);
    const rows = await panelRows(panel, "default");
    const call = rows.find((r) => r.subagents);
    assert.ok(call, "the spawn_agent call row has the sub-agent cue");
    await (panel as unknown as { onMessage(m: unknown): Promise<void> }).onMessage({ type: "expandSubagent", requestId: 9101, id: call.id, expand: true });
    const shown = await panelRows(panel, "default");
    const at = shown.findIndex((r) => r.id === call.id);
    assert.equal(shown[at].subagents?.expanded, true);
    assert.ok(shown.slice(at + 1).some((r) => r.nested && r.preview.includes("Sub-agent result")), "the sub-agent's answer nested under the call");
    assert.equal(panel.stats.errors, 0);
  });
});
