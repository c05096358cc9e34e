import * as vscode from "vscode";
import { costTargets, type CostScanResult, scanCosts } from "../core/usage/cost-scan";
import { presetRange, type RangePreset } from "../core/usage/cost-total";
import { costTotalText } from "../core/usage/cost-total-text";
import { reconcileText } from "../core/usage/reconcile-text";
import { sessionCostText } from "../core/usage/session-cost-text";
import type { ProjectGroup } from "../core/store/discover";
import { clipText, visibleText } from "../core/util/visible-text";
import { type ContextPreviewProvider, PREVIEW_SCHEME } from "./context-preview";
import type { Log } from "./log";
import type { SessionCosts } from "./session-costs";
import type { SessionsView } from "./sessions-view";

export interface CostCommandDeps {
  view: SessionsView;
  costs: SessionCosts;
  previews: ContextPreviewProvider;
  log: Log;
}

const RANGES: Array<{ preset: RangePreset; label: string; description: string }> = [
  { preset: "today", label: "Today", description: "since 00:00 UTC" },
  { preset: "7d", label: "Last 7 days", description: "today and the 6 UTC days before" },
  { preset: "30d", label: "Last 30 days", description: "today and the 29 UTC days before" },
  { preset: "all", label: "All time", description: "every step of every session" },
];

/** What the Total Cost commands return (for other extensions and the tests). */
export interface TotalCostOutcome extends CostScanResult {
  uri: vscode.Uri;
  text: string;
}

/** Asks for a range unless given; undefined when dismissed. */
async function pickRange(given: RangePreset | undefined): Promise<(typeof RANGES)[number] | undefined> {
  const known = RANGES.find((r) => r.preset === given);
  if (known) return known;
  return vscode.window.showQuickPick(RANGES, { title: "Total cost: which steps?", placeHolder: "Steps are counted by the time each was written (UTC days)" });
}

/** Asks for a project (or all) unless given; undefined when dismissed. */
async function pickProjects(view: SessionsView, given: string | undefined): Promise<{ label: string; all: boolean; groups: readonly ProjectGroup[] } | undefined> {
  await view.refresh();
  const groups = view.projects();
  if (given !== undefined) {
    const g = groups.find((x) => x.cwd === given);
    if (!g) throw new Error(`no sessions of project ${visibleText(clipText(given, 300))}`);
    return { label: given, all: false, groups: [g] };
  }
  const items = [
    { label: "All projects", description: `${groups.length} project(s)`, all: true, groups },
    ...groups.map((g) => ({ label: g.cwd ? visibleText(clipText(g.cwd, 300)) : "(no working directory)", description: `${g.sessions.length} session(s)`, all: false, groups: [g] })),
  ];
  return vscode.window.showQuickPick(items, { title: "Total cost: which project?", matchOnDescription: true });
}

/**
 * Total Cost: a range (and a project unless one is given), the matching sessions and
 * their sub-agents' transcripts costed one by one under a cancellable notification,
 * then the total by model, day and project in a read-only document.
 */
export async function totalCost(deps: CostCommandDeps, opts: { range?: RangePreset; project?: string } = {}): Promise<TotalCostOutcome | undefined> {
  const range = await pickRange(opts.range);
  if (!range) return undefined;
  const chosen = await pickProjects(deps.view, opts.project);
  if (!chosen) return undefined;
  const targets = costTargets(chosen.groups);
  const started = Date.now();
  let result: CostScanResult;
  try {
    result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Adding up the cost of ${targets.length} session file(s)`, cancellable: true }, (progress, token) => {
      const ac = new AbortController();
      token.onCancellationRequested(() => ac.abort(new vscode.CancellationError()));
      return scanCosts(targets, {
        range: presetRange(range.preset, Date.now()),
        reconcile: true,
        signal: ac.signal,
        costOf: (path, signal) => deps.costs.get(path, undefined, signal),
        onProgress: (done, total) => progress.report({ message: `${done} of ${total}`, increment: 100 / Math.max(total, 1) }),
      });
    });
  } catch (err) {
    if (err instanceof vscode.CancellationError) {
      void vscode.window.showInformationMessage("Total cost cancelled.");
      return undefined;
    }
    throw err;
  }
  deps.log.info(`total cost (${range.label}, ${chosen.label}): $${result.total.usd.toFixed(4)} over ${result.total.steps} steps of ${result.filesRead} file(s) read in ${Date.now() - started} ms`);
  for (const f of result.failed) deps.log.warn(`total cost: could not read ${f.path}: ${f.reason}`);
  const title = `${range.label}, ${chosen.all ? "all projects" : `project ${chosen.groups[0]?.cwd || "(no working directory)"}`}`;
  const text = `${costTotalText(result, { title, titleOf: (p) => deps.view.titleOf(p) })}${result.reconciliation ? `\n${reconcileText(result.reconciliation)}` : ""}`;
  const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/Total cost (${range.label}).txt`, query: `t=${Date.now()}` });
  deps.previews.set(uri, text);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false });
  return { ...result, uri, text };
}

/** What the Session Cost command returns (for the tests). */
export interface SessionCostOutcome {
  uri: vscode.Uri;
  text: string;
}

/**
 * One session's cost in a read-only document: the total and where it came from, what a
 * fork inherited, by model and day, and the reconciliation (the agent's recorded cost
 * beside our price for the same tokens).
 */
export async function sessionCostReport(deps: CostCommandDeps, file: string, title: string): Promise<SessionCostOutcome> {
  const cost = await deps.costs.get(file);
  const text = sessionCostText(cost, { title: `${title} (${file})`, by: ["model", "day"], reconcileWith: deps.costs.prices() });
  const name = clipText(title.replace(/[\\/]/g, "-"), 60);
  const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/Cost of ${name}.txt`, query: `t=${Date.now()}` });
  deps.previews.set(uri, text);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false });
  return { uri, text };
}
