import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import * as vscode from "vscode";
import { explorerHtml } from "../../webview/html-template";
import { firstPartFor } from "../core/store/first-look";
import { JsonlSession, StaleSessionError } from "../core/session/jsonl-session";
import { openSession } from "../core/formats/registry";
import type { LeafTokenOptions } from "../core/formats/pi/tokens/leaf-tokens";
import { sessionTitle } from "../core/util/session-title";
import { loadedTitleFacts } from "../core/formats/title-facts";
import { LiveTail } from "../explorer/live-tail";
import { ExplorerController, type ExplorerRequest, quoteId, type ViewState } from "../explorer/controller";
import type { CountExact } from "../explorer/exact-counting";
import { type CostView, type EntryAction, type HostToWebview, type LoadingMessage, isWebviewToHost, type ReplyResults, type RequestType, type SessionInfoView, type WebviewToHost } from "../protocol";
import { Disposable } from "./dispose";
import { watchFile } from "./file-watch";
import type { Log } from "./log";
import type { PriceOverrides } from "../core/tokens/prices";

export const EXPLORER_VIEW_TYPE = "agentSessions.explorer";

export interface PanelDeps {
  extensionUri: vscode.Uri;
  log: Log;
  /** Reserve and context windows for the token bars (from the settings, read each time). */
  tokenOptions(): LeafTokenOptions;
  /** Exact counting for the table in the background (setting tokenCounting = exact); resolves when done. */
  countExact?: CountExact;
  /** Prices for the cost (agentSessions.modelPrices, validated); a new object when the setting changes. */
  prices?(): PriceOverrides;
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
 * One Session Explorer panel per file: VS Code's side of it (the webview, loading with
 * progress, the file watcher, opening files, actions as commands, notices) over an
 * ExplorerController, which holds the loaded session and answers the webview.
 */
export class ExplorerPanel extends Disposable {
  /** The loaded session and what the webview sees of it (undefined until loaded, or after a failed load). */
  private controller: ExplorerController | undefined;
  /** View state the webview restored before the session was loaded. */
  private restored: ViewState | undefined;
  private loading: Promise<void> | undefined;
  /** Reads appended lines while the panel is open; a rewritten file is loaded again. */
  private readonly tail = new LiveTail({
    session: () => this.session,
    changed: () => this.showAdded({ followDefault: true }),
    reload: async (err) => {
      this.deps.log.warn(err.message);
      this.post({ type: "notice", level: "warning", text: `${this.file.split(/[\\/]/).pop()} was rewritten on disk; reloaded it.` });
      this.stats.reloads++;
      this.loading = this.load();
      await this.loading;
    },
    failed: (err) => this.deps.log.error(`${this.file}: ${err.message}`),
  });
  /** What the panel has done, for the log and the extension tests. */
  readonly stats: {
    inits: number; rowRequests: number; rowsServed: number; changes: number; reloads: number; errors: number; barUpdates: number; loadFailures: number;
    /** A large session's first part, shown while the rest was read. */
    firstLook?: { entries: number; bytes: number; ms: number };
    /** The last notice the panel showed (a refused action says why here). */
    lastNotice?: string;
    /** The session's cost as last sent (init, sessionChanged or a prices change). */
    lastCost?: CostView;
  } = { inits: 0, rowRequests: 0, rowsServed: 0, changes: 0, reloads: 0, errors: 0, barUpdates: 0, loadFailures: 0 };

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
    this.register(watchFile(file, () => void this.onFileChanged()));
    this.loading = this.load();
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.loadAbort.abort(new Error("the explorer was closed"));
    this.controller?.dispose();
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

  /** The loaded session (the freshest copy of the file while the panel is open). */
  get session(): JsonlSession | undefined {
    return this.controller?.session as JsonlSession | undefined;
  }

  /** The session header the webview is sent (agent, format, unavailable actions), for the extension tests. */
  sessionInfo(): SessionInfoView | undefined {
    return this.controller?.info();
  }

  /** Resolves once the whole session is loaded (or failed to load). */
  whenLoaded(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }

  /** Resolves once there are rows to show: the first part of a large session, or all of it. */
  private whenShown(): Promise<void> {
    return this.shownPart ?? this.whenLoaded();
  }

