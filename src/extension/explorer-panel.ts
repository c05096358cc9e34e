import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as vscode from "vscode";
import { explorerHtml } from "../../webview/html-template";
import { fileActivity } from "../core/files/file-ops";
import { Session, StaleSessionError } from "../core/store/session";
import type { TreeRow } from "../core/tree/tree-rows";
import { treeRows } from "../core/tree/tree-rows";
import { entryDetails } from "../core/view/entry-details";
import {
  type EntryAction,
  type HostToWebview,
  isWebviewToHost,
  type Row,
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
  private filter: RowFilter = "default";
  private folded = new Set<string>();
  private rows: TreeRow[] = [];
  private selectedLeaf: number | undefined;
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

  private async load(): Promise<void> {
    try {
      this.session = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Loading ${this.file.split(/[\\/]/).pop()}` },
        () => Session.load(this.file),
      );
      this.selectedLeaf = undefined;
      this.table = instantTokens(this.session);
      this.recomputeRows();
      this.startCounting(undefined);
      const problems = this.session.problems;
      if (problems.length) this.deps.log.warn(`${this.file}: ${problems.length} problem(s): ${problems.slice(0, 5).map((p) => p.message).join("; ")}`);
    } catch (err) {
      this.session = undefined;
      this.deps.log.error(`cannot open ${this.file}: ${(err as Error).message}`);
      this.post({ type: "notice", level: "error", text: (err as Error).message });
    }
  }

  /** Entry count the webview was last told about (actions may append through our session). */
  private shown = 0;

  private bars(): TokenBar[] {
    return this.session ? this.deps.bars(this.session, this.table, this.selectedLeaf) : [];
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
    const s = this.session as Session;
    return {
      path: s.path,
      name: s.tree.name,
      cwd: s.header.cwd,
      version: s.version,
      entryCount: s.metas.length,
      defaultLeafId: s.metas.length ? s.metas[s.tree.defaultLeaf].id : null,
      problems: s.problems.map((p) => p.message),
      readOnly: s.version < 3 || !vscode.workspace.isTrusted,
    };
  }

  private recomputeRows(): void {
    const s = this.session;
    if (!s) return;
    const folded = new Set<number>();
    for (const id of this.folded) {
      const i = s.tree.indexOf(id);
      if (i !== undefined) folded.add(i);
    }
    this.rows = treeRows(s, { filter: this.filter, folded, leaf: this.selectedLeaf });
  }

  private boundaries(): Map<number, "summarized" | "kept-start"> {
    const s = this.session as Session;
    const out = new Map<number, "summarized" | "kept-start">();
    const leaf = this.selectedLeaf ?? s.tree.defaultLeaf;
    if (leaf < 0) return out;
    const path = s.tree.path(leaf);
    let c = -1;
    for (let k = path.length - 1; k >= 0; k--) if (s.metas[path[k]].type === "compaction") { c = k; break; }
    if (c < 0) return out;
    const keep = s.metas[path[c]].firstKeptEntryId;
    let kept = false;
    for (let k = 0; k < c; k++) {
      const i = path[k];
      if (!kept && s.metas[i].id === keep) {
        kept = true;
        out.set(i, "kept-start");
      } else if (!kept) out.set(i, "summarized");
    }
    return out;
  }

  private row(r: TreeRow, marks: Map<number, "summarized" | "kept-start">): Row {
    const s = this.session as Session;
    const m = s.metas[r.index];
    const row: Row = {
      id: m.id,
      prefix: r.prefix,
      type: m.type,
      role: m.role,
      preview: m.preview,
      tokens: m.estimate,
      label: s.tree.labels.get(m.id),
      onActivePath: r.onActivePath,
      isActiveLeaf: r.isActiveLeaf,
      isDefaultLeaf: r.index === s.tree.defaultLeaf,
      childCount: s.tree.childCount(r.index),
      folded: this.folded.has(m.id),
    };
    if (m.type === "compaction") row.compaction = { tokensBefore: m.tokensBefore ?? 0, firstKeptEntryId: m.firstKeptEntryId };
    const b = marks.get(r.index);
    if (b) row.boundary = b;
    return row;
  }

  private async onMessage(raw: unknown): Promise<void> {
    if (!isWebviewToHost(raw)) {
      this.deps.log.warn(`ignored a malformed message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    const msg = raw as WebviewToHost;
    if (msg.type === "ready") {
      await this.whenLoaded();
      if (msg.restore) {
        // View state the webview saved before a reload: filter and folded branches.
        this.filter = msg.restore.filter;
        this.folded = new Set(msg.restore.folded);
        this.recomputeRows();
      }
      if (this.session) this.post({ type: "init", session: this.info(), rowCount: this.rows.length, filter: this.filter, bars: this.bars() });
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
      if (!s) throw new Error("the session could not be loaded");
      switch (msg.type) {
        case "rows": {
          const marks = this.boundaries();
          const slice = this.rows.slice(msg.start, msg.start + msg.count).map((r) => this.row(r, marks));
          this.stats.rowRequests++;
          this.stats.rowsServed += slice.length;
          return reply({ start: msg.start, rows: slice, rowCount: this.rows.length });
        }
        case "details": {
          const i = s.requireIndex(msg.id);
          return reply(entryDetails(s.entryAt(i), s.metas[i], s.tree.labels.get(msg.id), msg.fullBlock));
        }
        case "setFilter":
          this.filter = msg.filter;
          this.recomputeRows();
          return reply({ rowCount: this.rows.length });
        case "toggleFold": {
          s.requireIndex(msg.id);
          if (this.folded.has(msg.id)) this.folded.delete(msg.id);
          else this.folded.add(msg.id);
          this.recomputeRows();
          return reply({ rowCount: this.rows.length });
        }
        case "search": {
          const q = msg.query.toLowerCase();
          const matches: number[] = [];
          if (q) {
            this.rows.forEach((r, k) => {
              const m = s.metas[r.index];
              if (m.preview.toLowerCase().includes(q) || m.id.startsWith(q) || (s.tree.labels.get(m.id) ?? "").toLowerCase().includes(q)) matches.push(k);
            });
          }
          return reply({ matches });
        }
        case "select": {
          const i = s.requireIndex(msg.id);
          // The active path follows the selection down to the newest leaf under it.
          let leaf = i;
          while (s.tree.childCount(leaf) > 0) {
            const kids = s.tree.children(leaf);
            leaf = kids[kids.length - 1];
          }
          this.selectedLeaf = leaf;
          this.recomputeRows();
          const files = fileActivity(s, s.tree.path(i)).map((a) => ({ ...a, openable: this.resolveWorkspaceFile(a.path) !== undefined }));
          const rowIndex = this.rows.findIndex((r) => r.index === i);
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
          if (this.session) this.post({ type: "init", session: this.info(), rowCount: this.rows.length, filter: this.filter, bars: this.bars() });
          continue;
        }
        // Counted against what the webview was shown: an action of ours may have appended
        // through this very session, so refresh() alone would report nothing new.
        const added = this.session.metas.length - this.shown;
        if (added > 0) {
          this.selectedLeaf = undefined;
          const known = this.table.length;
          this.table.push(...instantTokens(this.session).slice(known));
          this.recomputeRows();
          this.post({ type: "sessionChanged", session: this.info(), rowCount: this.rows.length, added, bars: this.bars() });
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
