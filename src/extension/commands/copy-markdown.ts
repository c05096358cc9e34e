import * as vscode from "vscode";
import { branchMarkdown, entryMarkdown } from "../../core/export/markdown";
import { createRedactor } from "../../core/export/redact/create-redactor";
import { currentUser } from "../../core/export/redact/current-user";
import { describeError } from "../commands";
import type { Log } from "../log";
import type { PanelRegistry } from "../panel-registry";

/**
 * "Copy as Markdown" and "Copy Branch as Markdown" in the explorer's row menu: the entry, or
 * the path from the root to it, as `ase export` writes Markdown, secrets redacted (what is
 * copied is about to be pasted somewhere else), then a note with what was replaced.
 */
export function registerCopyMarkdown(ctx: vscode.ExtensionContext, panels: PanelRegistry, log: Log): void {
  const register = (command: string, branch: boolean) =>
    ctx.subscriptions.push(
      vscode.commands.registerCommand(command, async (menu: unknown) => {
        const { entryId, sessionPath } = (menu ?? {}) as { entryId?: unknown; sessionPath?: unknown };
        const p = (typeof sessionPath === "string" ? panels.get(sessionPath) : undefined) ?? panels.active();
        if (!p || typeof entryId !== "string" || entryId.length > 200) return undefined;
        try {
          const session = await panels.session(p.file);
          const redactor = createRedactor(currentUser(process.env));
          const text = branch ? await branchMarkdown(session, entryId, redactor) : entryMarkdown(session, entryId, redactor);
          await vscode.env.clipboard.writeText(text);
          const { total } = redactor.report();
          const what = branch ? "The branch" : "The entry";
          void vscode.window.setStatusBarMessage(`${what} copied as Markdown${total ? ` (${total} secret${total === 1 ? "" : "s"} redacted)` : ""}`, 5000);
          return text;
        } catch (err) {
          log.error(`Copy as Markdown: ${describeError(err)}`);
          void vscode.window.showErrorMessage(`Copy as Markdown: ${describeError(err)}`);
          return undefined;
        }
      }),
    );
  register("agentSessions.menu.copyMarkdown", false);
  register("agentSessions.menu.copyBranchMarkdown", true);
}
