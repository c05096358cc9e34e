import * as vscode from "vscode";

const SECRET = "agentSessions.anthropicApiKey";

/** The Anthropic key: SecretStorage first, then ANTHROPIC_API_KEY. Never logged or sent to the webview. */
export async function getApiKey(secrets: vscode.SecretStorage): Promise<string | undefined> {
  return (await secrets.get(SECRET)) || process.env.ANTHROPIC_API_KEY || undefined;
}

export async function setApiKey(secrets: vscode.SecretStorage, key?: string): Promise<boolean> {
  const value =
    key ??
    (await vscode.window.showInputBox({
      title: "Anthropic API key",
      prompt: "Stored in VS Code's secret storage; used only for summaries you ask for.",
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim().length < 10 ? "That does not look like an API key" : undefined),
    }));
  if (!value) return false;
  await secrets.store(SECRET, value.trim());
  return true;
}

export async function clearApiKey(secrets: vscode.SecretStorage): Promise<void> {
  await secrets.delete(SECRET);
}
