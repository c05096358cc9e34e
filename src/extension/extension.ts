import { moduleCodeStarted } from "./load-clock";
import * as vscode from "vscode";
import { loadedBundles } from "../core/lazy/lazy-bundles";
import type { Session as PiSession } from "../core/formats/pi/pi-session";
import { openSession as loadAnySession } from "../core/formats/registry";
import type { SessionReader } from "../core/session/session-reader";
import { join } from "node:path";
import { gptTokenizerCounter } from "../core/tokens/bpe-counter";
import { type EntryTokens, measureEntries } from "../core/formats/pi/tokens/entry-tokens";
import { TokenCache, tokenCacheFile } from "../core/tokens/token-cache";
import type { ActionDeps } from "./actions";
import { type CommandDeps, registerCommands, runEntryAction } from "./commands";
import { ContextPreviewProvider, DIFF_SCHEME, PREVIEW_SCHEME } from "./context-preview";
import { EXPLORER_VIEW_TYPE, ExplorerPanel, type PanelState } from "./explorer-panel";
import { createLog } from "./log";
import { OPEN_ON_START, type RefusedOpen, sessionsToOpen } from "./open-on-start";

/** workspaceState: the open.json list last opened (see activate). */
/** The entry actions the webview's context menu offers (package.json: agentSessions.menu.<action>). */
const MENU_ACTIONS = ["fork", "continue", "label", "previewContext", "compareContext", "compactionChange", "compact"] as const;

const OPENED_KEY = "agentSessions.openJsonOpened";
import { registerSearchCommands } from "./search-command";
import { SEARCH_VIEW_ID, SearchView } from "./search-view";
import { agentDirs, SessionsView } from "./sessions-view";
import { ModelPrices } from "./model-prices";
import { SessionCosts } from "./session-costs";
import { readSettings } from "./settings";

