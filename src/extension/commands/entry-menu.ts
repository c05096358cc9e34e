import * as vscode from "vscode";
import type { PanelRegistry } from "../panel-registry";

/** The entry actions the webview's context menu offers (package.json: agentSessions.menu.<action>). */
const MENU_ACTIONS = ["fork", "continue", "label", "previewContext", "compareContext", "compactionChange", "compact"] as const;

/** The webview's context menu (rows and bars): the entry it was opened on, in the panel in front. */
export function registerEntryMenu(ctx: vscode.ExtensionContext, panels: PanelRegistry): void {
  for (const action of MENU_ACTIONS) {
    ctx.subscriptions.push(
      vscode.commands.registerCommand(`agentSessions.menu.${action}`, async (menu: unknown) => {
        const { entryId: id, sessionPath } = (menu ?? {}) as { entryId?: unknown; sessionPath?: unknown };
        // The panel whose webview the menu was opened in (its session's path), else the one in front.
        const p = (typeof sessionPath === "string" ? panels.get(sessionPath) : undefined) ?? panels.active();
        if (p && typeof id === "string" && id.length <= 200) await p.runAction({ action, id });
      }),
    );
  }
}
