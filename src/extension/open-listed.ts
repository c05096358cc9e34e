import * as vscode from "vscode";
import type { Log } from "./log";
import { OPEN_ON_START, type RefusedOpen, sessionsToOpen } from "./open-on-start";

/** workspaceState: the open.json list last opened. */
const OPENED_KEY = "agentSessions.openJsonOpened";

/**
 * Opens the sessions a workspace's open.json lists, once per workspace (and again when
 * its list changes): after that VS Code's own editor restore brings back what the user
 * kept open, and a window reload does not pull a listed session in front of the one
 * being read. What is listed outside the folders opens when the workspace is trusted.
 */
export function openListedSessions(ctx: vscode.ExtensionContext, log: Log, open: (file: string) => Promise<void>): void {
  const openAll = (files: string[]) => {
    // A workspace that lists sessions wants them in front: show our view too.
    if (files.length) void vscode.commands.executeCommand("workbench.view.extension.agentSessions");
    for (const file of files) void open(file).catch((err) => log.error(`cannot open ${file}: ${(err as Error).message}`));
  };
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const listed = sessionsToOpen(folders, vscode.workspace.isTrusted, log);
  let refused: RefusedOpen[] = listed.refused;
  for (const r of refused) log.warn(r.message);
  if (refused.length) {
    const more = refused.length > 1 ? ` (and ${refused.length - 1} more: see the Agent Sessions log)` : "";
    void vscode.window.showWarningMessage(`${refused[0].message}${more}.`);
  }
  const listKey = JSON.stringify([...listed.open].sort());
  if (listed.open.length && ctx.workspaceState.get<string>(OPENED_KEY) === listKey) {
    log.info(`${OPEN_ON_START}: its ${listed.open.length} session(s) were opened before in this workspace; the restored editor layout keeps what is open`);
  } else {
    openAll(listed.open);
    void ctx.workspaceState.update(OPENED_KEY, listed.open.length ? listKey : undefined);
  }
  ctx.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      log.info("workspace trusted: writing actions enabled");
      // What open.json listed outside the folders may open now that the user trusts it.
      const later = refused.map((r) => r.path);
      refused = [];
      openAll(later);
    }),
  );
}
