import * as vscode from "vscode";
import type { ModelPrices } from "./model-prices";
import type { PanelRegistry } from "./panel-registry";
import type { SessionCosts } from "./session-costs";
import type { SessionsView } from "./sessions-view";

/** Settings that say where an agent keeps its sessions: a change lists them again. */
const AGENT_HOMES = ["agentSessions.sessionsDirectory", "agentSessions.agentDirectories", "agentSessions.codexHome", "agentSessions.geminiHome", "agentSessions.opencodeHome"];

/** Settings that change what is shown now: the folders listed, the prices (every cost shown), showCost. */
export function watchSettings(ctx: vscode.ExtensionContext, on: { view: SessionsView; prices: ModelPrices; costs: SessionCosts; panels: PanelRegistry }): void {
  ctx.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (AGENT_HOMES.some((k) => e.affectsConfiguration(k))) void on.view.refresh();
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
