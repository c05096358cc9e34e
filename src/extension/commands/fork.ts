import * as vscode from "vscode";
import { forkAt } from "../actions";
import { pickEntry } from "../pickers";
import { guarded } from "../commands";
import { type CommandDeps, registrar, resolveFile, type Target } from "./command-kit";
import { forkNotice } from "./fork-notice";

/** Fork Session (at an entry) and Fork Latest (where the agent would resume). */
export function registerForkCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  reg("agentSessions.forkSession", guarded(deps, "Fork Session", async (t?: Target, entryId?: string) => {
    const file = await resolveFile(deps, t, "Fork Session From Entry");
    if (!file) return undefined;
    const id = entryId ?? (await pickEntry(await deps.session(file), "Fork from which entry?"));
    if (!id) return undefined;
    const path = await forkAt(deps, file, id);
    void deps.view.refresh();
    if (entryId === undefined) {
      const open = await vscode.window.showInformationMessage(await forkNotice(deps, file, id), "Open");
      if (open) await deps.openSession(vscode.Uri.file(path));
    }
    return path;
  }));

  reg("agentSessions.forkLatest", guarded(deps, "Fork Latest", async (t?: Target) => {
    const file = await resolveFile(deps, t, "Fork Latest");
    if (!file) return undefined;
    const s = await deps.session(file);
    // The leaf the agent itself would resume from, by the format's own rule (a Claude Code
    // transcript ending in a sub-agent's sidechain line resumes from its main chain).
    const leaf = s.format.defaultLeaf(s);
    if (leaf < 0) throw new Error(`${file}: no entry to fork from`);
    const path = await forkAt(deps, file, s.metas[leaf].id);
    void deps.view.refresh();
    void vscode.window.showInformationMessage(await forkNotice(deps, file, s.metas[leaf].id), "Open").then((o) => (o ? deps.openSession(vscode.Uri.file(path)) : undefined));
    return path;
  }));
}
