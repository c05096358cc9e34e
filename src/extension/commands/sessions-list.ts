import * as vscode from "vscode";
import { type CommandDeps, registrar } from "./command-kit";

/** The Sessions view's title bar: refresh, filter, clear the filter, show the log. */
export function registerSessionsListCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  reg("agentSessions.showLog", () => deps.log.show());
  reg("agentSessions.refresh", () => deps.view.refresh());
  reg("agentSessions.filter", async () => {
    const text = await vscode.window.showInputBox({ title: "Filter sessions", prompt: "Matches name, first message, project and path", value: deps.view.filter });
    if (text !== undefined) deps.view.setFilter(text);
  });
  reg("agentSessions.clearFilter", () => deps.view.setFilter(""));
}
