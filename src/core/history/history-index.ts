import { dirname, join, relative, resolve, sep } from "node:path";
import { listAllSessions, type ListAllOptions } from "../formats/list-all";
import type { SessionSummary } from "../store/discover";
import { sessionTitle } from "../util/session-title";
import { withTexts, type TextAt } from "./edit-texts";
import type { FileTouch } from "./file-touch";
import { CacheWriter, historyCacheFile, readCache, recordTouches, saveCache, type SessionRecord } from "./history-cache";
import type { HistoryOptions } from "./history-options";
import { repoOf, type RepoOf } from "./repo-identity";
import { readSessionTouches, type SessionRead } from "./read-touches";
import { EarlyReads, type EarlyRead } from "./early-reads";
import { claimNext, readerThreads, TouchThread, type ReadReply } from "./touch-thread";

export { historyCacheFile } from "./history-cache";
export type { HistoryOptions, HistoryProgress } from "./history-options";

/**
 * The largest session file the history reads. Reading one costs time in proportion to its
 * size, and a file past this (a sparse file of gigabytes of NULs, a log named .jsonl) would
 * hold up the whole index; real sessions stay well below it (the largest seen: 1.6 GB).
 * A larger one is left out with its size and this limit named (a problem the CLI shows).
 */
export const MAX_SESSION_BYTES = 2 * 2 ** 30;

/** Sessions read at once: enough to overlap I/O, few enough for a busy machine. */
const PARALLEL = 4;

/** A touch as the index holds it: its edit's texts may still be places in the session file, read back at the first lookup. */
type IndexedTouch = FileTouch & { oldAt?: TextAt; newAt?: TextAt };

/** A session file to index: a listed session, or a sub-agent transcript of one. */
interface Source {
  path: string;
  agent: string;
  cwd: string;
  title: string;
  size: number;
  mtimeMs: number;
  /**
   * Listed from its head only (SessionSummary.headsOnly): the name a later line gives is the
   * read's to find, and `title` is what the head alone makes; this makes it with that name.
   */
  titleWith?: (name: string | undefined) => string;
}

function sourcesOf(s: SessionSummary): Source[] {
  const title = sessionTitle(s, s.path);
  const titleWith = s.headsOnly ? (name: string | undefined) => sessionTitle({ ...s, name: name ?? s.name }, s.path) : undefined;
  const out: Source[] = [{ path: s.path, agent: s.agent, cwd: s.cwd, title, size: s.size, mtimeMs: s.mtimeMs, titleWith }];
  for (const a of s.subagents ?? []) {
    // A sub-agent written inline is part of its session's own file, read with it.
    if (a.path === s.path) continue;
    out.push({ path: a.path, agent: s.agent, cwd: s.cwd, title: `${title} (sub-agent${a.description ? `: ${a.description}` : ""})`, size: a.size, mtimeMs: a.mtimeMs });
  }
  return out;
}

/**
 * Every file every session of every agent read, wrote or edited, by absolute path: built
 * from the file operations the formats extract, kept in memory and in a cache file, and
 * refreshed by file stamp (size and mtime) the way the session list is, so a refresh reads
 * only the sessions that changed.
 */
export class HistoryIndex {
  private records = new Map<string, SessionRecord>();
  /**
   * Which sessions touched each file: their places in `sessions`. A file's whole touches are
   * made at its first lookup, from those sessions' touches (made then from their rows: a
   * one-off `ase history` asks one file of thousands), then kept newest first in `whole`.
   */
  private byFile = new Map<string, number[]>();
  private sessions: Array<[string, SessionRecord]> = [];
  private whole = new Map<string, IndexedTouch[]>();
  private repoMemo = new Map<string, RepoOf | null>();
  private loadedCache = false;
  /** Sessions read in full since this index was made (the tests count them). */
  sessionReads = 0;
  /** Of those, the ones read on reader threads. */
  threadReads = 0;
  /** Of those, the ones a thread began while the stores were still listed (EarlyReads). */
  earlyReads = 0;
  /** How many each reader thread of the last refresh read (the tests see that every one did). */
  readsByThread: number[] = [];
  /** Reader threads started by the refreshes so far, used or not (the tests see a cold index start them early). */
  threadsStarted = 0;
  /** Sessions that could not be read on the last refresh, with why (never fatal). */
  problems: Array<{ path: string; reason: string }> = [];