/** What activate() returns: a small API for other extensions and the extension tests. */
export interface ExtensionApi {
  panels(): string[];
  panelFor(file: string): ExplorerPanel | undefined;
  sessionsView: SessionsView;
  /** The Search Results view's provider (its results, for the extension tests). */
  searchView: SearchView;
  /** What the log's "activated in N ms" line says, for the extension tests. */
  activation: ActivationStats;
  /** The extension's log folder (context.logUri): the log channel's file is in or beside it. */
  logDir: string;
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
  const previews = new ContextPreviewProvider();
  context.subscriptions.push(previews, vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews));
  const diffs = new ContextPreviewProvider("This comparison is no longer available; run Compare Contexts again.");
  context.subscriptions.push(diffs, vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, diffs));

  const panels = new Map<string, ExplorerPanel>();
  const setActiveContext = () => void vscode.commands.executeCommand("setContext", "agentSessions.explorerActive", [...panels.values()].some((p) => p.panel.active));

  const tokenOptions = () => {
    const st = readSettings();
    return { reserveTokens: st.reserveTokens, windows: st.contextWindows };
  };
  /** tokenCounting = exact: BPE counts in the background, cached by content hash per session. */
  const countExact = async (s: PiSession, table: EntryTokens[], indices: number[] | undefined, signal: AbortSignal) => {
    if (readSettings().tokenCounting !== "exact") return;
    const cache = TokenCache.open(tokenCacheFile(join(cacheDir, "tokens"), s.path), "o200k_base");
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Counting tokens" }, (progress) =>
        measureEntries(s, table, { counter: gptTokenizerCounter(), cache, indices, signal, onProgress: (done, total) => progress.report({ message: `${Math.round((100 * done) / Math.max(total, 1))}%` }) }),
      );
    } finally {
      cache.save();
    }
  };

  let commandDeps: CommandDeps;
  const createPanel = (panel: vscode.WebviewPanel, file: string) => {
    const p = new ExplorerPanel(panel, file, {
      extensionUri: context.extensionUri,
      log,
      tokenOptions,
      countExact,
      prices: () => prices.get(),
      runAction: (action, f, id) => runEntryAction(commandDeps, action, f, id),
      titleOf: (f) => view.titleOf(f),
      onDidDispose: (gone) => {
        if (panels.get(gone.file) === gone) panels.delete(gone.file);
        setActiveContext();
      },
    });
    panels.set(file, p);
    panel.onDidChangeViewState(setActiveContext);
    setActiveContext();
    return p;
  };

  /** Opens (or focuses) the explorer on a session; with an entry id, that entry is selected and shown. */
  const openSession = async (uri: vscode.Uri, entryId?: string) => {
    const file = uri.fsPath;
    const existing = panels.get(file);
    if (existing) {
      existing.panel.reveal();
      if (entryId !== undefined) await existing.showEntry(entryId);
      return;
    }
    const panel = vscode.window.createWebviewPanel(EXPLORER_VIEW_TYPE, "Session", vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, "dist")],
    });
    const p = createPanel(panel, file);
    if (entryId !== undefined) await p.showEntry(entryId);
    await p.whenLoaded();
  };

  /** An open panel's session is the freshest copy (it tails the file); else load one. */
  const session = async (file: string): Promise<SessionReader> => {
    const p = panels.get(file);
    if (p) {
      await p.whenLoaded();
      if (p.session) {
        await p.onFileChanged();
        return p.session;
      }
    }
    return loadAnySession(file);
  };

  const actionDeps: ActionDeps = { log, secrets: context.secrets, previews, diffs, session, openSession };
  commandDeps = {
    ...actionDeps,
    view,
    costs,
    activeFile: () => [...panels.values()].find((p) => p.panel.active)?.file,
  };
  registerCommands(context, commandDeps);
  // The webview's context menu (rows and bars): the entry it was opened on, in the panel in front.
  for (const action of MENU_ACTIONS) {
    context.subscriptions.push(
      vscode.commands.registerCommand(`agentSessions.menu.${action}`, async (ctx: unknown) => {
        const { entryId: id, sessionPath } = (ctx ?? {}) as { entryId?: unknown; sessionPath?: unknown };
        // The panel whose webview the menu was opened in (its session's path), else the one in front.
        const p = (typeof sessionPath === "string" ? panels.get(sessionPath) : undefined) ?? [...panels.values()].find((x) => x.panel.active);
        if (p && typeof id === "string" && id.length <= 200) await p.runAction({ action, id });
      }),
    );
  }

  const search = new SearchView({
    log,
    dirs: agentDirs,
    listedTitle: (path) => {
      const s = view.allSessions().find((x) => x.path === path);
      return s ? s.name ?? (s.firstMessage || undefined) : undefined;
    },
  });
  const searchTree = vscode.window.createTreeView(SEARCH_VIEW_ID, { treeDataProvider: search });
  search.attach(searchTree);
  context.subscriptions.push(search, searchTree);
  registerSearchCommands(context, { log, search, sessions: view, dirs: agentDirs });

  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(EXPLORER_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        const file = (state as Partial<PanelState> | undefined)?.file;
        if (typeof file !== "string" || panels.has(file)) {
          panel.dispose();
          return;
        }
        createPanel(panel, file);
      },
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("agentSessions.sessionsDirectory") || e.affectsConfiguration("agentSessions.agentDirectories")) void view.refresh();
      if (e.affectsConfiguration("agentSessions.modelPrices")) {
        prices.reset();
        costs.clear();
        prices.get();
        for (const p of panels.values()) p.pricesChanged();
        view.costsChanged();
      } else if (e.affectsConfiguration("agentSessions.showCost")) {
        view.costsChanged();
      }
      if (e.affectsConfiguration("agentSessions.geminiHome")) void view.refresh();
    }),
  );
  const openListed = (files: string[]) => {
    // A workspace that lists sessions wants them in front: show our view too.
    if (files.length) void vscode.commands.executeCommand("workbench.view.extension.agentSessions");
    for (const file of files) void openSession(vscode.Uri.file(file)).catch((err) => log.error(`cannot open ${file}: ${(err as Error).message}`));
  };
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const listed = sessionsToOpen(folders(), vscode.workspace.isTrusted, log);
  let refused: RefusedOpen[] = listed.refused;
  for (const r of refused) log.warn(r.message);
  if (refused.length) {
    const more = refused.length > 1 ? ` (and ${refused.length - 1} more: see the Agent Sessions log)` : "";
    void vscode.window.showWarningMessage(`${refused[0].message}${more}.`);
  }
  // open.json opens its sessions once per workspace (and again when its list changes):
  // after that VS Code's own editor restore brings back what the user kept open, and a
  // window reload does not pull a listed session in front of the one being read.
  const listKey = JSON.stringify([...listed.open].sort());
  if (listed.open.length && context.workspaceState.get<string>(OPENED_KEY) === listKey) {
    log.info(`${OPEN_ON_START}: its ${listed.open.length} session(s) were opened before in this workspace; the restored editor layout keeps what is open`);
  } else {
    openListed(listed.open);
    void context.workspaceState.update(OPENED_KEY, listed.open.length ? listKey : undefined);
  }
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      log.info("workspace trusted: writing actions enabled");
      // What open.json listed outside the folders may open now that the user trusts it.
      const later = refused.map((r) => r.path);
      refused = [];
      openListed(later);
    }),
  );
  const end = performance.now();
  const activation: ActivationStats = { ms: end - moduleCodeStarted, activateMs: end - activateStarted, bundlesLoaded: loadedBundles() };
  const heavy = activation.bundlesLoaded.length ? `; loaded ${activation.bundlesLoaded.join(", ")}` : "";
  log.info(
    `activated in ${activation.ms.toFixed(0)} ms (activate() ${activation.activateMs.toFixed(0)} ms${heavy}; ${vscode.env.appName} ${vscode.version}, ui ${vscode.env.uiKind === vscode.UIKind.Web ? "web" : "desktop"})`,
  );
  return { panels: () => [...panels.keys()], panelFor: (f) => panels.get(f), sessionsView: view, searchView: search, activation, logDir: context.logUri.fsPath };
}

export function deactivate(): void {
  // Everything is in context.subscriptions.
}
