import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as vscode from "vscode";
import { explorerHtml } from "../../webview/html-template";
import { fileActivity } from "../core/files/file-ops";
import { firstPartFor } from "../core/store/first-look";
import { StaleSessionError } from "../core/store/session";
import { Session } from "../core/formats/pi/pi-session";
import { RowView, sessionInfoView } from "../explorer/row-view";
import { entryDetails } from "../explorer/entry-details";
import {
  type EntryAction,
  type HostToWebview,
  type LoadingMessage,
  isWebviewToHost,
  type ReplyResults,
  type RequestType,
  type RowFilter,
  type SessionInfoView,
  type TokenBar,
  type WebviewToHost,
} from "../protocol";
import { instantTokens, type EntryTokens } from "../core/tokens/entry-tokens";
import { Disposable } from "./dispose";
import { watchFile } from "./file-watch";
import type { Log } from "./log";
import { pushAll } from "../core/util/push-all";
import { clipText, visibleText } from "../core/util/visible-text";

export const EXPLORER_VIEW_TYPE = "agentSessions.explorer";

export interface PanelDeps {
  extensionUri: vscode.Uri;
  log: Log;
  /** Token bars for the panel: default path, selected path and branches. */
  bars(session: Session, table: readonly EntryTokens[], selectedLeaf: number | undefined): TokenBar[];
  /** Exact counting for the table in the background (setting tokenCounting = exact); resolves when done. */
  countExact?(session: Session, table: EntryTokens[], indices: number[] | undefined, signal: AbortSignal): Promise<void>;
  /** Runs an entry action (fork, continue, label, preview, compact) from the webview. */
  runAction(action: EntryAction, file: string, entryId: string): Promise<void>;
  onDidDispose(panel: ExplorerPanel): void;
}

/** State the webview persists and the serializer hands back after a reload. */
export interface PanelState {
  file: string;
}

/**
 * One Session Explorer panel per file. Owns the loaded session and the row view
 * (filter, folds); answers the webview's requests; tails the file while open.
 */
