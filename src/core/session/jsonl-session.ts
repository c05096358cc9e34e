import { closeSync, readSync, statSync } from "node:fs";
import { edgeHashes, readAt, StaleSessionError } from "../store/file-stamp";
import { stat } from "node:fs/promises";
import { formatById } from "./format-table";
import type { IndexHooks } from "../store/index-hooks";
import type { SessionFormat } from "./session-format";
import type { FileStamp, SessionReader } from "./session-reader";
import { SessionTree } from "../tree/session-tree";
import { Lru } from "../util/lru";
import type { EntryMeta, LineProblem } from "../store/entry-meta";
import type { EntryTable } from "../store/entry-table";
import { IndexBuilder, MAX_LISTED_PROBLEMS, NotASessionError } from "../store/index-builder";
import { indexFile, type LineStream } from "../store/index-file";
import { assertRegular, openRegular } from "../util/safe-open";

export interface LoadOptions {
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /**
   * Index the second half of the file on a worker thread: by default only from
   * PARALLEL_MIN_BYTES on; true whatever the size (when the file allows), false never.
   */
  secondThread?: boolean;
  /**
   * Index only the lines that end within this many bytes, for a first look at a large
   * file; `refresh` reads the rest (see `complete`).
   */
  firstPart?: number;
  /**
   * For the per-file history: lines whose leading members show they hold no file operation
   * and no prompt are indexed from those members only (IndexHooks.skim), their content
   * unparsed. Such a session serves file operations and prompts, not previews or token
   * figures of the other lines.
   */
  skim?: boolean;
  /**
   * The file's bytes as another thread writes them (a Codex .zst decompressed): the lines
   * are indexed from here as they come, the file read only for entries later. The whole
   * stream is indexed (no first part, no second index thread).
   */
  stream?: LineStream;
}

/** Options of `refresh`: reading what was left out or appended can be watched and stopped. */
export type RefreshOptions = Pick<LoadOptions, "signal" | "onProgress" | "secondThread">;

/** Kept here too: callers of a session meet it from its writes. */
export { StaleSessionError };

export type { FileStamp } from "./session-reader";



/**
 * The start of the line that holds byte `at` (so every line before it ends before `at`);
 * 0 when that line starts the file.
 */
