import { readSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { EntryKind } from "../session/entry-kinds";
import type { SearchEntry, SearchHooks } from "../session/search-hooks";
import type { CandidateFinder } from "./candidates";
import type { SearchPattern } from "./pattern";
import type { SearchHit } from "./search-types";
import { snippetOf } from "./snippet";
import { readHead } from "../store/head-lines";
import { openRegularAsync } from "../util/safe-open";

/** Bytes read at a time: large reads keep the per-call cost out of the scan. */
export const SEARCH_CHUNK = 4 << 20;
/** A line longer than this is skipped unread: V8 cannot hold it as one string anyway. */
const MAX_LINE = 256 << 20;
const NL = Buffer.from("\n");

/**
 * Chunk buffers kept between files: a fresh 4 MB buffer per file meant page faults on
 * every one and garbage to collect (a search opens a thousand files).
 */
const pool: Buffer[] = [];

function take(size: number): Buffer {
  const k = pool.findIndex((b) => b.length === size);
  return k >= 0 ? pool.splice(k, 1)[0] : Buffer.allocUnsafeSlow(size);
}

function give(...bufs: Buffer[]): void {
  for (const b of bufs) if (pool.length < 4) pool.push(b);
}

/** A file opened ahead of its scan, its first read perhaps under way (into `buf`). */
export interface OpenedFile {
  fh: Promise<FileHandle>;
  buf?: Buffer;
  first?: Promise<{ bytesRead: number }>;
}

/** Non-blocking: a file swapped for a FIFO must not hang the search. */
export function openForSearch(path: string): Promise<FileHandle> {
  return openRegularAsync(path);
}

export interface FileScan {
  path: string;
  /** The file opened ahead (see handOff). */
  opened?: OpenedFile;
  /**
   * Called with a free chunk buffer once this file's last read is done, so the caller can
   * start the next file's first read into it (that buffer is then the caller's to pass on);
   * false declines it (the caller has more to read first).
   */
  handOff?(buf: Buffer): boolean;
  /** The size the file had when listed: the search reads that much. */
  size: number;
  /** The file's head (its first bytes; `complete` when that is the whole file) decides its hooks and version; undefined skips the file. */
  setup(head: Buffer, complete: boolean): { hooks: SearchHooks; version: number } | undefined;
  /** Filled in by scanFile from what setup answered. */
  hooks?: SearchHooks;
  /** The file's version from its header (0 for formats without one). */
  version?: number;
  pattern: SearchPattern;
  finder: CandidateFinder;
  /** Only text of these kinds counts. */
  kinds?: ReadonlySet<EntryKind>;
  since?: number;
  until?: number;
  /** Time of entries that have none: the file's mtime. */
  mtimeMs: number;
  /** Stop after this many hits. */
  limit: number;
  signal?: AbortSignal;
  chunkSize?: number;
  /** Bytes read, after each read. */
  onBytes?(n: number): void;
  /** Each hit as it is found (the search thread posts them, so a stopped search keeps them). */
  onHit?(hit: SearchHit): void;
  /** Told when a regex match starts and ends (the search thread's deadline watches it). */
  watch?: MatchWatch;
}

/** Brackets each run of the pattern's matcher: a run that never ends shows as a start with no end. */
export interface MatchWatch {
  /** A match starts on the entry at this line. */
  start(line: number): void;
  end(): void;
}

/** Newlines in buf[from, to). */
function countLines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  for (let k = buf.indexOf(NL, from); k !== -1 && k < to; k = buf.indexOf(NL, k + 1)) n++;
  return n;
}

/**
 * Line numbers, counted only when a line needs one: chunks without a candidate are never
 * counted while they pass (counting every newline cost more than the search itself);
 * when a later line needs its number, the bytes in between are read again (page-cached)
 * and counted then. A rare word costs no counting at all in files without it.
 */
class LineCounter {
  private countedTo = 0;
  private line = 1;
  private scratch?: Buffer;

