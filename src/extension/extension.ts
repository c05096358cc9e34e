import { moduleCodeStarted } from "./load-clock";
import * as vscode from "vscode";
import { loadedBundles } from "../core/lazy/lazy-bundles";
import { type McpDefinitionProvider, registerMcpDefinition } from "./mcp-definition";
import type { AgentBlame } from "./agent-blame";
import { registerAgentHistory } from "./agent-history";
import type { AgentHistoryView } from "./agent-history-view";
import { registerCompactCommands, runEntryAction } from "./commands";
import { registerApiKeyCommands } from "./commands/api-key";
import type { CommandDeps } from "./commands/command-kit";
import { registerContextCommands } from "./commands/context";
import { registerEntryEditCommands } from "./commands/entry-edits";
import { registerCopyMarkdown } from "./commands/copy-markdown";
import { registerEntryMenu } from "./commands/entry-menu";
import { registerCostCommands } from "./commands/cost";
import { registerExportCommands } from "./export-command";
import { registerForkCommands } from "./commands/fork";
import { registerOpenCommands } from "./commands/open";
import { registerSearch } from "./commands/search";
import { registerSessionsListCommands } from "./commands/sessions-list";
import { ContextPreviewProvider, DIFF_SCHEME, PREVIEW_SCHEME } from "./context-preview";
import { exactCounts } from "./exact-counts";
import type { ExplorerPanel } from "./explorer-panel";
import { createLog, type Log } from "./log";
import { ModelPrices } from "./model-prices";
import { openListedSessions } from "./open-listed";
import { PanelRegistry } from "./panel-registry";
import { SessionCosts } from "./session-costs";
import type { SearchView } from "./search-view";
import { SessionsView } from "./sessions-view";
import { readSettings } from "./settings";
import { watchSettings } from "./settings-watch";

/** What activate() returns: a small API for other extensions and the extension tests. */
export interface ExtensionApi {
  panels(): string[];
  panelFor(file: string): ExplorerPanel | undefined;
  sessionsView: SessionsView;
  /** The Search Results view's provider (its results, for the extension tests). */
  searchView: SearchView;
  /** The Agent History view's provider and agent blame (for the extension tests). */
  agentHistory: AgentHistoryView;
  agentBlame: AgentBlame;
  /** What the log's "activated in N ms" line says, for the extension tests. */
  activation: ActivationStats;
  /** The extension's log folder (context.logUri): the log channel's file is in or beside it. */
  logDir: string;
  /** The MCP server definition provider (`ase mcp`), where VS Code has the API. */
  mcp?: McpDefinitionProvider;
}

export interface ActivationStats {
  /** From the first module code of dist/extension.js to the end of activate(). */
  ms: number;
  /** Of which activate() itself. */
  activateMs: number;
  /** Heavy bundles (tokenizer, anthropic-sdk) loaded by then: none is expected. */
  bundlesLoaded: string[];
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const activateStarted = performance.now();
  const log = createLog(vscode.window);
  context.subscriptions.push(log);
  const cacheDir = context.globalStorageUri.fsPath;
  const prices = new ModelPrices(() => readSettings().modelPrices, log);
  // Read at once, so that bad entries are in the log before any cost is shown.
  prices.get();
  const costs = new SessionCosts(() => prices.get());
  const view = new SessionsView(cacheDir, log, costs, vscode.Uri.joinPath(context.extensionUri, "media", "agents"));
  context.subscriptions.push(view, vscode.window.registerTreeDataProvider("agentSessions.sessions", view));
  const { previews, diffs } = registerPreviews(context);
  const panels = new PanelRegistry(context.extensionUri, {
    log,
    tokenOptions: () => {
      const st = readSettings();
      return { reserveTokens: st.reserveTokens, windows: st.contextWindows };
    },
    countExact: exactCounts(cacheDir),
    prices: () => prices.get(),
    runAction: (action, f, id) => runEntryAction(deps, action, f, id),
    titleOf: (f) => view.titleOf(f),
  });
  context.subscriptions.push(panels);
  const deps: CommandDeps = {
    log, secrets: context.secrets, previews, diffs, view, costs,
    session: (f) => panels.session(f),
    openSession: (uri, entryId) => panels.open(uri, entryId),
    activeFile: () => panels.active()?.file,
  };
  for (const register of [registerOpenCommands, registerContextCommands, registerForkCommands, registerEntryEditCommands, registerCompactCommands, registerCostCommands, registerApiKeyCommands, registerSessionsListCommands, registerExportCommands]) register(context, deps);
  registerEntryMenu(context, panels);
  registerCopyMarkdown(context, panels, log);
  const search = registerSearch(context, log, view);
  const history = registerAgentHistory(context, log, cacheDir);
  watchSettings(context, { view, prices, costs, panels });
  openListedSessions(context, log, (file) => panels.open(vscode.Uri.file(file)));
  const mcp = registerMcpDefinition(context, log);
  const activation = activationStats(log, activateStarted);
  return { panels: () => panels.files(), panelFor: (f) => panels.get(f), sessionsView: view, searchView: search, agentHistory: history.view, agentBlame: history.blame, activation, logDir: context.logUri.fsPath, mcp };
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}

/** The documents Preview Context and Compare Contexts open. */
function registerPreviews(context: vscode.ExtensionContext): { previews: ContextPreviewProvider; diffs: ContextPreviewProvider } {
  const previews = new ContextPreviewProvider();
  context.subscriptions.push(previews, vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews));
  const diffs = new ContextPreviewProvider("This comparison is no longer available; run Compare Contexts again.");
  context.subscriptions.push(diffs, vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, diffs));
  return { previews, diffs };
}

/** How long activation took, logged in one line (the extension tests read it back). */
function activationStats(log: Log, activateStarted: number): ActivationStats {
  const end = performance.now();
  const activation: ActivationStats = { ms: end - moduleCodeStarted, activateMs: end - activateStarted, bundlesLoaded: loadedBundles() };
  const heavy = activation.bundlesLoaded.length ? `; loaded ${activation.bundlesLoaded.join(", ")}` : "";
  log.info(
    `activated in ${activation.ms.toFixed(0)} ms (activate() ${activation.activateMs.toFixed(0)} ms${heavy}; ${vscode.env.appName} ${vscode.version}, ui ${vscode.env.uiKind === vscode.UIKind.Web ? "web" : "desktop"})`,
  );
  return activation;
}
