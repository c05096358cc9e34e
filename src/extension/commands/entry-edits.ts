import * as vscode from "vscode";
import { continueAt, labelAt } from "../actions";
import { pickEntry } from "../pickers";
import { guarded } from "../commands";
import { type CommandDeps, registrar, resolveFile, type Target } from "./command-kit";

/** Continue From Entry (move the leaf, with or without a branch summary) and Label Entry: lines appended at an entry. */
export function registerEntryEditCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  reg("agentSessions.continueFromEntry", guarded(deps, "Continue From Entry", async (t?: Target, entryId?: string, opts?: { summarize?: boolean }) => {
    const file = await resolveFile(deps, t, "Continue From Entry");
    if (!file) return undefined;
    const id = entryId ?? (await pickEntry(await deps.session(file), "Continue from which entry?"));
    if (!id) return undefined;
    let summarize = opts?.summarize;
    if (summarize === undefined) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: "Without summary", description: "just move the leaf (pi's /tree)", value: false },
          { label: "Summarize the branch being left", description: "asks the LLM; needs an API key", value: true },
        ],
        { title: "Continue from entry" },
      );
      if (!pick) return undefined;
      summarize = pick.value;
    }
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Continuing from entry", cancellable: true }, (p, token) => continueAt(deps, file, id, !!summarize, token, p));
  }));

  reg("agentSessions.labelEntry", guarded(deps, "Label Entry", async (t?: Target, entryId?: string, label?: string) => {
    const file = await resolveFile(deps, t, "Label Entry");
    if (!file) return undefined;
    const s = await deps.session(file);
    const id = entryId ?? (await pickEntry(s, "Label which entry?"));
    if (!id) return undefined;
    const text = label ?? (await vscode.window.showInputBox({ title: `Label ${id}`, prompt: "An empty label clears it.", value: s.tree.labels.get(id) ?? "" }));
    if (text === undefined) return undefined;
    return labelAt(deps, file, id, text);
  }));
}
