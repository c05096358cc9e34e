import { strict as assert } from "node:assert";
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ExplorerPanel } from "../../src/extension/explorer-panel";
import type { ExtensionApi } from "../../src/extension/extension";
import { openPanel, panelRows } from "./panels";
import { until } from "./until";

/**
 * Sub-agents nested under the call that started them (issue 24, item 8) in the real
 * extension host: the webview's own message (validated as every inbound message is)
 * expands a real Agent call, the panel serves the sub-agent's rows under it, and the
 * context menu's entry actions on a nested row are refused with the reason.
 */

const EXT_ID = "agent-session-explorer.agent-session-explorer";
const SUB_SESSION = "ef958aa1-0e93-49f0-bb71-150f63befcd1";
const post = (panel: ExplorerPanel, m: unknown) => (panel as unknown as { onMessage(m: unknown): Promise<void> }).onMessage(m);

describe("sub-agents nested under their call, in a real VS Code extension host", function () {
  let api: ExtensionApi;
  let shared: string;
  const opened: string[] = [];

  before(async () => {
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} is installed`);
    api = await ext.activate();
    shared = join(ext.extensionPath, "..", "shared", "fixtures", "claude-code", "real", "ccl-subagents-v2.1.114");
  });

  after(() => {
    for (const f of opened) api?.panelFor(f)?.panel.dispose();
  });

  it("expandSubagent from the webview nests the Agent call's transcript under it; fork from the context menu on a nested row is refused, nothing written", async function () {
    if (!existsSync(join(shared, `${SUB_SESSION}.jsonl`))) {
      if (process.env.CI) throw new Error(`Claude Code fixtures missing under ${shared}`);
      this.skip();
    }
    const store = join(process.env.CLAUDE_CONFIG_DIR as string, "projects", "-subagents-nested");
    mkdirSync(store, { recursive: true });
    cpSync(join(shared, `${SUB_SESSION}.jsonl`), join(store, `${SUB_SESSION}.jsonl`));
    cpSync(join(shared, SUB_SESSION), join(store, SUB_SESSION), { recursive: true });
    const file = join(store, `${SUB_SESSION}.jsonl`);
    const before = readFileSync(file);
    const panel = await openPanel(api, file, opened);
    const rows = await panelRows(panel, "default");
    const call = rows.find((r) => r.subagents);
    assert.ok(call, "an Agent call row with its cue");
    assert.equal(call.subagents?.expanded, false, "collapsed by default");
    assert.ok(!rows.some((r) => r.nested), "no sub-agent row before one is expanded");
    await post(panel, { type: "expandSubagent", requestId: 9001, id: call.id, expand: true });
    const shown = await panelRows(panel, "default");
    const at = shown.findIndex((r) => r.id === call.id);
    assert.equal(shown[at].subagents?.expanded, true);
    assert.ok(shown[at + 1]?.nested?.callId === call.id, "the sub-agent's rows follow its call");
    assert.ok((shown[at].subagents?.agents[0].figures?.steps ?? 0) > 0, "its steps on the call row");
    const nested = shown.slice(at + 1).find((r) => r.nested && r.kind !== "info" && r.typeLabel !== "Sub-agent");
    assert.ok(nested, "one of its entries");
    const d = await panel.answer({ type: "details", requestId: 0, id: nested.id });
    assert.equal(d.id, nested.id);
    assert.match(d.unavailable?.fork ?? "", /sub-agent's own transcript/);
    await vscode.commands.executeCommand("agentSessions.menu.fork", { webview: "agentSessions.explorer", webviewSection: "nestedRow", entryId: nested.id, sessionPath: file });
    await until("the refusal", () => /sub-agent's own transcript/.test(panel.stats.lastNotice ?? ""));
    assert.equal(panel.stats.errors, 0);
    assert.ok(readFileSync(file).equals(before), "nothing written");
  });
});