  constructor(private readonly opts: HistoryOptions = {}) {}

  /** Brings the index up to date with the stores: new and changed sessions read, gone ones dropped. */
  async refresh(): Promise<void> {
    const cacheFile = this.opts.cacheDir ? historyCacheFile(this.opts.cacheDir) : undefined;
    if (!this.loadedCache) {
      this.loadedCache = true;
      if (cacheFile) this.records = readCache(cacheFile);
    }
    // Heads only: each stale session is read whole below, names and all; a full listing
    // would read every byte of every file once more (it was half the cold index's time).
    const listOpts: ListAllOptions = { dirs: this.opts.dirs, only: this.opts.only, cacheDir: this.opts.cacheDir, env: this.opts.env, signal: this.opts.signal, headsOnly: true };
    // An index that knows no session yet (a cold one) starts its reader threads now, and they
    // read the sessions the listing finds while it lists (EarlyReads); those a small store
    // turns out not to need are closed.
    const threads: TouchThread[] = [];
    if (!this.records.size) for (let n = readerThreads(Infinity, this.opts.threads); n > 0; n--) threads.push(...this.startThread());
    const early = threads.length ? new EarlyReads(threads, this.cap) : undefined;
    if (early) listOpts.onSummary = (s) => early.offer(s);
    let cache: CacheWriter | undefined;
    try {
      const listing = await listAllSessions(listOpts).finally(() => early?.stop());
      const sources = listing.projects.flatMap((p) => p.sessions.flatMap(sourcesOf));
      const next = new Map<string, SessionRecord>();
      const stale: Source[] = [];
      let retitled = false;
      for (const s of sources) {
        const old = this.records.get(s.path);
        if (old && old.size === s.size && old.mtimeMs === s.mtimeMs && old.agent === s.agent) {
          // A title can change without the file (Codex keeps names beside its sessions); one
          // made with the name read from the file (titleWith) stands while the file does.
          const title = s.titleWith ? old.title : s.title;
          retitled ||= old.title !== title || old.cwd !== s.cwd;
          next.set(s.path, { ...old, title, cwd: s.cwd });
        } else stale.push(s);
      }
      // The cache file is written as the sessions are read (put in place at the end).
      cache = cacheFile && stale.length ? new CacheWriter(cacheFile) : undefined;
      const got = await this.readAll(stale, threads, cache, early?.stop());
      const problems: HistoryIndex["problems"] = [];
      stale.forEach((s, k) => {
        const r = got[k];
        if (r && "reason" in r) problems.push({ path: s.path, reason: r.reason });
        else if (r) next.set(s.path, r);
      });
      const changed = stale.length > 0 || next.size !== this.records.size;
      this.records = next;
      this.problems = problems;
      if (changed || retitled || !this.byFile.size) this.rebuild();
      // Repositories move and get cloned between refreshes; their answers are recomputed.
      this.repoMemo = new Map();
      if (cache) cache.finish(this.records);
      else if (changed && cacheFile) saveCache(cacheFile, this.records);
    } catch (err) {
      cache?.drop();
      throw err;
    } finally {
      for (const t of threads) t.close();
    }
  }

