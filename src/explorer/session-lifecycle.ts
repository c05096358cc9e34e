import { statSync } from "node:fs";
import { openSession } from "../core/formats/registry";
import type { FormatLoadOptions } from "../core/session/session-format";
import type { SessionReader } from "../core/session/session-reader";
import { firstPartFor } from "../core/store/first-look";
import { StaleSessionError } from "../core/session/jsonl-session";
import { RowsChangedError } from "../core/store/file-stamp";
import type { HostToWebview, LoadingMessage, ReplyResults, RequestType } from "../protocol";
import { ExplorerController, type ExplorerOptions, type ExplorerRequest, quoteId, type ViewState } from "./controller";
import { isLiveSession, type LiveSession } from "./live-session";
import { LiveTail } from "./live-tail";
import { OvertakenError } from "./overtaken";
import { countPosted, type ExplorerStats, newExplorerStats } from "./explorer-stats";

export interface LifecycleLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** What the lifecycle needs of its host (the VS Code panel, or a test). */
export interface LifecycleHost {
  /** Shows that a load runs (VS Code: the status bar) for as long as `work` does; `report` takes a percentage. */
  withProgress(title: string, work: (report: (percent: number) => void) => Promise<void>): Promise<void>;
  /** Delivers a message to the webview. */
  send(msg: HostToWebview): void;
  log: LifecycleLog;
  /** The controller's view of the host, besides posting and logging (which go through the lifecycle). */
  explorer: Omit<ExplorerOptions, "post" | "log">;
  /** A session (or its first part) was read: the panel titles itself by it. */
  read?(session: SessionReader): void;
  /** Opens the file: the registry's openSession unless a test says otherwise. */
  open?(path: string, opts: FormatLoadOptions): Promise<SessionReader>;
  /** The first part to show of a file this size (first-look.ts unless a test says otherwise). */
  firstPart?(size: number): number | undefined;
}

/** Reads of a file rewritten while its rest was read, before the load gives up. */
const MAX_ATTEMPTS = 3;

/**
 * One explorer's session through its life, without VS Code: the load with progress (a
 * large file's first part shown while the rest is read), a failure the webview can
 * Retry (or the file fixes by changing), the live tail of appended lines, a reload when
 * the file is rewritten, the webview's ready handshake, and the stop on close. The panel
 * adapts it to a webview; tests drive it directly.
 */
export class SessionLifecycle {
  /** What the explorer has done, for the log and the extension tests. */
  readonly stats: ExplorerStats = newExplorerStats();
  /** The loaded session and what the webview sees of it (undefined until loaded, or after a failed load). */
  private ctl: ExplorerController | undefined;
  private live: LiveSession | undefined;
  /** View state the webview restored before the session was loaded. */
  private restored: ViewState | undefined;
  private loading: Promise<void>;
  private shownPart: Promise<void> | undefined;
  /** Whether the webview has said it is ready (messages before that may be lost). */
  private webviewReady = false;
  /** The latest progress of a load still running, for a webview that comes up during it. */
  private progress: LoadingMessage | undefined;
  /** Why the last load failed; cleared when a new one starts (Retry, or the file changed). */
  private loadError: string | undefined;
  private retrying = false;
  /** An entry the webview is to select and show, until it asks the host to reveal it. */
  private pendingShow: string | undefined;
  /** Stops a load still running when the explorer closes (a 1 GB session takes seconds). */
  private readonly abort = new AbortController();
  /** Reads appended lines while the explorer is open; a rewritten file is loaded again. */
  private readonly tail = new LiveTail({
    session: () => this.live,
    changed: () => this.showAdded({ followDefault: true }),
    reload: async (err) => {
      // A store whose agent rewrites its rows (OpenCode's database) is read again as its ordinary refresh: no warning.
      if (err instanceof RowsChangedError) this.host.log.info(err.message);
      else {
        this.host.log.warn(err.message);
        this.post({ type: "notice", level: "warning", text: `${this.name} was rewritten on disk; reloaded it.` });
      }
      this.stats.reloads++;
      this.loading = this.load();
      await this.loading;
    },
    failed: (err) => this.host.log.error(`${this.file}: ${err.message}`),
  });

  constructor(
    readonly file: string,
    private readonly host: LifecycleHost,
  ) {
    this.loading = this.load();
  }

  private get name(): string {
    return this.file.split(/[\\/]/).pop() ?? this.file;
  }

  /** The loaded session (the freshest copy of the file while the explorer is open). */
  get session(): LiveSession | undefined {
    return this.live;
  }

  /** The controller answering the webview, once a session is loaded. */
  get explorer(): ExplorerController | undefined {
    return this.ctl;
  }

  /** Why the session could not be loaded, while that is so. */
  get failure(): string | undefined {
    return this.loadError;
  }

  /** Entry count the webview was last told about (actions may append through our session). */
  get entriesShown(): number {
    return this.ctl?.entriesTold ?? 0;
  }

