import * as vscode from "vscode";
import { HistoryThreadLookups } from "../core/history/history-thread";
import type { HistoryProgress } from "../core/history/history-options";
import { AgentBlame, TOGGLE_BLAME_COMMAND } from "./agent-blame";
import { AGENT_HISTORY_VIEW_ID, AgentHistoryView, OPEN_HISTORY_ENTRY_COMMAND } from "./agent-history-view";
import { registrar } from "./commands/command-kit";
import type { Log } from "./log";
import { agentDirs } from "./sessions-view";

export const SHOW_HISTORY_COMMAND = "agentSessions.showAgentHistory";

/** A file an editor or the Explorer names, when it is one on disk. */
function fileOf(uri: vscode.Uri | undefined): string | undefined {
  return uri?.scheme === "file" ? uri.fsPath : undefined;
}

/**
 * The Agent History view (following the editor in front while it is visible), Show Agent
 * History for This File, and agent blame, over the core's per-file index of every agent's
 * sessions (kept in the extension's cache folder).
 */
export function registerAgentHistory(ctx: vscode.ExtensionContext, log: Log, cacheDir: string): { view: AgentHistoryView; blame: AgentBlame } {
  // The index lives on a thread of its own: reading sessions and its cache never blocks the extension host.
  const lookups = new HistoryThreadLookups();
  ctx.subscriptions.push({ dispose: () => lookups.dispose() });
  let told = false;
  const lookup = (file: string, onProgress?: HistoryProgress) => {
    const got = lookups.lookup(file, { dirs: agentDirs(), cacheDir }, onProgress);
    if (!told) {
      told = true;
      log.info(lookups.started ? "Agent History: the index is built on a thread of its own" : "Agent History: dist/history-worker.js not found; the index is built in the extension host's thread");
    }
    return got;
  };
  const view = new AgentHistoryView({ log, lookup });
  const tree = vscode.window.createTreeView(AGENT_HISTORY_VIEW_ID, { treeDataProvider: view });
  view.attach(tree);
  const blame = new AgentBlame({ log, lookup });
  ctx.subscriptions.push(view, tree, blame);
  // Follows the editor in front, but looks nothing up while the view is hidden.
  const follow = () => {
    const file = fileOf(vscode.window.activeTextEditor?.document.uri);
    if (tree.visible && file && file !== view.state.file) void view.show(file);
  };
  ctx.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(follow), tree.onDidChangeVisibility(follow));
  follow();
  const reg = registrar(ctx);
  reg(SHOW_HISTORY_COMMAND, async (uri?: vscode.Uri) => {
    const file = fileOf(uri) ?? fileOf(vscode.window.activeTextEditor?.document.uri);
    if (!file) {
      void vscode.window.showInformationMessage("Show Agent History: open a file first (or pick one in the Explorer).");
      return undefined;
    }
    await vscode.commands.executeCommand(`${AGENT_HISTORY_VIEW_ID}.focus`);
    return view.show(file);
  });
  reg(OPEN_HISTORY_ENTRY_COMMAND, async (sessionPath: string, entryId: string) => {
    if (typeof sessionPath !== "string" || typeof entryId !== "string") return;
    try {
      await vscode.commands.executeCommand("agentSessions.openSession", vscode.Uri.file(sessionPath), entryId);
    } catch {
      // Open Session showed the error and logged it.
    }
  });
  reg(TOGGLE_BLAME_COMMAND, () => blame.toggle());
  return { view, blame };
}
