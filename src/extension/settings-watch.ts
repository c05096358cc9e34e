import * as vscode from "vscode";
import type { ModelPrices } from "./model-prices";
import type { PanelRegistry } from "./panel-registry";
import type { SessionCosts } from "./session-costs";
import type { SessionsView } from "./sessions-view";

/** Settings that change what is shown now: the folders listed, the prices (every cost shown), showCost. */
export function watchSettings(ctx: vscode.ExtensionContext, on: { view: SessionsView; prices: ModelPrices; costs: SessionCosts; panels: PanelRegistry }): void {
  ctx.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("agentSessions.sessionsDirectory") || e.affectsConfiguration("agentSessions.agentDirectories")) void on.view.refresh();
      if (e.affectsConfiguration("agentSessions.modelPrices")) {
        on.prices.reset();
        on.costs.clear();
        on.prices.get();
        for (const p of on.panels.all()) p.pricesChanged();
        on.view.costsChanged();
      } else if (e.affectsConfiguration("agentSessions.showCost")) {
        on.view.costsChanged();
      }
    }),
  );
}