  /** Resolves once the whole session is loaded (or failed to load). */
  whenLoaded(): Promise<void> {
    return this.loading;
  }

  /** Resolves once there are rows to show: the first part of a large session, or all of it. */
  whenShown(): Promise<void> {
    return this.shownPart ?? this.whenLoaded();
  }

  /** Every message to the webview passes here, counted in the stats. */
  post(msg: HostToWebview): void {
    countPosted(this.stats, msg);
    if (!this.abort.signal.aborted) this.host.send(msg);
  }

  /** The webview is up (first time, or again after the panel was hidden) with the view state it saved. */
  async ready(restore?: ViewState): Promise<void> {
    this.webviewReady = true;
    if (!this.live && this.progress) this.post(this.progress);
    await this.whenShown();
    if (restore) {
      if (this.ctl) this.ctl.restore(restore);
      else this.restored = restore;
    }
    if (this.live) this.postInit();
    else if (this.loadError) this.post({ type: "loadFailed", file: this.file, reason: this.loadError });
  }

  /** Loads the session again after a failed load; the webview gets init or loadFailed. */
  async retry(why: string): Promise<void> {
    if (this.retrying || this.live || this.abort.signal.aborted) return;
    this.retrying = true;
    try {
      this.host.log.info(`loading ${this.file} again (${why})`);
      this.loadError = undefined;
      this.progress = undefined;
      this.loading = this.load();
      await this.whenShown();
      if (this.live && this.webviewReady) this.postInit();
      await this.loading;
    } finally {
      this.retrying = false;
    }
  }

  /** Appended lines are tailed by offset; a rewritten or shrunk file is reloaded whole. */
  async fileChanged(): Promise<void> {
    if (this.abort.signal.aborted) return;
    // A file that could not be loaded may have been fixed (or finished being written).
    if (!this.live) {
      if (this.loadError) await this.retry("the file changed");
      return;
    }
    await this.tail.fileChanged();
  }

  /** The prices changed: the header's cost and the bars' costs again (once the webview has its init). */
  pricesChanged(): void {
    if (this.ctl?.entriesTold !== undefined) this.post(this.ctl.costChanged());
  }

  /**
   * Has the webview select an entry and show it, on an explorer just opened or long open.
   * The message is posted again after every init until the webview asks to reveal the
   * entry, so a webview still loading, or reloading after the panel was hidden, gets it
   * too. Throws when the session has no such entry (the file was rewritten since).
   */
  async showEntry(id: string): Promise<void> {
    await this.whenShown();
    const has = () => this.live?.tree.indexOf(id) !== undefined;
    // A large session's first part may not hold it yet; an entry appended since the load needs a refresh.
    if (!has()) await this.whenLoaded();
    if (!has()) await this.fileChanged();
    if (!this.live) throw new Error(this.notLoaded());
    if (!has()) throw new Error(`${this.file} has no entry ${quoteId(id)} (was the file rewritten since the search?)`);
    this.pendingShow = id;
    if (this.webviewReady && this.ctl?.entriesTold !== undefined) this.post({ type: "showEntry", id });
  }

  /**
   * What a request of the webview gets back (rows, details, select, ...), once there are
   * rows to show. Throws what the webview shows as an error notice.
   */
  async answer<T extends RequestType>(msg: Extract<ExplorerRequest, { type: T }>): Promise<ReplyResults[T]>;
  async answer(msg: ExplorerRequest): Promise<ReplyResults[RequestType]> {
    if (msg.type === "reveal" && msg.id === this.pendingShow) this.pendingShow = undefined;
    await this.whenShown();
    const c = this.ctl;
    if (!c) throw new Error(this.notLoaded());
    const result = await c.answerAsync(msg);
    if (msg.type === "rows") {
      this.stats.rowRequests++;
      this.stats.rowsServed += (result as ReplyResults["rows"]).rows.length;
    }
    return result;
  }

  /** A request of the webview: exactly one reply, an error as its message. */
  async respond(msg: ExplorerRequest): Promise<void> {
    try {
      const result = await this.answer(msg);
      this.post({ type: "reply", requestId: msg.requestId, ok: true, result });
    } catch (err) {
      if (err instanceof OvertakenError) this.host.log.info(`${msg.type} request overtaken: ${err.message}`);
      else {
        this.stats.errors++;
        this.host.log.error(`${msg.type} request failed: ${(err as Error).stack ?? err}`);
      }
      this.post({ type: "reply", requestId: msg.requestId, ok: false, error: (err as Error).message });
    }
  }

