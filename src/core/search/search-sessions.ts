import type { EntryKind } from "../session/entry-kinds";
import { pushAll } from "../util/push-all";
import { type CandidateFinder, candidateFinder } from "./candidates";
import { kindSet } from "./kinds";
import { compilePattern, type SearchPattern } from "./pattern";
import { DEFAULT_REGEX_DEADLINE_MS, searchThreadSource, threadedSearch } from "./regex-thread";
import { type MatchWatch, type OpenedFile, openForSearch, scanFile } from "./scan-file";
import { findTargets, plainCopyOf, type PreparedTarget, prepareHead, type SearchTarget, subagentFiles, type TargetOptions, titleOf } from "./search-targets";
import type { SearchHit, SearchStats, SessionHits, SubagentOfHit } from "./search-types";
import type { SearchOptions } from "./search-options";
import { searchRowStores, splitAddresses } from "./search-rows";

export type { SearchOptions } from "./search-options";

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

  /** Paths read so far: a sub-agent's file given by path too is read once. */
  private readonly read = new Set<string>();

  /**
   * Reads one file, and then the sub-agent transcripts its store lists for it; its hits
   * and theirs (each naming its sub-agent) come back as one session's, or undefined when
   * none matched. A file that cannot be read is skipped with the reason.
   */
  private async scanTarget(t: SearchTarget, opened: OpenedFile | undefined, handOff: ((buf: Buffer) => boolean) | undefined, limit: number): Promise<SessionHits | undefined> {
    const o = this.opts;
    if (this.read.has(t.path)) {
      // Read already (as a sub-agent of a session before it).
      if (opened) await closeAhead(opened);
      return undefined;
    }
    this.read.add(t.path);
    let p: PreparedTarget | undefined;
    const hits: SearchHit[] = [];
    const scanOne = async (path: string, size: number, mtimeMs: number, sub?: SubagentOfHit, first?: Pick<Parameters<typeof scanFile>[0], "opened" | "handOff">): Promise<void> => {
      let res;
      try {
        // A compressed file (Codex's .zst) is read in its decompressed copy; hits name the file itself.
        const plain = await plainCopyOf(path);
        if (plain?.error) this.skipped.push({ path, reason: plain.error });
        if (plain && first?.opened) await closeAhead(first.opened);
        res = await scanFile({
          path: plain?.path ?? path,
          ...(plain ? { handOff: first?.handOff } : first),
          size: plain?.size ?? size,
          setup: (head, complete) => {
            const got = prepareHead({ path, size, mtimeMs }, head, complete, sub ? undefined : o.only);
            if (got === null) return undefined;
            if (typeof got === "string") {
              this.skipped.push({ path, reason: got });
              return undefined;
            }
            if (!sub) {
              if (o.project !== undefined && !got.cwd.includes(o.project)) return undefined;
              p = got;
            }
            o.onFile?.(path);
            this.scanned.files++;
            return got;
          },
          pattern: this.pattern,
          finder: this.finder,
          kinds: this.kinds,
          since: o.since,
          until: o.until,
          mtimeMs,
          limit: limit - this.hitCount - hits.length,
          signal: o.signal,
          chunkSize: o.chunkSize,
          onBytes: (n) => {
            this.scanned.bytes += n;
          },
          onHit: o.onHit && ((hit) => o.onHit?.({ path: t.path, agent: (p as PreparedTarget).format.id, cwd: (p as PreparedTarget).cwd }, sub ? { ...hit, subagent: sub } : hit)),
          watch: o.watch,
        });
      } catch (err) {
        if (o.signal?.aborted) throw err;
        this.skipped.push({ path, reason: (err as Error).message });
        return;
      }
      // One by one: a spread of a million hits would overflow the stack.
      for (const h of res?.hits ?? []) hits.push(sub ? { ...h, subagent: sub } : h);
    };
    await scanOne(t.path, t.size, t.mtimeMs, undefined, { opened, handOff: handOff && ((buf) => !subagentsPossible(p) && handOff(buf)) });
    if (!p) return undefined;
    const found: PreparedTarget = p;
    // No look at the disk (nor a promise) for formats whose sessions have no sub-agent files.
    for (const a of subagentsPossible(found) ? await subagentFiles(found) : []) {
      o.signal?.throwIfAborted();
      if (this.hitCount + hits.length >= limit || this.read.has(a.path) || (o.since !== undefined && a.mtimeMs < o.since)) continue;
      this.read.add(a.path);
      await scanOne(a.path, a.size, a.mtimeMs, { agentId: a.agentId, ...(a.description ? { description: a.description } : {}), path: a.path });
    }
    if (!hits.length) return undefined;
    this.hitCount += hits.length;
    const title = await titleOf(found);
    return { path: t.path, agent: found.format.id, cwd: found.cwd, ...(title ? { title } : {}), hits };
  }

  /** Whether the limit stopped the search. */
  get limited(): boolean {
    return this.opts.limit !== undefined && this.hitCount >= this.opts.limit;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SessionHits> {
    const o = this.opts;
    o.signal?.throwIfAborted();
    // A user's regex can backtrack for hours on one entry, and only a thread can be stopped mid-match.
    const source = this.pattern.regex && o.threaded !== false ? searchThreadSource() : undefined;
    if (source) {
      yield* threadedSearch(this, o, source, o.regexDeadlineMs ?? DEFAULT_REGEX_DEADLINE_MS);
      return;
    }
    // Sessions that are rows of a store (no file to scan) are searched after the files.
    const split = o.files ? splitAddresses(o.files) : undefined;
    const { targets, skipped } = await findTargets(split ? { ...o, files: split.files } : o);
    pushAll(this.skipped, skipped);
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
              return true;
            }
          : undefined;
        const done = await this.scanTarget(t, opened, handOff, limit);
        if (done) yield done;
      }
      if (split && !split.addresses.length) return;
      for await (const done of searchRowStores(this, o, () => limit - this.hitCount, split?.addresses)) {
        this.hitCount += done.hits.length;
        this.scanned.files++;
        yield done;
      }
    } finally {
      // Stopped early (a limit, an abort, a consumer that broke off): the file opened ahead is closed.
      if (ahead) await closeAhead(ahead);
    }
  }
}

/**
 * Whether a session's store may list sub-agent files for it: then its last buffer is not
 * handed to the next file's first read (the sub-agents' scans, on the same finder, use it).
 */
function subagentsPossible(p: PreparedTarget | undefined): boolean {
  return !!p?.format.discovery?.scanner.subagents;
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