  private shownPart: Promise<void> | undefined;

  /** Whether the webview has said it is ready (messages before that may be lost). */
  private webviewReady = false;
  /** The latest progress of a load still running, for a webview that comes up during it. */
  private loadProgress: LoadingMessage | undefined;

  /** Why the last load failed; cleared when a new one starts (Retry, or the file changed). */
  private loadError: string | undefined;

  /** Why the session could not be loaded, while that is so (for the extension tests). */
  get failure(): string | undefined {
    return this.loadError;
  }
  private retrying = false;

  /** Loads the session again after a failed load; the webview gets init or loadFailed. */
  private async retryLoad(why: string): Promise<void> {
    if (this.retrying || this.session || this.isDisposed) return;
    this.retrying = true;
    try {
      this.deps.log.info(`loading ${this.file} again (${why})`);
      this.loadError = undefined;
      this.loadProgress = undefined;
      this.loading = this.load();
      await this.whenShown();
      if (this.session && this.webviewReady) this.postInit();
      await this.loading;
    } finally {
      this.retrying = false;
    }
  }

  /** Stops a load still running when the panel closes (a 1 GB session takes seconds). */
  private readonly loadAbort = new AbortController();

  private load(): Promise<void> {
    let shown!: () => void;
    this.shownPart = new Promise<void>((resolve) => (shown = resolve));
    const done = this.loadAll(shown);
    void done.finally(shown);
    return done;
  }

