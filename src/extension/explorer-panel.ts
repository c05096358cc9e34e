import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import { explorerHtml } from "../../webview/html-template";
import { sessionTitle } from "../core/util/session-title";
import { loadedTitleFacts } from "../core/formats/title-facts";
import type { ExplorerOptions, ExplorerRequest } from "../explorer/controller";
import type { ExplorerStats } from "../explorer/explorer-stats";
import type { LiveSession } from "../explorer/live-session";
import { SessionLifecycle } from "../explorer/session-lifecycle";
import { type EntryAction, type HostToWebview, isWebviewToHost, type ReplyResults, type RequestType, type SessionInfoView, type WebviewToHost } from "../protocol";
import { Disposable } from "./dispose";
import { watchSession } from "./file-watch";
import type { Log } from "./log";

export const EXPLORER_VIEW_TYPE = "agentSessions.explorer";

/** countExact: exact counts in the background (tokenCounting = exact); prices: agentSessions.modelPrices, validated. */
export interface PanelDeps extends Pick<ExplorerOptions, "countExact" | "prices"> {
  extensionUri: vscode.Uri;
  log: Log;
  /** Reserve and context windows for the token bars (from the settings, read each time). */
  tokenOptions: NonNullable<ExplorerOptions["tokenOptions"]>;
  /** Runs an entry action (fork, continue, label, preview, compact) from the webview. */
  runAction(action: EntryAction, file: string, entryId: string): Promise<void>;
  onDidDispose(panel: ExplorerPanel): void;
  /** The session's title as the Sessions view lists it (a fork named after its source); undefined when not listed. */
  titleOf?(file: string): string | undefined;
}

/** State the webview persists and the serializer hands back after a reload. */
export interface PanelState {
  file: string;
}

/**
 * One Session Explorer panel per file: VS Code's side of it (the webview, progress in
 * the status bar, the file watcher, opening files, actions as commands) over a
 * SessionLifecycle, which loads the session, tails it and answers the webview.
 */