  /**
   * Each stale session's record or problem, by its place in `stale` (the index and its
   * problems come out the same whichever thread read what, in whatever order), each record
   * handed to `cache` as it comes. `threads`: the reader threads started so far, made as
   * many as the sessions' size asks (readerThreads) and left open for the caller to close.
   */
  private async readAll(stale: Source[], threads: TouchThread[], cache: CacheWriter | undefined, early = new Map<string, EarlyRead>()): Promise<Array<SessionRecord | { reason: string } | undefined>> {
    const got: Array<SessionRecord | { reason: string } | undefined> = new Array(stale.length);
    const cap = this.cap;
    let done = 0;
    if (stale.length) this.opts.onProgress?.(0, stale.length);
    const answer = (k: number, r: SessionRecord | { reason: string }) => {
      got[k] = r;
      if (!("reason" in r)) cache?.add(stale[k].path, r);
      this.opts.onProgress?.(++done, stale.length);
    };
    const over = (s: Source) => s.size > cap;
    stale.forEach((s, k) => over(s) && answer(k, { reason: `${s.size} bytes, more than the ${cap} bytes the history reads of one session (${gib(cap)}); its file operations are not indexed` }));
    const wanted = readerThreads(stale.reduce((bytes, s) => bytes + (over(s) ? 0 : s.size), 0), this.opts.threads);
    for (const t of threads.splice(wanted)) t.close();
    for (let n = threads.length; n < wanted; n++) threads.push(...this.startThread());
    this.readsByThread = threads.map(() => 0);
    // Those read while the stores were listed, as they are listed now (any other is read
    // again); none where this refresh is small enough for this thread alone.
    const readEarly: Array<[number, EarlyRead]> = [];
    if (threads.length)
      stale.forEach((s, k) => {
        const e = early.get(s.path);
        if (e && !over(s) && e.size === s.size && e.mtimeMs === s.mtimeMs && e.item.cwd === s.cwd && e.item.formatId === s.agent) readEarly.push([k, e]);
      });
    const taken = new Set(readEarly.map(([k]) => k));
    // Largest first, so no thread is left with a big session at the end.
    const order = stale.flatMap((s, k) => (over(s) || taken.has(k) ? [] : [k])).sort((a, b) => stale[b].size - stale[a].size);
    const fromThread = (n: number, k: number, r: ReadReply) => {
      this.sessionReads++;
      this.threadReads++;
      if (n >= 0) this.readsByThread[n]++;
      answer(k, "error" in r ? { reason: r.error } : recordOf(stale[k], r));
    };
    // Every thread claims the next session from one counter in shared memory: a thread never
    // waits for this one (busy with a session of its own) to hand it the next, as it did at
    // a thousand small sessions (a fifth of its time). Each reader thread is given one of the
    // largest first, so each reads some.
    const claim = new Int32Array(new SharedArrayBuffer(4));
    claim[0] = Math.min(threads.length, order.length);
    const items = order.map((k) => ({ path: stale[k].path, cwd: stale[k].cwd, formatId: stale[k].agent }));
    const shares = threads.map((t, n) =>
      t
        .readShared({ items, claim: claim.buffer as SharedArrayBuffer, first: n < order.length ? n : -1 }, (j, r) => fromThread(n, order[j], r))
        // A thread that failed: the sessions it did not answer are read here (below).
        .catch(() => undefined),
    );
    const here = async () => {
      for (let j = claimNext(claim); j < order.length; j = claimNext(claim)) {
        this.opts.signal?.throwIfAborted();
        await this.readHere(order[j], stale, threads.length > 0, answer);
      }
    };
    // With reader threads, this one reads one session at a time: holding four (both of the
    // largest among them) left it the last to finish while the thread idled (17% of its time
    // at 200 sessions), and four sessions' heaps at once cost GC and memory.
    await Promise.all([...Array.from({ length: threads.length ? 1 : PARALLEL }, here), ...shares]);
    for (const [k, e] of readEarly) {
      const r = await e.reply.catch(() => undefined);
      if (!r) continue;
      this.earlyReads++;
      fromThread(threads.findIndex((t) => t === e.thread), k, r);
    }
    for (const k of [...taken, ...order]) if (!got[k]) await this.readHere(k, stale, threads.length > 0, answer);
    return got;
  }

  private get cap(): number {
    return this.opts.maxSessionBytes ?? MAX_SESSION_BYTES;
  }

  /** Reads stale[k] on this thread (`threaded`: beside reader threads) and gives `answer` its record or problem. */
  private async readHere(k: number, stale: Source[], threaded: boolean, answer: (k: number, r: SessionRecord | { reason: string }) => void): Promise<void> {
    this.opts.signal?.throwIfAborted();
    this.sessionReads++;
    const s = stale[k];
    const r = await readSessionTouches(s.path, s.cwd, { signal: this.opts.signal, secondThread: threaded ? false : undefined, formatId: s.agent }).then(
      (read) => recordOf(s, read),
      (err: unknown) => ({ reason: (err as Error).message }),
    );
    answer(k, r);
  }

