import { dirname } from "node:path";
import * as vscode from "vscode";
import { pickSession } from "../pickers";
import { guarded } from "../commands";
import { type CommandDeps, fileOf, registrar, type Target } from "./command-kit";

/** Open Session (the explorer), and the file's own: open as text, reveal, copy its path, the sessions folder. */
export function registerOpenCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  reg("agentSessions.openSession", guarded(deps, "Open Session", async (t?: Target, entryId?: string) => {
    const file = fileOf(t) ?? (await pickSession(deps.view, "Open Session"))?.fsPath;
    if (file) await deps.openSession(vscode.Uri.file(file), typeof entryId === "string" ? entryId : undefined);
  }));
  reg("agentSessions.openAsText", (t?: Target) => {
    const file = fileOf(t);
    if (file) return vscode.commands.executeCommand("vscode.open", vscode.Uri.file(file));
  });
  reg("agentSessions.revealInOS", (t?: Target) => {
    const file = fileOf(t);
    if (file) return vscode.commands.executeCommand("revealFileInOS", vscode.Uri.file(file));
  });
  reg("agentSessions.copyPath", async (t?: Target) => {
    const file = fileOf(t);
    if (file) await vscode.env.clipboard.writeText(file);
  });
  reg("agentSessions.openSessionsFolder", () => vscode.commands.executeCommand("revealFileInOS", vscode.Uri.file(dirname(deps.view.allSessions()[0]?.path ?? ""))));
}