function lineStartAtOrBefore(path: string, at: number): number {
  const fd = openRegular(path);
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let end = at; end > 0; ) {
      const start = Math.max(0, end - buf.length);
      const n = readSync(fd, buf, 0, end - start, start);
      const nl = buf.subarray(0, n).lastIndexOf(10);
      if (nl >= 0) return start + nl + 1;
      end = start;
    }
    return 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * A loaded JSONL session of any format (the format's IndexHooks read its lines): entry
 * index and tree, with full entries read on demand by byte range. Loading never writes
 * the file.
 */
export class JsonlSession<Entry extends Record<string, unknown> = Record<string, unknown>> implements SessionReader {
  private treeCache: SessionTree | undefined;
  private cache = new Lru<number, Entry>(2048, 64 * 1024 * 1024);
  /** Threads that indexed the file when it was loaded: 2 when a worker took the second half. */
  threads = 1;
  /** Why the worker meant to index the second half failed (this thread did it instead). */
  workerFailure: string | undefined;

  protected constructor(
    readonly path: string,
    private builder: IndexBuilder,
    /** Bytes indexed so far (always at a line boundary unless the file ends torn). */
    private indexedTo: number,
    private nextLine: number,
    public endsWithNewline: boolean,
    public stamp: FileStamp,
  ) {}

  /** Loads a session of the format whose hooks are given (a subclass's constructor builds it). */
  protected static async loadWith<S extends JsonlSession<Record<string, unknown>>>(
    make: (path: string, builder: IndexBuilder, indexedTo: number, nextLine: number, endsWithNewline: boolean, stamp: FileStamp) => S,
    path: string,
    hooks: IndexHooks,
    opts: LoadOptions,
  ): Promise<S> {
    const statOf = async () => {
      const st = await stat(path).catch((err: NodeJS.ErrnoException) => {
        throw new Error(`${path}: cannot read: ${err.code === "ENOENT" ? "no such file" : err.message}`);
      });
      assertRegular(path, st);
      return st;
    };
    const builder = new IndexBuilder(path, hooks, undefined, opts.skim);
    // A stream's file is whole only once the stream ended: its stamp is taken then.
    const before = opts.stream ? undefined : await statOf();
    const upTo = before && opts.firstPart !== undefined && opts.firstPart < before.size ? lineStartAtOrBefore(path, opts.firstPart) : before?.size;
    const { scan: res, tail, threads, workerFailure } = await indexFile(path, builder, upTo || (before?.size ?? 0), opts);
    const st = before ?? (await statOf());
    // A first part with no header in it (junk lines first) is no first look, nor is one of
    // a positional version (see refresh): read it all.
    if ((builder.needsHeader || builder.positional) && upTo && upTo < st.size) return JsonlSession.loadWith(make, path, hooks, { ...opts, firstPart: undefined });
    if (st.size === 0) throw new NotASessionError(path, "the file is empty", hooks.agent);
    if (builder.needsHeader) throw new NotASessionError(path, (hooks.header as NonNullable<IndexHooks["header"]>).missing(builder.problems.length > 0, res.nextLine - 1), hooks.agent);
    builder.resolveV1Indexes();
    const session = make(path, builder, res.endOffset, res.nextLine, res.endsWithNewline, {
      size: st.size,
      mtimeMs: st.mtimeMs,
      ino: st.ino,
    });
    session.tail = tail;
    session.edges = session.edgesNow();
    session.threads = threads;
    session.workerFailure = workerFailure;
    if (builder.skims) session.primed = builder.takeKept();
    return session;
  }

  get formatId(): string {
    return this.builder.hooks.formatId;
  }

  private formatFound: SessionFormat | undefined;

  /** The format it was read as, looked up once by the id its line hooks carry. */
  get format(): SessionFormat {
    this.formatFound ??= formatById(this.formatId);
    return this.formatFound;
  }

  /** The header line, for formats that have one. */
  get headerRecord(): Record<string, unknown> | undefined {
    return this.builder.header;
  }

  get version(): number {
    return this.builder.version;
  }

  get metas(): readonly EntryMeta[] {
    return this.builder.metas;
  }

  /** The index's columns, for passes over every entry (metas[i] makes a record per access). */
  get table(): EntryTable {
    return this.builder.table;
  }

  /** Lines skipped or repaired in memory while loading, plus tree problems. */
  get problems(): LineProblem[] {
    const listed = [...this.builder.problems, ...this.tree.problems].sort((a, b) => a.line - b.line);
    const more = this.builder.unlisted;
    if (more) {
      listed.push({ kind: "parse-error", line: this.nextLine, message: `... and ${more} more line(s) with problems, not listed (only the first ${MAX_LISTED_PROBLEMS} are kept)` });
    }
    return listed;
  }

  /** How many problems there are, the unlisted ones included. */
  get problemCount(): number {
    return this.builder.problems.length + this.builder.unlisted + this.tree.problems.length;
  }

  get tree(): SessionTree {
    if (!this.treeCache) this.treeCache = new SessionTree(this.builder.metas, this.builder.table);
    return this.treeCache;
  }

  get size(): number {
    return this.indexedTo;
  }

  /** False after a load of a first part only, until `refresh` has read the rest. */
  get complete(): boolean {
    return this.indexedTo >= this.stamp.size;
  }

  meta(id: string): EntryMeta | undefined {
    const i = this.tree.indexOf(id);
    return i === undefined ? undefined : this.metas[i];
  }

  /** Resolves an id or fails with a message naming the file. */
  requireIndex(id: string): number {
    const i = this.tree.indexOf(id);
    if (i === undefined) throw new Error(`${this.path}: no entry with id ${id}`);
    return i;
  }

  /**
   * Reads appended lines, or the rest after a first part, from the last indexed offset
   * (on two threads when there is enough of it). A shrunk or rewritten file throws.
   */
  async refresh(opts: RefreshOptions = {}): Promise<{ added: number }> {
    // A rewritten file must be read from its new self, not through a descriptor opened before.
    this.dropReader();
    const st = await stat(this.path);
    if (st.size < this.indexedTo) throw new StaleSessionError(this.path, `size went from ${this.indexedTo} to ${st.size} bytes`);
    // Anything but a pure append (header or last lines changed, also at the same size) reloads.
    this.verifyEdges();
    if (st.size === this.indexedTo) {
      this.stamp = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
      return { added: 0 };
    }
    this.verifyPrefix();
    let from = this.indexedTo;
    let fromLine = this.nextLine;
    // The writer may have finished the unterminated last line: it is read again.
    const torn = this.tail;
    if (torn) {
      from = torn.offset;
      fromLine = torn.line;
    }
    const metas = this.builder.metas;
    // Lines are indexed aside and joined in one step at the end, so whoever reads the
    // session meanwhile (the explorer serving rows while the rest of a large file is
    // read) sees it as it was, never half-grown.
    const aside = this.builder.positional ? this.builder : new IndexBuilder(this.path, this.builder.hooks, this.builder.stateAfter(), this.builder.skims);
    // Positional ids (pi v1) come from line numbers, which only this builder knows: such a
    // file is read in place (pi never appends to a v1 file, nor is one loaded in parts).
    const inPlace = aside === this.builder;
    if (inPlace) this.forgetTorn(torn);
    let before = metas.length;
    const { scan: res, tail, threads, workerFailure } = await indexFile(this.path, aside, st.size, { ...opts, from, fromLine: inPlace ? fromLine : 1 });
    // Line numbers of what was indexed aside count from 1 at `fromLine`.
    const lineBase = inPlace ? 0 : fromLine - 1;
    if (!inPlace) {
      this.forgetTorn(torn);
      before = metas.length;
      this.builder.adopt(aside.handOver(), lineBase);
    }
    this.tail = tail && { offset: tail.offset, line: tail.line + lineBase };
    this.threads = Math.max(this.threads, threads);
    this.workerFailure ??= workerFailure;
    this.builder.resolveV1Indexes(before);
    this.indexedTo = res.endOffset;
    this.nextLine = res.nextLine + lineBase;
    this.endsWithNewline = res.endsWithNewline;
    this.stamp = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
    this.edges = this.edgesNow();
    this.treeCache = undefined;
    return { added: metas.length - before };
  }

  /** Hashes of the ends of what was read (see file-stamp.ts). */
  private edges = "";

  private edgesNow(): string {
    return edgeHashes(this.reader(), this.indexedTo);
  }

  /** The first and last bytes read must be as they were: else the file was rewritten. */
  private verifyEdges(): void {
    if (this.edges && this.edgesNow() !== this.edges) {
      throw new StaleSessionError(this.path, "its first or last lines were rewritten in place");
    }
  }

  private tail: { offset: number; line: number } | undefined;

  /** Drops what was indexed of a torn last line (entry and problem) before it is read again. */
  private forgetTorn(torn: { offset: number; line: number } | undefined): void {
    if (!torn) return;
    const metas = this.builder.metas;
    if (metas.length && metas[metas.length - 1].offset === torn.offset) this.builder.table.pop();
    this.builder.forgetProblem(torn.line);
  }

  /** The file must still hold what we indexed: check the last indexed entry's bytes. */
  private verifyPrefix(): void {
    const last = this.builder.metas[this.builder.metas.length - 1];
    if (!last || this.builder.positional) return;
    const raw = this.readRaw(last.offset, last.length);
    let ok = false;
    try {
      ok = this.builder.hooks.idOf(JSON.parse(raw) as Record<string, unknown>) === last.id;
    } catch {
      ok = false;
    }
    if (!ok) throw new StaleSessionError(this.path, `line ${last.line} no longer holds entry ${last.id}`);
  }

  /** Checks that the file is as it was when loaded or last refreshed, and was read whole. */
  checkUnchanged(): void {
    if (!this.complete) throw new Error(`${this.path}: only ${this.indexedTo} of its ${this.stamp.size} bytes are read yet; wait for the load to finish`);
    let st;
    try {
      st = statSync(this.path);
    } catch (err) {
      throw new StaleSessionError(this.path, `it cannot be read any more: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "renamed or deleted" : (err as Error).message}`);
    }
    if (this.stamp.ino !== undefined && st.ino !== this.stamp.ino) throw new StaleSessionError(this.path, "replaced by another file");
    if (st.size !== this.stamp.size || st.mtimeMs !== this.stamp.mtimeMs) {
      throw new StaleSessionError(
        this.path,
        `size ${this.stamp.size} -> ${st.size}, mtime ${new Date(this.stamp.mtimeMs).toISOString()} -> ${new Date(st.mtimeMs).toISOString()}`,
      );
    }
    // Same size, mtime and inode: the bytes at its ends must be the same too.
    this.verifyEdges();
  }

  /** Descriptor shared by the reads of one synchronous run (see reader). */
  private fd: number | undefined;

  /**
   * The file, open for reading until the current synchronous work is done: a walk over
   * a path of 100,000 entries opens it once, not once per entry (on a 1.6 GB session
   * open and close were a fifth of `ase files`). Anything async sees a fresh open.
   */
  private reader(): number {
    if (this.fd === undefined) {
      const fd = openRegular(this.path);
      this.fd = fd;
      setImmediate(() => this.dropReader(fd));
    }
    return this.fd;
  }

  /** Closes the shared descriptor; a stale call (for one closed already) does nothing. */
  private dropReader(fd = this.fd): void {
    if (fd === undefined || fd !== this.fd) return;
    this.fd = undefined;
    closeSync(fd);
  }

  private readRaw(offset: number, length: number): string {
    return readAt(this.reader(), offset, length).toString("utf8");
  }

  /**
   * A history read's entries parsed whole while loading (LoadOptions.skim), migrated on
   * first use: the history asks for each of them once or twice, right after the load.
   */
  private primed: Map<number, Record<string, unknown>> | undefined;

  /** The full entry at position i, migrated in memory by the format (pi: to version 3). */
  entryAt(i: number): Entry {
    const hit = this.cache.get(i);
    if (hit) return hit;
    const kept = this.primed?.get(i);
    if (kept) {
      this.primed?.delete(i);
      const meta = this.metas[i];
      const hooks = this.builder.hooks;
      const entry = (hooks.migrate ? hooks.migrate(kept, meta, this.version) : kept) as Entry;
      this.cache.set(i, entry, meta.length);
      return entry;
    }
    const meta = this.metas[i];
    const raw = this.readRaw(meta.offset, meta.length);
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw new StaleSessionError(this.path, `line ${meta.line} no longer parses`);
    }
    const hooks = this.builder.hooks;
    if (!this.builder.positional && hooks.idOf(obj) !== meta.id) {
      throw new StaleSessionError(this.path, `line ${meta.line} no longer holds entry ${meta.id}`);
    }
    const entry = (hooks.migrate ? hooks.migrate(obj, meta, this.version) : obj) as Entry;
    this.cache.set(i, entry, meta.length);
    return entry;
  }

  entry(id: string): Entry {
    return this.entryAt(this.requireIndex(id));
  }
}

/** Loads a JSONL session of a format without a class of its own (its hooks say how). */
export class HookedSession extends JsonlSession {
  static open(path: string, hooks: IndexHooks, opts: LoadOptions = {}): Promise<HookedSession> {
    return JsonlSession.loadWith((...args) => new HookedSession(...args), path, hooks, opts);
  }
}
