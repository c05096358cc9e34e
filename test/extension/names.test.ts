import { strict as assert } from "node:assert";
import * as vscode from "vscode";
import type { ExtensionApi } from "../../src/extension/extension";
import type { SessionsViewNode } from "../../src/extension/sessions-view";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";
import { openPanel } from "./panels";
import { activateWithPiProject } from "./pi-project";
import { until } from "./until";

/**
 * Names instead of ids in the real extension host (issue 24, items 4 and 15): the
 * explorer's tab and the Sessions view's rows and tooltips. What the user sees of them
 * in the window (hover, notification, bars) is checked by test/e2e/names.test.mjs.
 */

const CWD = "/home/ana/names";

describe("Names instead of ids in a real VS Code extension host", function () {
  let api: ExtensionApi;
  const opened: string[] = [];
  let source = "";

  async function sessionNode(file: string): Promise<SessionsViewNode | undefined> {
    await api.sessionsView.refresh();
    for (const p of await api.sessionsView.getChildren()) for (const n of await api.sessionsView.getChildren(p)) if (n.kind === "session" && n.session.path === file) return n;
    return undefined;
  }

  before(async () => {
    const got = await activateWithPiProject(CWD);
    api = got.api;
    const dir = got.dir;
    source = writeSession([
      header({ cwd: CWD }),
      user("n0000001", null, "Run the tests"),
      assistant("n0000002", "n0000001", "All green."),
      entry("session_info", "n0000003", "n0000002", { name: "Fix the build" }),
    ], { dir, name: "2026-02-01T00-00-00-000Z_0b0b0b0b-0000-4000-8000-000000000001.jsonl" });
  });

  after(async () => {
    for (const f of opened) api.panelFor(f)?.panel.dispose();
  });

  it("the explorer's tab is titled by the session's name, not its file name", async () => {
    const panel = await openPanel(api, source, opened);
    assert.equal(panel.panel.title, "Fix the build");
  });

  it("a file no store lists is titled by its first prompt once read", async () => {
    const file = writeSession([header({ cwd: CWD }), user("m0000001", null, "Summarize the\nrelease notes"), assistant("m0000002", "m0000001", "Done.")], { dir: tempDir(), name: "2026-02-02T00-00-00-000Z_0c0c.jsonl" });
    const panel = await openPanel(api, file, opened);
    assert.equal(panel.panel.title, "Summarize the release notes");
  });

  it("a fork is listed after its source and the entry it was forked at; its row leaves the tooltip to the hover", async () => {
    const path = (await vscode.commands.executeCommand("agentSessions.forkSession", vscode.Uri.file(source), "n0000002")) as string;
    const node = await until("the fork in the Sessions view", () => sessionNode(path), 20_000);
    const label = await until("the fork's title with its entry", async () => {
      const l = String(api.sessionsView.getTreeItem((await sessionNode(path)) ?? node).label);
      return l.includes("fork at") && l;
    }, 20_000);
    assert.equal(label, "Fix the build (fork at 'All green.')");
    const item = api.sessionsView.getTreeItem(node);
    // VS Code asks resolveTreeItem for a tooltip only when the item has none.
    assert.equal(item.tooltip, undefined);
    const tip = await api.sessionsView.resolveTreeItem(item, node);
    const text = tip.tooltip instanceof vscode.MarkdownString ? tip.tooltip.value.replace(/&nbsp;/g, " ").replace(/\\(.)/g, "$1") : "";
    assert.ok(text.includes(`forked from Fix the build (${source})`), text);
  });
});
