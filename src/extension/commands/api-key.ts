import * as vscode from "vscode";
import { clearApiKey, setApiKey } from "../api-key";
import { guarded } from "../commands";
import { type CommandDeps, registrar } from "./command-kit";

/** Set and Clear the Anthropic API key (VS Code's secret storage). */
export function registerApiKeyCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  reg("agentSessions.setApiKey", guarded(deps, "Set API Key", async (key?: string) => {
    if (await setApiKey(deps.secrets, key)) void vscode.window.showInformationMessage("Anthropic API key stored in VS Code's secret storage.");
  }));
  reg("agentSessions.clearApiKey", guarded(deps, "Clear API Key", async () => {
    await clearApiKey(deps.secrets);
    void vscode.window.showInformationMessage("Anthropic API key removed.");
  }));
}