  /**
   * Loads the session; a large one is shown from its first part (`shown` is called
   * then; see first-look.ts) while the rest is read, which then arrives as appended
   * entries do.
   */
  private async loadAll(shown: () => void, attempt = 1): Promise<void> {
    const t0 = Date.now();
    const name = this.file.split(/[\\/]/).pop();
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: `Loading ${name}` }, async (progress) => {
        let pct = -1;
        const onProgress = (done: number, total: number) => {
          const now = total ? Math.floor((100 * done) / total) : 100;
          if (now === pct) return;
          pct = now;
          progress.report({ message: `${now}%` });
          this.loadProgress = { type: "loading", bytesRead: done, totalBytes: total };
          if (this.webviewReady) this.post(this.loadProgress);
        };
        let size = 0;
        try {
          size = statSync(this.file).size;
        } catch {
          // The load says what is wrong with the file.
        }
        const s = await openSession(this.file, { signal: this.loadAbort.signal, onProgress, firstPart: firstPartFor(size) });
        if (!(s instanceof JsonlSession)) throw new Error(`${this.file}: not a session file`);
        this.show(s);
        // Titled again once read: a panel restored after a reload was made before the
        // Sessions view had listed anything (its title was the file name); a file the view
        // does not list is titled by what its lines say.
        this.panel.title = this.deps.titleOf?.(this.file) ?? sessionTitle(loadedTitleFacts(s), this.file, 60);
        shown();
        // A reload (the file was rewritten): the webview is up and gets the new session now.
        if (this.controller?.entriesTold !== undefined) this.postInit();
        if (s.complete) return;
        this.stats.firstLook = { entries: s.metas.length, bytes: s.size, ms: Date.now() - t0 };
        this.deps.log.info(`showing the first ${s.metas.length} entries of ${this.file} (${s.size} of ${size} bytes) after ${Date.now() - t0} ms; reading the rest`);
        await this.readRest(s, onProgress);
      });
      const s = this.session as JsonlSession;
      this.deps.log.info(`opened ${this.file}: ${s.metas.length} entries indexed in ${Date.now() - t0} ms${s.threads > 1 ? " on two threads" : ""}`);
      if (s.workerFailure) this.deps.log.warn(`${this.file}: indexed on one thread (the index worker failed: ${s.workerFailure})`);
      const count = s.problemCount;
      if (count) this.deps.log.warn(`${this.file}: ${count} problem(s): ${s.problems.slice(0, 5).map((p) => p.message).join("; ")}`);
    } catch (err) {
      this.controller?.dispose();
      this.controller = undefined;
      // Rewritten while the rest of a large file was read: read it again from the start.
      if (err instanceof StaleSessionError && !this.loadAbort.signal.aborted && attempt < 3) {
        this.deps.log.warn(`${err.message}; reading it again`);
        return this.loadAll(shown, attempt + 1);
      }
      if (this.loadAbort.signal.aborted) {
        this.deps.log.info(`stopped loading ${this.file}: the explorer was closed`);
        return;
      }
      this.deps.log.error(`cannot open ${this.file}: ${(err as Error).message}`);
      this.loadError = (err as Error).message;
      // Before the webview's ready, the ready handler sends it.
      this.stats.loadFailures++;
      if (this.webviewReady) this.post({ type: "loadFailed", file: this.file, reason: this.loadError });
    }
  }

  /** Makes a loaded session (whole or a first part) the one the panel shows. */
  private show(s: JsonlSession): void {
    if (!this.controller) {
      this.controller = new ExplorerController(
        s,
        {
          trusted: () => vscode.workspace.isTrusted,
          tokenOptions: () => this.deps.tokenOptions(),
          countExact: this.deps.countExact,
          prices: this.deps.prices,
          folders: () => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
          post: (m) => this.post(m),
          log: this.deps.log,
        },
        this.restored,
      );
      return;
    }
    this.controller.setSession(s);
    if (this.restored) this.controller.restore(this.restored);
  }

  /** Reads what a first look left out; the tail watcher waits meanwhile. */
  private readRest(s: JsonlSession, onProgress: (done: number, total: number) => void): Promise<void> {
    return this.tail.whileReading(async () => {
      await s.refresh({ signal: this.loadAbort.signal, onProgress });
      // The reader's choice of entry stays; without one the view follows the default leaf.
      this.showAdded({ followDefault: false });
    });
  }

  /** Entry count the webview was last told about (actions may append through our session). */
  get entriesShown(): number {
    return this.controller?.entriesTold ?? 0;
  }

  /** Tells the webview of entries added since it was last told (see ExplorerController.sessionChanged). */
  private showAdded(opts: { followDefault: boolean }): void {
    const msg = this.controller?.sessionChanged(opts);
    if (msg) this.post(msg);
  }

  /** The prices changed: the header's cost and the bars' costs again (once the webview has its init). */
  pricesChanged(): void {
    if (this.controller?.entriesTold !== undefined) this.post(this.controller.costChanged());
  }

  private postInit(): void {
    if (!this.controller) return;
    this.post(this.controller.init());
    // A webview that came up (or back: a hidden panel loses its webview) still has an entry to show.
    if (this.pendingShow !== undefined) this.post({ type: "showEntry", id: this.pendingShow });
  }

  /** An entry the webview is to select and show, until it asks the host to reveal it. */
  private pendingShow: string | undefined;

  /** The entry the webview last selected (clicked, or shown by showEntry), for the extension tests. */
  get selectedEntry(): string | undefined {
    return this.controller?.selectedEntry;
  }

  /**
   * Has the webview select an entry and show its row and details (a search hit opened
   * from VS Code), on a panel just created or long open. The message is posted again
   * after every init until the webview asks for the entry, so a webview still loading,
   * or reloading after the panel was hidden, gets it too. Throws when the session has
   * no such entry (the file was rewritten since the search).
   */
  async showEntry(id: string): Promise<void> {
    await this.whenShown();
    const has = () => this.session?.tree.indexOf(id) !== undefined;
    // A large session's first part may not hold it yet; an entry appended since the load needs a refresh.
    if (!has()) await this.whenLoaded();
    if (!has()) await this.onFileChanged();
    if (!this.session) throw new Error(this.loadError ? `the session could not be loaded: ${this.loadError}` : "the session could not be loaded");
    if (!has()) throw new Error(`${this.file} has no entry ${quoteId(id)} (was the file rewritten since the search?)`);
    this.pendingShow = id;
    if (this.webviewReady && this.controller?.entriesTold !== undefined) this.post({ type: "showEntry", id });
  }

  private applyRestore(r: ViewState): void {
    if (this.controller) this.controller.restore(r);
    else this.restored = r;
  }

  private post(msg: HostToWebview): void {
    if (msg.type === "init") this.stats.inits++;
    else if (msg.type === "sessionChanged") this.stats.changes++;
    else if (msg.type === "bars") this.stats.barUpdates++;
    else if (msg.type === "notice") this.stats.lastNotice = msg.text;
    if (msg.type === "init" || msg.type === "sessionChanged" || msg.type === "cost") this.stats.lastCost = msg.cost;
    if (!this.isDisposed) void this.panel.webview.postMessage(msg);
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (!isWebviewToHost(raw)) {
      this.deps.log.warn(`ignored a malformed message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    const msg = raw as WebviewToHost;
    if (msg.type === "ready") {
      this.webviewReady = true;
      if (!this.session && this.loadProgress) this.post(this.loadProgress);
      await this.whenShown();
      // View state the webview saved before a reload: filter and folded branches.
      if (msg.restore) this.applyRestore(msg.restore);
      if (this.session) this.postInit();
      else if (this.loadError) this.post({ type: "loadFailed", file: this.file, reason: this.loadError });
      return;
    }
    if (msg.type === "retryLoad") {
      await this.retryLoad("Retry in the panel");
      return;
    }
    if (msg.type === "action") {
      await this.runAction(msg);
      return;
    }
    if (msg.type === "openFile") {
      await this.openFile(msg.path);
      return;
    }
    await this.onOtherMessage(msg);
  }

  /**
   * An action on an entry, from the detail pane's buttons or the webview's context menu:
   * refused with its reason where the session does not offer it, else run.
   */
  async runAction(msg: { action: EntryAction; id: string }): Promise<void> {
    await this.whenShown();
    const refusal = this.controller ? this.controller.actionRefusal(msg) : `${msg.action}: the session is not loaded`;
    if (refusal) {
      this.deps.log.warn(`refused an action from the webview: ${refusal}`);
      this.post({ type: "notice", level: "warning", text: refusal });
      return;
    }
    await this.deps.runAction(msg.action, this.file, msg.id);
  }

  private async onOtherMessage(msg: WebviewToHost): Promise<void> {
    if (msg.type === "openSubagent") {
      const inline = this.controller?.inlineSubagentEntry(msg.entryId, msg.agentId);
      if (inline) {
        await this.showEntry(inline);
        return;
      }
      const path = this.controller?.subagentToOpen(msg.entryId, msg.agentId);
      if (path) await vscode.commands.executeCommand("agentSessions.openSession", vscode.Uri.file(path));
      else this.deps.log.warn(`no sub-agent transcript to open for ${JSON.stringify(msg.entryId).slice(0, 100)}`);
      return;
    }
    if (!("requestId" in msg)) return;
    if (msg.type === "reveal" && msg.id === this.pendingShow) this.pendingShow = undefined;
    try {
      const result = await this.answer(msg);
      this.post({ type: "reply", requestId: msg.requestId, ok: true, result });
    } catch (err) {
      this.stats.errors++;
      this.deps.log.error(`${msg.type} request failed: ${(err as Error).stack ?? err}`);
      this.post({ type: "reply", requestId: msg.requestId, ok: false, error: (err as Error).message });
    }
  }

  /**
   * What a request of the webview gets back (rows, details, select, ...): public so the
   * extension tests can ask what the webview would, e.g. select a row near the end of
   * a 1 GB session. Throws what the webview shows as an error notice.
   */
  async answer<T extends RequestType>(msg: Extract<ExplorerRequest, { type: T }>): Promise<ReplyResults[T]>;
  async answer(msg: ExplorerRequest): Promise<ReplyResults[RequestType]> {
    await this.whenShown();
    const c = this.controller;
    if (!c) throw new Error(this.loadError ? `the session could not be loaded: ${this.loadError}` : "the session could not be loaded");
    const result = await c.answerAsync(msg);
    if (msg.type === "rows") {
      this.stats.rowRequests++;
      this.stats.rowsServed += (result as ReplyResults["rows"]).rows.length;
    }
    return result;
  }

  private async openFile(p: string): Promise<void> {
    const to = this.controller?.fileToOpen(p) ?? { kind: "notOffered" };
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

  /** Appended lines are tailed by offset; a rewritten or shrunk file is reloaded whole. */
  async onFileChanged(): Promise<void> {
    if (this.isDisposed) return;
    // A file that could not be loaded may have been fixed (or finished being written).
    if (!this.session) {
      if (this.loadError) await this.retryLoad("the file changed");
      return;
    }
    await this.tail.fileChanged();
  }
}
