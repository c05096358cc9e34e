import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as vscode from "vscode";
import { explorerHtml } from "../../webview/html-template";
import { fileActivity } from "../core/files/file-ops";
import { Session, StaleSessionError } from "../core/store/session";
import { RowView, sessionInfoView } from "../core/view/row-view";
import { entryDetails } from "../core/view/entry-details";
import {
  type EntryAction,
  type HostToWebview,
  type LoadingMessage,
  isWebviewToHost,
  type RowFilter,
  type SessionInfoView,
  type TokenBar,
  type WebviewToHost,
} from "../protocol";
import { instantTokens, type EntryTokens } from "../core/tokens/entry-tokens";
import { Disposable } from "./dispose";
import { watchFile } from "./file-watch";
import type { Log } from "./log";

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
  readonly stats = { inits: 0, rowRequests: 0, rowsServed: 0, changes: 0, reloads: 0, errors: 0, barUpdates: 0 };

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly file: string,
    private readonly deps: PanelDeps,
  ) {
    super();
    const dist = vscode.Uri.joinPath(deps.extensionUri, "dist");
    panel.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    panel.title = `Session: ${file.split(/[\\/]/).pop()}`;
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
    });
  }

  /** Resolves once the session is loaded (or failed to load). */
  whenLoaded(): Promise<void> {
    return this.loading ?? Promise.resolve();
  }

  /** Whether the webview has said it is ready (messages before that may be lost). */
  private webviewReady = false;
  /** The latest progress of a load still running, for a webview that comes up during it. */
  private loadProgress: LoadingMessage | undefined;

  /** Stops a load still running when the panel closes (a 1 GB session takes seconds). */
  private readonly loadAbort = new AbortController();

  private async load(): Promise<void> {
    const t0 = Date.now();
    try {
      this.session = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Loading ${this.file.split(/[\\/]/).pop()}` },
        (progress) => {
          let shown = -1;
          return Session.load(this.file, {
            signal: this.loadAbort.signal,
            onProgress: (done, total) => {
              const pct = total ? Math.floor((100 * done) / total) : 100;
              if (pct === shown) return;
              shown = pct;
              progress.report({ message: `${pct}%` });
              this.loadProgress = { type: "loading", bytesRead: done, totalBytes: total };
              if (this.webviewReady) this.post(this.loadProgress);
            },
          });
        },
      );
      this.deps.log.info(`opened ${this.file}: ${this.session.metas.length} entries indexed in ${Date.now() - t0} ms${this.session.threads > 1 ? " on two threads" : ""}`);
      this.table = instantTokens(this.session);
      if (this.view) this.view.setSession(this.session);
      else this.view = new RowView(this.session);
      if (this.restored) this.applyRestore(this.restored);
      this.startCounting(undefined);
      if (this.session.workerFailure) this.deps.log.warn(`${this.file}: indexed on one thread (the index worker failed: ${this.session.workerFailure})`);
      const count = this.session.problemCount;
      if (count) this.deps.log.warn(`${this.file}: ${count} problem(s): ${this.session.problems.slice(0, 5).map((p) => p.message).join("; ")}`);
    } catch (err) {
      this.session = undefined;
      if (this.loadAbort.signal.aborted) {
        this.deps.log.info(`stopped loading ${this.file}: the explorer was closed`);
        return;
      }
      this.deps.log.error(`cannot open ${this.file}: ${(err as Error).message}`);
      this.post({ type: "notice", level: "error", text: (err as Error).message });
    }
  }

  /** Entry count the webview was last told about (actions may append through our session). */
  private shown = 0;

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

  /** Exact counts run after first paint and replace the estimates in the bars when done. */
  private startCounting(indices: number[] | undefined): void {
    const s = this.session;
    if (!s || !this.deps.countExact) return;
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
      await this.whenLoaded();
      // View state the webview saved before a reload: filter and folded branches.
      if (msg.restore) this.applyRestore(msg.restore);
      if (this.session) this.post({ type: "init", session: this.info(), rowCount: this.rowCount, filter: this.filter, bars: this.bars() });
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
    await this.whenLoaded();
    const reply = (result: unknown) => this.post({ type: "reply", requestId: msg.requestId, ok: true, result });
    try {
      const s = this.session;
      const view = this.view;
      if (!s || !view) throw new Error("the session could not be loaded");
      switch (msg.type) {
        case "rows": {
          const rows = view.page(msg.start, msg.count);
          this.stats.rowRequests++;
          this.stats.rowsServed += rows.length;
          return reply({ start: msg.start, rows, rowCount: view.rowCount });
        }
        case "details": {
          const i = s.requireIndex(msg.id);
          return reply(entryDetails(s.entryAt(i), s.metas[i], s.tree.labels.get(msg.id), msg.fullBlock));
        }
        case "setFilter":
          return reply({ rowCount: view.setFilter(msg.filter) });
        case "toggleFold":
          return reply({ rowCount: view.toggleFold(msg.id) });
        case "search":
          return reply({ matches: view.search(msg.query) });
        case "select": {
          const { entry, rowIndex } = view.select(msg.id);
          const files = fileActivity(s, s.tree.path(entry)).map((a) => ({ ...a, openable: this.resolveWorkspaceFile(a.path) !== undefined }));
          return reply({ bars: this.bars(), files, rowIndex });
        }
      }
    } catch (err) {
      this.stats.errors++;
      this.deps.log.error(`${msg.type} request failed: ${(err as Error).stack ?? err}`);
      this.post({ type: "reply", requestId: msg.requestId, ok: false, error: (err as Error).message });
    }
  }

  private resolveWorkspaceFile(p: string): vscode.Uri | undefined {
    const cwd = this.session?.header.cwd ?? "";
    const candidates = isAbsolute(p) ? [p] : [join(cwd, p), ...(vscode.workspace.workspaceFolders ?? []).map((f) => join(f.uri.fsPath, p))];
    const found = candidates.find((c) => existsSync(c));
    return found ? vscode.Uri.file(found) : undefined;
  }

  private async openFile(p: string): Promise<void> {
    const uri = this.resolveWorkspaceFile(p);
    if (!uri) {
      void vscode.window.showWarningMessage(`${p} does not exist on this machine.`);
      return;
    }
    await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  /** Appended lines are tailed by offset; a rewritten or shrunk file is reloaded whole. */
  async onFileChanged(): Promise<void> {
    if (!this.session || this.isDisposed) return;
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
          if (this.session) this.post({ type: "init", session: this.info(), rowCount: this.rowCount, filter: this.filter, bars: this.bars() });
          continue;
        }
        // Counted against what the webview was shown: an action of ours may have appended
        // through this very session, so refresh() alone would report nothing new.
        const added = this.session.metas.length - this.shown;
        if (added > 0) {
          const known = this.table.length;
          this.table.push(...instantTokens(this.session).slice(known));
          if (this.view) {
            // New entries usually continue the default leaf: follow it.
            this.view.selectedLeaf = undefined;
            this.view.recompute();
          }
          this.post({ type: "sessionChanged", session: this.info(), rowCount: this.rowCount, added, bars: this.bars() });
          this.startCounting(this.table.map((_, i) => i).slice(known));
        }
      } while (this.refreshAgain);
    } catch (err) {
      this.deps.log.error(`${this.file}: ${(err as Error).message}`);
    } finally {
      this.refreshing = false;
    }
  }
}