  dispose(): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort(new Error("the explorer was closed"));
    this.ctl?.dispose();
  }

  private notLoaded(): string {
    return this.loadError ? `the session could not be loaded: ${this.loadError}` : "the session could not be loaded";
  }

  private load(): Promise<void> {
    let shown!: () => void;
    this.shownPart = new Promise<void>((resolve) => (shown = resolve));
    const done = this.host.withProgress(`Loading ${this.name}`, (report) => this.loadAll(shown, report));
    void done.finally(() => {
      shown();
      // Progress of a load that ended is not sent to a webview coming up later (it would show "loading" before the failure).
      this.progress = undefined;
    });
    return done;
  }

  /**
   * Loads the session; a large one is shown from its first part (`shown` is called
   * then; see first-look.ts) while the rest is read, which then arrives as appended
   * entries do. A failure is kept for the webview, never thrown.
   */
  private async loadAll(shown: () => void, report: (percent: number) => void, attempt = 1): Promise<void> {
    const t0 = Date.now();
    let pct = -1;
    const onProgress = (done: number, total: number) => {
      const now = total ? Math.floor((100 * done) / total) : 100;
      if (now === pct) return;
      pct = now;
      report(now);
      this.progress = { type: "loading", bytesRead: done, totalBytes: total };
      if (this.webviewReady) this.post(this.progress);
    };
    try {
      const size = fileSize(this.file);
      const firstPart = (this.host.firstPart ?? firstPartFor)(size);
      const s = await (this.host.open ?? openSession)(this.file, { signal: this.abort.signal, onProgress, firstPart });
      if (!isLiveSession(s)) throw new Error(`${this.file}: not a session file`);
      this.show(s);
      this.host.read?.(s);
      shown();
      // A reload (the file was rewritten): the webview is up and gets the new session now.
      if (this.ctl?.entriesTold !== undefined) this.postInit();
      if (!s.complete) {
        this.stats.firstLook = { entries: s.metas.length, bytes: s.size, ms: Date.now() - t0 };
        this.host.log.info(`showing the first ${s.metas.length} entries of ${this.file} (${s.size} of ${size} bytes) after ${Date.now() - t0} ms; reading the rest`);
        await this.readRest(s, onProgress);
      }
      this.logLoaded(s, t0);
    } catch (err) {
      this.ctl?.dispose();
      this.ctl = undefined;
      this.live = undefined;
      // Rewritten while the rest of a large file was read: read it again from the start.
      if (err instanceof StaleSessionError && !this.abort.signal.aborted && attempt < MAX_ATTEMPTS) {
        this.host.log.warn(`${err.message}; reading it again`);
        return this.loadAll(shown, report, attempt + 1);
      }
      if (this.abort.signal.aborted) {
        this.host.log.info(`stopped loading ${this.file}: the explorer was closed`);
        return;
      }
      this.host.log.error(`cannot open ${this.file}: ${(err as Error).message}`);
      this.loadError = (err as Error).message;
      this.stats.loadFailures++;
      // Before the webview's ready, the ready handler sends it.
      if (this.webviewReady) this.post({ type: "loadFailed", file: this.file, reason: this.loadError });
    }
  }

  private logLoaded(s: LiveSession, t0: number): void {
    this.host.log.info(`opened ${this.file}: ${s.metas.length} entries indexed in ${Date.now() - t0} ms${s.threads > 1 ? " on two threads" : ""}`);
    if (s.workerFailure) this.host.log.warn(`${this.file}: indexed on one thread (the index worker failed: ${s.workerFailure})`);
    const count = s.problemCount;
    if (count) this.host.log.warn(`${this.file}: ${count} problem(s): ${s.problems.slice(0, 5).map((p) => p.message).join("; ")}`);
  }

  /** Makes a loaded session (whole or a first part) the one the explorer shows. */
  private show(s: LiveSession): void {
    this.live = s;
    if (!this.ctl) {
      this.ctl = new ExplorerController(s, { ...this.host.explorer, post: (m) => this.post(m), log: this.host.log }, this.restored);
      return;
    }
    this.ctl.setSession(s);
    if (this.restored) this.ctl.restore(this.restored);
  }

  /** Reads what a first look left out; the tail watcher waits meanwhile. */
  private readRest(s: LiveSession, onProgress: (done: number, total: number) => void): Promise<void> {
    return this.tail.whileReading(async () => {
      await s.refresh({ signal: this.abort.signal, onProgress });
      // The reader's choice of entry stays; without one the view follows the default leaf.
      this.showAdded({ followDefault: false });
    });
  }

  /** Tells the webview of entries added since it was last told (see ExplorerController.sessionChanged). */
  private showAdded(opts: { followDefault: boolean }): void {
    const msg = this.ctl?.sessionChanged(opts);
    if (msg) this.post(msg);
  }

  private postInit(): void {
    if (!this.ctl) return;
    this.post(this.ctl.init());
    // A webview that came up (or back: a hidden panel loses its webview) still has an entry to show.
    if (this.pendingShow !== undefined) this.post({ type: "showEntry", id: this.pendingShow });
  }
}

/** The file's size, or 0 when it cannot be read (the load then says what is wrong with it). */
function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