export class ExplorerPanel extends Disposable {
  session: Session | undefined;
  /** Per-entry token figures: estimates at once, exact counts filled in when asked. */
  private table: EntryTokens[] = [];
  private counting: AbortController | undefined;
  /** Rows, filter, folds and the active leaf (undefined until the session is loaded). */
  private view: RowView | undefined;
  /** View state the webview restored before the session was loaded. */
  private restored: { filter: RowFilter; folded: string[] } | undefined;
  private loading: Promise<void> | undefined;
  private refreshing = false;
  private refreshAgain = false;
  /** What the panel has done, for the log and the extension tests. */
  readonly stats: {
    inits: number; rowRequests: number; rowsServed: number; changes: number; reloads: number; errors: number; barUpdates: number; loadFailures: number;
    /** A large session's first part, shown while the rest was read. */
    firstLook?: { entries: number; bytes: number; ms: number };
  } = { inits: 0, rowRequests: 0, rowsServed: 0, changes: 0, reloads: 0, errors: 0, barUpdates: 0, loadFailures: 0 };

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly file: string,
    private readonly deps: PanelDeps,
  ) {
    super();
    const dist = vscode.Uri.joinPath(deps.extensionUri, "dist");
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    panel.title = `Session: ${visibleText(clipText(file.split(/[\\/]/).pop() ?? file, 200))}`;
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
    this.counting?.abort();
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
          // Session.load says what is wrong with the file.
        }
        const s = await Session.load(this.file, { signal: this.loadAbort.signal, onProgress, firstPart: firstPartFor(size) });
        this.show(s);
        shown();
        // A reload (the file was rewritten): the webview is up and gets the new session now.
        if (this.initPosted) this.postInit();
        if (s.complete) return;
        this.stats.firstLook = { entries: s.metas.length, bytes: s.size, ms: Date.now() - t0 };
        this.deps.log.info(`showing the first ${s.metas.length} entries of ${this.file} (${s.size} of ${size} bytes) after ${Date.now() - t0} ms; reading the rest`);
        await this.readRest(s, onProgress);
      });
      const s = this.session as Session;
      this.deps.log.info(`opened ${this.file}: ${s.metas.length} entries indexed in ${Date.now() - t0} ms${s.threads > 1 ? " on two threads" : ""}`);
      if (s.workerFailure) this.deps.log.warn(`${this.file}: indexed on one thread (the index worker failed: ${s.workerFailure})`);
      const count = s.problemCount;
      if (count) this.deps.log.warn(`${this.file}: ${count} problem(s): ${s.problems.slice(0, 5).map((p) => p.message).join("; ")}`);
    } catch (err) {
      this.session = undefined;
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
      this.view = undefined;
      this.table = [];
      // Before the webview's ready, the ready handler sends it.
      this.stats.loadFailures++;
      if (this.webviewReady) this.post({ type: "loadFailed", file: this.file, reason: this.loadError });
    }
  }

  /** Makes a loaded session (whole or a first part) the one the panel shows. */
  private show(s: Session): void {
    this.session = s;
    this.table = instantTokens(s);
    if (this.view) this.view.setSession(s);
    else this.view = new RowView(s);
    if (this.restored) this.applyRestore(this.restored);
    if (s.complete) this.startCounting();
  }

  /** Reads what a first look left out; the tail watcher waits meanwhile. */
  private async readRest(s: Session, onProgress: (done: number, total: number) => void): Promise<void> {
    const outer = this.refreshing;
    this.refreshing = true;
    try {
      await s.refresh({ signal: this.loadAbort.signal, onProgress });
      // The reader's choice of entry stays; without one the view follows the default leaf.
      this.showAdded(false);
    } finally {
      if (!outer) this.refreshing = false;
    }
    if (!outer && this.refreshAgain) void this.onFileChanged();
  }

  /** Entry count the webview was last told about (actions may append through our session). */
  private shown = 0;
  get entriesShown(): number {
    return this.shown;
  }

  /** Whether the webview got an init (before that, entries added need no message). */
  private initPosted = false;

  /**
   * Entries added to the session since the webview was last told: token figures for
   * them, rows recomputed (following the default leaf when asked), and a message.
   * Counted against what the webview was shown: an action of ours may have appended
   * through this very session, so refresh() alone would report nothing new.
   */
  private showAdded(followDefault: boolean): void {
    const s = this.session;
    if (!s) return;
    // A change that added nothing (a touch, a check before an action) leaves all as it is.
    if (followDefault && s.metas.length <= this.shown) return;
    const known = this.table.length;
    if (s.metas.length > known) pushAll(this.table, instantTokens(s, known), known);
    if (this.view) {
      // New entries usually continue the default leaf: follow it.
      if (followDefault) this.view.selectedLeaf = undefined;
      this.view.recompute();
    }
    if (s.complete) this.startCounting();
    const added = s.metas.length - this.shown;
    // After a first look the message goes out even with nothing added: it ends the
    // webview's "reading the rest" state.
    if (this.initPosted && (added > 0 || !followDefault)) {
      this.post({ type: "sessionChanged", session: this.info(), rowCount: this.rowCount, added, bars: this.bars() });
    }
  }

  private postInit(): void {
    this.post({ type: "init", session: this.info(), rowCount: this.rowCount, filter: this.filter, bars: this.bars() });
  }

  private bars(): TokenBar[] {
    return this.session ? this.deps.bars(this.session, this.table, this.view?.selectedLeaf) : [];
  }

  private applyRestore(r: { filter: RowFilter; folded: string[] }): void {
    if (!this.view) {
      this.restored = r;
      return;
    }
    this.view.filter = r.filter;
    this.view.folded.clear();
    for (const id of r.folded) this.view.folded.add(id);
    this.view.recompute();
  }

  /**
   * Exact counts run after first paint and replace the estimates in the bars when done.
   * A restart (entries were appended) counts whatever the run it stops had not reached.
   */
  private startCounting(): void {
    const s = this.session;
    if (!s || !this.deps.countExact) return;
    const pending: number[] = [];
    for (let i = 0; i < this.table.length; i++) if (!this.table[i].measured) pending.push(i);
    if (!pending.length) return;
    const indices = pending.length === this.table.length ? undefined : pending;
    this.counting?.abort();
    const ctl = new AbortController();
    this.counting = ctl;
    this.deps.countExact(s, this.table, indices, ctl.signal).then(
      () => {
        if (!ctl.signal.aborted && this.session === s) this.post({ type: "bars", bars: this.bars() });
      },
      (err: unknown) => {
        if (!ctl.signal.aborted) this.deps.log.warn(`exact token counts stopped: ${(err as Error).message}`);
      },
    );
  }

  private post(msg: HostToWebview): void {
    if (msg.type === "init") this.stats.inits++;
    else if (msg.type === "sessionChanged") this.stats.changes++;
    else if (msg.type === "bars") this.stats.barUpdates++;
    if (msg.type === "init" || msg.type === "sessionChanged") this.shown = msg.session.entryCount;
    if (msg.type === "init") this.initPosted = true;
    if (!this.isDisposed) void this.panel.webview.postMessage(msg);
  }

  private info(): SessionInfoView {
    return sessionInfoView(this.session as Session, vscode.workspace.isTrusted);
  }

  private get rowCount(): number {
    return this.view?.rowCount ?? 0;
  }

  private get filter(): RowFilter {
    return this.view?.filter ?? "default";
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
      await this.deps.runAction(msg.action, this.file, msg.id);
      return;
    }
    if (msg.type === "openFile") {
      await this.openFile(msg.path);
      return;
    }
    if (!("requestId" in msg)) return;
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
  async answer<T extends RequestType>(msg: Extract<WebviewToHost, { type: T }>): Promise<ReplyResults[T]>;
  async answer(msg: Extract<WebviewToHost, { requestId: number }>): Promise<unknown> {
    await this.whenShown();
    const s = this.session;
    const view = this.view;
    if (!s || !view) throw new Error(this.loadError ? `the session could not be loaded: ${this.loadError}` : "the session could not be loaded");
    switch (msg.type) {
      case "rows": {
        const rows = view.page(msg.start, msg.count);
        this.stats.rowRequests++;
        this.stats.rowsServed += rows.length;
        return { start: msg.start, rows, rowCount: view.rowCount };
      }
      case "details": {
        const i = s.requireIndex(msg.id);
        return entryDetails(s.entryAt(i), s.metas[i], s.tree.labels.get(msg.id), msg.fullBlock);
      }
      case "setFilter":
        return { rowCount: view.setFilter(msg.filter) };
      case "toggleFold":
        return { rowCount: view.toggleFold(msg.id) };
      case "search":
        return { matches: view.search(msg.query) };
      case "select": {
        const { entry, rowIndex } = view.select(msg.id);
        const files = fileActivity(s, s.tree.path(entry)).map((a) => ({ ...a, openable: this.resolveWorkspaceFile(a.path) !== undefined }));
        for (const f of files) if (f.openable) this.offeredFiles.add(f.path);
        return { bars: this.bars(), files, rowIndex };
      }
    }
  }

  private resolveWorkspaceFile(p: string): vscode.Uri | undefined {
    const cwd = this.session?.header.cwd ?? "";
    const candidates = isAbsolute(p) ? [p] : [join(cwd, p), ...(vscode.workspace.workspaceFolders ?? []).map((f) => join(f.uri.fsPath, p))];
    const found = candidates.find((c) => existsSync(c));
    return found ? vscode.Uri.file(found) : undefined;
  }

  /** Paths the file list offered as openable: the only ones the webview may ask to open. */
  private readonly offeredFiles = new Set<string>();

  private async openFile(p: string): Promise<void> {
    if (!this.offeredFiles.has(p)) {
      this.deps.log.warn(`ignored a request to open a file the explorer did not offer: ${JSON.stringify(p).slice(0, 300)}`);
      return;
    }
    const uri = this.resolveWorkspaceFile(p);
    if (!uri) {
      void vscode.window.showWarningMessage(`${p} does not exist on this machine.`);
      return;
    }
    await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  /** Appended lines are tailed by offset; a rewritten or shrunk file is reloaded whole. */
  async onFileChanged(): Promise<void> {
    if (this.isDisposed) return;
    // A file that could not be loaded may have been fixed (or finished being written).
    if (!this.session) {
      if (this.loadError) await this.retryLoad("the file changed");
      return;
    }
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    try {
      do {
        this.refreshAgain = false;
        try {
          await this.session.refresh();
        } catch (err) {
          if (!(err instanceof StaleSessionError)) throw err;
          this.deps.log.warn(err.message);
          this.post({ type: "notice", level: "warning", text: `${this.file.split(/[\\/]/).pop()} was rewritten on disk; reloaded it.` });
          this.stats.reloads++;
          this.loading = this.load();
          await this.loading;
          continue;
        }
        this.showAdded(true);
      } while (this.refreshAgain);
    } catch (err) {
      this.deps.log.error(`${this.file}: ${(err as Error).message}`);
    } finally {
      this.refreshing = false;
    }
  }
}