  constructor(private readonly fd: number) {}

  /** The line number of the line starting at file offset `at`; buf holds the file from `base`. */
  lineAt(at: number, buf: Buffer, base: number): number {
    if (this.countedTo < base) {
      this.scratch ??= Buffer.allocUnsafe(SEARCH_CHUNK);
      for (let pos = this.countedTo; pos < base; ) {
        const n = readSync(this.fd, this.scratch, 0, Math.min(this.scratch.length, base - pos), pos);
        if (n === 0) break;
        this.line += countLines(this.scratch, 0, n);
        pos += n;
      }
      this.countedTo = base;
    }
    this.line += countLines(buf, this.countedTo - base, at - base);
    this.countedTo = at;
    return this.line;
  }
}

/** The hit of one line, if its entry's visible text matches. */
function lineHit(s: FileScan, buf: Buffer, start: number, end: number, lineNo: number): SearchHit | undefined {
  let obj: unknown;
  try {
    obj = JSON.parse(buf.toString("utf8", start, end));
  } catch {
    // A bad line is the reader's to report; a search passes over it.
    return undefined;
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return undefined;
  const entry = (s.hooks as SearchHooks).entry(obj as Record<string, unknown>, { lineNo, version: s.version ?? 0 });
  return entry ? entryHit(s, entry, lineNo) : undefined;
}

/** The hit of one entry, if its visible text matches within the time and kind filters (a line's, or a database row's). */
export function entryHit(s: Pick<FileScan, "mtimeMs" | "since" | "until" | "kinds" | "watch" | "pattern">, entry: SearchEntry, lineNo: number): SearchHit | undefined {
  const t = Number.isNaN(entry.time) ? s.mtimeMs : entry.time;
  if ((s.since !== undefined && t < s.since) || (s.until !== undefined && t > s.until)) return undefined;
  for (const part of entry.parts) {
    if (s.kinds && !s.kinds.has(part.kind)) continue;
    s.watch?.start(lineNo);
    const m = s.pattern.matcher.exec(part.text);
    s.watch?.end();
    if (!m) continue;
    const snip = snippetOf(part.text, m.index, m.index + m[0].length);
    const timestamp = Number.isFinite(entry.time) ? new Date(entry.time).toISOString() : null;
    return { entryId: entry.id, kind: part.kind, timestamp, line: lineNo, snippet: snip.text, match: snip.match };
  }
  return undefined;
}

/**
 * Searches one file: reads it in large chunks cut at line ends (the next read runs while
 * this chunk is searched), finds candidates in the raw bytes, and parses only the lines
 * holding one. The first chunk's head goes to `setup` first, which picks the format (or
 * skips the file: then undefined comes back). Reads up to the size the file had when
 * listed. Line numbers are counted only where a line needs one (LineCounter). Never writes.
 */
export async function scanFile(s: FileScan): Promise<{ hits: SearchHit[]; bytes: number } | undefined> {
  const size = s.chunkSize ?? SEARCH_CHUNK;
  const fh = await (s.opened?.fh ?? openForSearch(s.path));
  const hits: SearchHit[] = [];
  let inFlight: Promise<{ bytesRead: number }> | undefined;
  let bytes = 0;
  const own = s.finder.buffers?.(size);
  // A file opened ahead comes with its first read under way, into one of our buffers.
  let buf = s.opened?.buf ?? (own ? own[0] : take(size));
  let spare = own ? (own[0] === buf ? own[1] : own[0]) : take(size);
  let handedOff: Buffer | undefined;
  const readInto = (b: Buffer, at: number, pos: number) => fh.read(b, at, Math.min(b.length - at, s.size - pos), pos);
  try {
    let pos = 0;
    // Bytes at buf's start that belong to a line the last chunk did not finish.
    let carry = 0;
    const lines = new LineCounter(fh.fd);
    // Inside a line too long to keep: drop bytes until its end.
    let skipping = false;
    let hooks: Pick<FileScan, "hooks" | "version"> | undefined;
    inFlight = s.opened?.first ?? readInto(buf, 0, 0);
    for (;;) {
      s.signal?.throwIfAborted();
      const { bytesRead } = await (inFlight as Promise<{ bytesRead: number }>);
      inFlight = undefined;
      pos += bytesRead;
      const len = carry + bytesRead;
      const eof = bytesRead === 0 || pos >= s.size;
      if (!hooks) {
        // The first lines whole, as the registry detects them (read on when the chunk cuts one).
        const head = readHead(fh.fd, s.path, s.size, { lines: 5, have: buf.subarray(0, len) });
        hooks = s.setup(head.bytes, head.whole);
        if (!hooks) return undefined;
        s.hooks = hooks.hooks;
        s.version = hooks.version;
      }
      bytes += bytesRead;
      s.onBytes?.(bytesRead);
      let from = 0;
      if (skipping) {
        const nl = buf.indexOf(NL, 0);
        if (nl === -1 || nl >= len) {
          if (eof) break;
          carry = 0;
          inFlight = readInto(buf, 0, pos);
          continue;
        }
        from = nl + 1;
        skipping = false;
      }
      const lastNl = len > from ? buf.lastIndexOf(NL, len - 1) : -1;
      const complete = eof ? len : lastNl >= from ? lastNl + 1 : from;
      if (complete === from && !eof) {
        // One line fills the buffer: grow it (up to MAX_LINE), else skip the line.
        if (from > 0) {
          buf.copy(buf, 0, from, len);
          carry = len - from;
        } else if (buf.length >= MAX_LINE) {
          skipping = true;
          carry = 0;
        } else {
          const bigger = Buffer.allocUnsafe(buf.length * 2);
          buf.copy(bigger, 0, 0, len);
          buf = bigger;
          spare = Buffer.allocUnsafe(bigger.length);
          carry = len;
        }
        inFlight = readInto(buf, carry, pos);
        continue;
      }
      // The unfinished line goes to the other buffer, whose read starts now.
      const tail = len - complete;
      if (!eof) {
        buf.copy(spare, 0, complete, len);
        inFlight = readInto(spare, tail, pos);
      } else if (s.handOff && spare.length === size && s.handOff(spare)) {
        // The next file's first read runs while this last chunk is searched.
        handedOff = spare;
      }
      // buf[0] is at file offset pos - len (the carry came before this read's bytes).
      searchChunk(s, buf, from, complete, (at) => lines.lineAt(at + pos - len, buf, pos - len), hits);
      if (eof || hits.length >= s.limit) break;
      [buf, spare] = [spare, buf];
      carry = tail;
    }
  } finally {
    // A read still running must settle before its file closes (and its buffer is reused).
    if (inFlight) await inFlight.catch(() => undefined);
    await fh.close();
    // Grown buffers (a long line) go to the collector, not the pool; the finder's stay its own.
    if (!own && buf.length === size) give(...[buf, spare].filter((b) => b !== handedOff));
  }
  return { hits, bytes };
}

/** Searches the whole lines in buf[from, end); lineAt gives the number of the line starting at a buffer offset. */
function searchChunk(s: FileScan, buf: Buffer, from: number, end: number, lineAt: (at: number) => number, hits: SearchHit[]): void {
  s.finder.begin(buf, end);
  for (let p = s.finder.next(from); p !== -1 && p < end; ) {
    const start = Math.max(from, p > 0 ? buf.lastIndexOf(NL, p - 1) + 1 : 0);
    let stop = buf.indexOf(NL, p);
    if (stop === -1 || stop > end) stop = end;
    const hit = stop > start ? lineHit(s, buf, start, stop, lineAt(start)) : undefined;
    if (hit) {
      hits.push(hit);
      s.onHit?.(hit);
      if (hits.length >= s.limit) return;
    }
    if (stop >= end) break;
    p = s.finder.next(stop + 1);
  }
}
