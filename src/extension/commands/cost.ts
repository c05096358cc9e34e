import type * as vscode from "vscode";
import type { RangePreset } from "../../core/usage/cost-total";
import { sessionTitle } from "../../core/util/session-title";
import { sessionCostReport, totalCost } from "../cost-command";
import type { SessionsViewNode } from "../sessions-view";
import { guarded } from "../commands";
import { type CommandDeps, registrar, resolveFile, type Target } from "./command-kit";

/** Total Cost (all sessions, or a project's) and Session Cost. */
export function registerCostCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  // Called by code (tests, other extensions) with a range preset ("today", "7d", "30d", "all") and a project's cwd, nothing is asked.
  reg("agentSessions.totalCost", guarded(deps, "Total Cost", async (range?: RangePreset, project?: string) => totalCost(deps, { range, project })));
  reg("agentSessions.projectTotalCost", guarded(deps, "Total Cost", async (node?: SessionsViewNode | string, range?: RangePreset) => {
    const project = typeof node === "string" ? node : node?.kind === "project" ? node.group.cwd : undefined;
    return totalCost(deps, { range, project });
  }));
  reg("agentSessions.sessionCost", guarded(deps, "Session Cost", async (t?: Target) => {
    const file = await resolveFile(deps, t, "Cost of which session?");
    if (!file) return undefined;
    return sessionCostReport(deps, file, deps.view.titleOf(file) ?? sessionTitle(undefined, file));
  }));
}