export class ExplorerPanel extends Disposable {
  private readonly life: SessionLifecycle;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly file: string,
    private readonly deps: PanelDeps,
  ) {
    super();
    const dist = vscode.Uri.joinPath(deps.extensionUri, "dist");
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    // A title, as VS Code's own editors show names: the path is in the tooltip (panels have none) and the explorer's header.
    panel.title = deps.titleOf?.(file) ?? sessionTitle(undefined, file, 60);
    panel.iconPath = vscode.Uri.joinPath(deps.extensionUri, "media", "icon.png");
    panel.webview.html = this.html();
    this.register(panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)));
    this.register(panel.onDidDispose(() => this.dispose()));
    this.register(watchSession(file, () => void this.onFileChanged()));
    this.life = new SessionLifecycle(file, {
      withProgress: async (title, work) => {
        await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title }, (progress) => work((pct) => progress.report({ message: `${pct}%` })));
      },
      send: (msg) => this.send(msg),
      log: deps.log,
      explorer: {
        trusted: () => vscode.workspace.isTrusted,
        tokenOptions: deps.tokenOptions,
        countExact: deps.countExact,
        prices: deps.prices,
        folders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
        titleOf: (f) => deps.titleOf?.(f),
      },
      // Titled again once read: a panel restored after a reload was made before the
      // Sessions view had listed anything (its title was the file name); a file the view
      // does not list is titled by what its lines say.
      read: (s) => (panel.title = deps.titleOf?.(file) ?? sessionTitle(loadedTitleFacts(s), file, 60)),
    });
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.life.dispose();
    super.dispose();
    this.deps.onDidDispose(this);
  }

  private html(): string {
    const w = this.panel.webview;
    const dist = vscode.Uri.joinPath(this.deps.extensionUri, "dist", "webview");
    return explorerHtml({
      cspSource: w.cspSource,
      nonce: randomBytes(18).toString("base64url"),
      scriptUri: w.asWebviewUri(vscode.Uri.joinPath(dist, "main.js")).toString(),
      styleUri: w.asWebviewUri(vscode.Uri.joinPath(dist, "explorer.css")).toString(),
      codiconUri: w.asWebviewUri(vscode.Uri.joinPath(dist, "codicon.css")).toString(),
      title: this.panel.title,
      file: this.file,
    });
  }

  /** What the panel has done, for the log and the extension tests. */
  get stats(): ExplorerStats {
    return this.life.stats;
  }

  /** The loaded session (the freshest copy of the file while the panel is open). */
  get session(): LiveSession | undefined {
    return this.life.session;
  }

  /** The session header the webview is sent (agent, format, unavailable actions), for the extension tests. */
  sessionInfo(): SessionInfoView | undefined {
    return this.life.explorer?.info();
  }

  /** Resolves once the whole session is loaded (or failed to load). */
  whenLoaded(): Promise<void> {
    return this.life.whenLoaded();
  }

  /** Why the session could not be loaded, while that is so (for the extension tests). */
  get failure(): string | undefined {
    return this.life.failure;
  }

  /** Entry count the webview was last told about (actions may append through our session). */
  get entriesShown(): number {
    return this.life.entriesShown;
  }

  /** The entry the webview last selected (clicked, or shown by showEntry), for the extension tests. */
  get selectedEntry(): string | undefined {
    return this.life.explorer?.selectedEntry;
  }

  /** The prices changed: the header's cost and the bars' costs again. */
  pricesChanged(): void {
    this.life.pricesChanged();
  }

  /** Has the webview select an entry and show its row and details (a search hit opened from VS Code). */
  showEntry(id: string): Promise<void> {
    return this.life.showEntry(id);
  }

  /** Appended lines are tailed by offset; a rewritten or shrunk file is reloaded whole. */
  onFileChanged(): Promise<void> {
    return this.life.fileChanged();
  }

  /**
   * What a request of the webview gets back (rows, details, select, ...): public so the
   * extension tests can ask what the webview would, e.g. select a row near the end of
   * a 1 GB session. Throws what the webview shows as an error notice.
   */
  answer<T extends RequestType>(msg: Extract<ExplorerRequest, { type: T }>): Promise<ReplyResults[T]> {
    return this.life.answer(msg);
  }

  /**
   * An action on an entry, from the detail pane's buttons or the webview's context menu:
   * refused with its reason where the session does not offer it, else run.
   */
  async runAction(msg: { action: EntryAction; id: string }): Promise<void> {
    await this.life.whenShown();
    const c = this.life.explorer;
    const refusal = c ? c.actionRefusal(msg) : `${msg.action}: the session is not loaded`;
    if (refusal) {
      this.deps.log.warn(`refused an action from the webview: ${refusal}`);
      this.life.post({ type: "notice", level: "warning", text: refusal });
      return;
    }
    await this.deps.runAction(msg.action, this.file, msg.id);
  }

  private send(msg: HostToWebview): void {
    if (!this.isDisposed) void this.panel.webview.postMessage(msg);
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (!isWebviewToHost(raw)) {
      this.deps.log.warn(`ignored a malformed message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    const msg = raw as WebviewToHost;
    if (msg.type === "ready") await this.life.ready(msg.restore);
    else if (msg.type === "retryLoad") await this.life.retry("Retry in the panel");
    else if (msg.type === "action") await this.runAction(msg);
    else if (msg.type === "openFile") await this.openFile(msg.path);
    else if (msg.type === "openSubagent") await this.openSubagent(msg.entryId, msg.agentId);
    else if ("requestId" in msg) await this.life.respond(msg);
  }

  /** A sub-agent's run: shown in place when the session holds it inline, else its own transcript opened. */
  private async openSubagent(entryId: string, agentId: string): Promise<void> {
    const inline = this.life.explorer?.inlineSubagentEntry(entryId, agentId);
    if (inline) {
      await this.showEntry(inline);
      return;
    }
    const path = this.life.explorer?.subagentToOpen(entryId, agentId);
    if (path) await vscode.commands.executeCommand("agentSessions.openSession", vscode.Uri.file(path));
    else this.deps.log.warn(`no sub-agent transcript to open for ${JSON.stringify(entryId).slice(0, 100)}`);
  }

  private async openFile(p: string): Promise<void> {
    const to = this.life.explorer?.fileToOpen(p) ?? { kind: "notOffered" };
    if (to.kind === "notOffered") {
      this.deps.log.warn(`ignored a request to open a file the explorer did not offer: ${JSON.stringify(p).slice(0, 300)}`);
      return;
    }
    if (to.kind === "missing") {
      void vscode.window.showWarningMessage(`${p} does not exist on this machine.`);
      return;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(to.path), { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }
}
