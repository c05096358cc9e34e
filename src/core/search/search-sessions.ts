import type { EntryKind } from "../formats/entry-kinds";
import { type CandidateFinder, candidateFinder } from "./candidates";
import { kindSet } from "./kinds";
import { compilePattern, type SearchPattern } from "./pattern";
import { type OpenedFile, openForSearch, scanFile } from "./scan-file";
import { findTargets, type PreparedTarget, prepareHead, type TargetOptions, titleOf } from "./search-targets";
import type { SearchStats, SessionHits } from "./search-types";

export interface SearchOptions extends TargetOptions {
  pattern: string;
  /** A JavaScript regular expression rather than plain text. */
  regex?: boolean;
  /** Case-insensitive unless set. */
  caseSensitive?: boolean;
  /** Only text of these kinds: neutral kinds ("user", "tool-result") or groups ("tool", "summary"). */
  kinds?: readonly string[];
  /** Only sessions whose cwd holds this text. */
  project?: string;
  /** Only entries at or after this time (ms); entries without a time count at their file's mtime. */
  since?: number;
  /** Only entries at or before this time (ms). */
  until?: number;
  /** Stop after this many hits in all. */
  limit?: number;
  /** Stops the scan (checked between chunks); the iteration then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Bytes read at a time (tests make it small to cross chunk ends). */
  chunkSize?: number;
  /** Called as each file's scan starts (progress; tests check the order of scans and results). */
  onFile?(path: string): void;
}

/**
 * A search over session files, as an async iterable of each file's hits, yielded as
 * soon as that file is done (files run newest first, one at a time; while one is
 * searched, only the next is opened and its first chunk read). No index: each file is
 * read in large chunks whose raw bytes are searched for the pattern's literal; only
 * lines holding one are parsed, and a hit counts only in the entry's visible text.
 * Iterate it once.
 */
export class SessionSearch implements AsyncIterable<SessionHits> {
  readonly pattern: SearchPattern;
  readonly kinds?: ReadonlySet<EntryKind>;
  /** One finder for every file (the SIMD one holds a WebAssembly instance). */
  private readonly finder: CandidateFinder;
  /** Files and bytes read so far. */
  readonly scanned: SearchStats = { files: 0, bytes: 0 };
  /** Files passed over, with the reason (unreadable, a format that cannot be searched). */
  readonly skipped: Array<{ path: string; reason: string }> = [];
  /** Hits yielded so far. */
  hitCount = 0;

  /** Throws SearchInputError at once for a bad pattern or kind. */
  constructor(private readonly opts: SearchOptions) {
    this.pattern = compilePattern(opts.pattern, { regex: opts.regex, caseSensitive: opts.caseSensitive });
    this.kinds = kindSet(opts.kinds);
    this.finder = candidateFinder(this.pattern);
  }

  /** Whether the limit stopped the search. */
  get limited(): boolean {
    return this.opts.limit !== undefined && this.hitCount >= this.opts.limit;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SessionHits> {
    const o = this.opts;
    o.signal?.throwIfAborted();
    const { targets, skipped } = await findTargets(o);
    this.skipped.push(...skipped);
    const limit = o.limit ?? Number.POSITIVE_INFINITY;
    // A file last written before `since` holds nothing newer: not read at all.
    const wanted = targets.filter((t) => o.since === undefined || t.mtimeMs >= o.since);
    // The next file, opened while this one is searched (its first read starts at this one's end).
    let ahead: (OpenedFile & { path: string }) | undefined;
    try {
      for (let k = 0; k < wanted.length; k++) {
        const t = wanted[k];
        o.signal?.throwIfAborted();
        if (this.hitCount >= limit) return;
        const opened = ahead?.path === t.path ? ahead : undefined;
        const n = wanted[k + 1];
        ahead = n ? { path: n.path, fh: settled(openForSearch(n.path)) } : undefined;
        const next = ahead;
        const handOff = next
          ? (buf: Buffer) => {
              next.buf = buf;
              next.first = settled(next.fh.then((fh) => fh.read(buf, 0, Math.min(buf.length, n.size), 0)));
            }
          : undefined;
        let p: PreparedTarget | undefined;
        let res;
        try {
          res = await scanFile({
            path: t.path,
            opened,
            handOff,
            size: t.size,
            setup: (head, complete) => {
              const got = prepareHead(t, head, complete, o.only);
              if (got === null) return undefined;
              if (typeof got === "string") {
                this.skipped.push({ path: t.path, reason: got });
                return undefined;
              }
              if (o.project !== undefined && !got.cwd.includes(o.project)) return undefined;
              p = got;
              o.onFile?.(t.path);
              this.scanned.files++;
              return got;
            },
            pattern: this.pattern,
            finder: this.finder,
            kinds: this.kinds,
            since: o.since,
            until: o.until,
            mtimeMs: t.mtimeMs,
            limit: limit - this.hitCount,
            signal: o.signal,
            chunkSize: o.chunkSize,
            onBytes: (n) => {
              this.scanned.bytes += n;
            },
          });
        } catch (err) {
          if (o.signal?.aborted) throw err;
          this.skipped.push({ path: t.path, reason: (err as Error).message });
          continue;
        }
        if (!res || !p) continue;
        if (!res.hits.length) continue;
        this.hitCount += res.hits.length;
        const found: PreparedTarget = p;
        const title = await titleOf(found);
        yield { path: t.path, agent: found.format.id, cwd: found.cwd, ...(title ? { title } : {}), hits: res.hits };
      }
    } finally {
      // Stopped early (a limit, an abort, a consumer that broke off): the file opened ahead is closed.
      if (ahead) await closeAhead(ahead);
    }
  }
}

/** The promise, marked handled: its rejection surfaces where it is awaited, never as an unhandled one. */
function settled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

async function closeAhead(a: OpenedFile): Promise<void> {
  try {
    const fh = await a.fh;
    if (a.first) await a.first.catch(() => undefined);
    await fh.close();
  } catch {
    // It never opened.
  }
}

/** Searches every session of every agent (or the files given); see SessionSearch. */
export function searchSessions(opts: SearchOptions): SessionSearch {
  return new SessionSearch(opts);
}