  /** A reader thread, or none where its bundle is not built. */
  protected startThread(): TouchThread[] {
    const t = TouchThread.start();
    if (!t) return [];
    this.threadsStarted++;
    return [t];
  }

  private rebuild(): void {
    this.byFile = new Map();
    this.whole = new Map();
    this.sessions = [...this.records];
    this.sessions.forEach(([, rec], k) => {
      for (const path of rec.paths) {
        const list = this.byFile.get(path);
        if (list) list.push(k);
        else this.byFile.set(path, [k]);
      }
    });
  }

  /** A file's touches, whole and newest first: the index's own objects (their texts read back once, at a lookup). */
  private touchesOf(path: string): IndexedTouch[] {
    let list = this.whole.get(path);
    if (list) return list;
    const at = this.byFile.get(path);
    if (!at) return [];
    list = [];
    for (const k of at) {
      const [session, rec] = this.sessions[k];
      for (const touch of recordTouches(rec)) if (touch.absolutePath === path) list.push({ agent: rec.agent, sessionPath: session, sessionTitle: rec.title, ...touch });
    }
    list = newestFirst(list);
    this.whole.set(path, list);
    return list;
  }

  /**
   * Every touch of a file, newest first: those of its own path, and those of the same
   * path in other checkouts of its repository (marked otherCheckout with that checkout's root).
   * The records are the index's own: read them, do not change them.
   */
  lookup(absolutePath: string): FileTouch[] {
    const file = resolve(absolutePath);
    const own = this.touchesOf(file);
    withTexts(own);
    const repo = repoOf(dirname(file), this.repoMemo);
    const others: FileTouch[] = [];
    if (repo) {
      const rel = relative(repo.root, file);
      for (const root of this.checkoutsOf(repo)) for (const t of withTexts(this.touchesOf(join(root, rel)))) others.push({ ...t, otherCheckout: root });
    }
    return others.length ? newestFirst([...own, ...others]) : own.slice();
  }

  /** Other checkouts of a repository that sessions ran in (found from the sessions' cwds). */
  private checkoutsOf(repo: RepoOf): string[] {
    const roots = new Set<string>();
    const cwds = new Set<string>();
    for (const rec of this.records.values()) if (rec.cwd && rec.paths.length) cwds.add(rec.cwd);
    for (const cwd of cwds) {
      const r = repoOf(cwd, this.repoMemo);
      if (r && r.key === repo.key && r.root !== repo.root && !isInside(repo.root, r.root)) roots.add(r.root);
    }
    return [...roots];
  }

  /** Every file some session touched, those touched by the most sessions first. */
  touchedFiles(): string[] {
    return [...this.byFile.entries()].sort((a, b) => b[1].length - a[1].length).map(([path]) => path);
  }

  /** How many sessions the index holds (sub-agent transcripts counted apart). */
  get sessionCount(): number {
    return this.records.size;
  }
}

const NO_ROWS = JSON.stringify({ paths: [], prompts: [], entries: [] });

/** A session's record from its read (its title made with the name the read found, when its listing read the head only). */
function recordOf(s: Source, read: Omit<SessionRead, "touches">): SessionRecord {
  const title = s.titleWith ? s.titleWith(read.name) : s.title;
  // The touches themselves are not kept: their rows hold them (recordTouches).
  return { agent: s.agent, size: s.size, mtimeMs: s.mtimeMs, cwd: s.cwd, title, paths: read.paths, rows: read.rows || NO_ROWS };
}

function gib(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
}

/** A checkout nested in another (a worktree inside the main one) is its own, not a copy of the outer. */
function isInside(outer: string, inner: string): boolean {
  return inner.startsWith(outer + sep);
}

/** Newest first; entries without a time last, in the order found (each time parsed once, not per comparison). */
function newestFirst<T extends FileTouch>(touches: T[]): T[] {
  const timed = touches.map((t, k) => ({ t, k, ms: t.timestamp ? Date.parse(t.timestamp) : Number.NaN }));
  timed.sort((a, b) => {
    const na = Number.isNaN(a.ms);
    const nb = Number.isNaN(b.ms);
    if (na || nb) return na && nb ? a.k - b.k : na ? 1 : -1;
    return b.ms - a.ms || a.k - b.k;
  });
  return timed.map((x) => x.t);
}
