import { mkdirSync } from "node:fs";
import { writeNewFile } from "../store/atomic-file";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { readTextFile } from "../util/safe-open";

const FORMAT = 3;
/** Numbers per entry in the file: estimate by kind, tokenizer by kind (first -1 = none), fallback chars. */
const KINDS = 9;
const ROW = 2 * KINDS + 1;

/** What the cache remembers for one entry: per-kind counts in TOKEN_KINDS order. */
export interface CachedEntryCounts {
  /** Instant estimate by kind (kept so a cache hit needs no JSON parse at all). */
  e: number[];
  /** Tokenizer counts by kind, when computed. */
  x?: number[];
  /** Characters that fell back to chars/4 in the tokenizer pass. */
  f?: number;
}

/** Size and mtime of the session file the offset map was made from. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/**
 * The file: flat arrays rather than an object per entry, because a reopen's cost is
 * mostly parsing this file and flat number arrays parse several times faster.
 */
interface CacheFile {
  format: number;
  tokenizer: string;
  /** Content hashes; entry k's numbers are counts[k*ROW .. k*ROW+ROW). */
  hashes: string[];
  counts: number[];
  /** Valid only while the session file has exactly `stamp`: line offsets and their entry numbers. */
  stamp?: FileStamp;
  offsetList?: number[];
  slotList?: number[];
}

/**
 * Token counts keyed by the content hash of an entry's line, in one JSON file (path
 * chosen by the caller). Keying by content, not by file or position, means a forked or
 * reloaded session reuses counts, and an edited line simply misses. A cache written by
 * another tokenizer or format is ignored, never trusted. Writes go to a temp file and
 * are renamed into place so a crash never leaves a half-written cache.
 */
export class TokenCache {
  private hashes: string[] = [];
  private counts: number[] = [];
  private slots = new Map<string, number>();
  /** Line offset -> entry number, for an unchanged file. */
  private offsets = new Map<number, number>();
  private stamp: FileStamp | undefined;
  private stampTrusted = false;
  private dirty = false;
  hits = 0;
  misses = 0;

  private constructor(
    readonly path: string | undefined,
    readonly tokenizer: string,
  ) {}

  /** Opens (or starts) the cache at `path`; an unreadable or foreign file starts empty. `undefined` = memory only. */
  static open(path: string | undefined, tokenizer: string): TokenCache {
    const cache = new TokenCache(path, tokenizer);
    if (!path) return cache;
    try {
      const data = JSON.parse(readTextFile(path)) as Partial<CacheFile>;
      if (data.format === FORMAT && data.tokenizer === tokenizer && Array.isArray(data.hashes) && Array.isArray(data.counts) && data.counts.length === data.hashes.length * ROW) {
        cache.hashes = data.hashes;
        cache.counts = data.counts;
        for (let k = 0; k < data.hashes.length; k++) cache.slots.set(data.hashes[k], k);
        const list = data.offsetList;
        const slots = data.slotList;
        if (data.stamp && Array.isArray(list) && Array.isArray(slots) && list.length === slots.length) {
          cache.stamp = data.stamp;
          for (let k = 0; k < list.length; k++) cache.offsets.set(list[k], slots[k]);
        }
      }
    } catch {
      // Missing or corrupt: counts are recomputed, the file is rewritten on save.
    }
    return cache;
  }

  get size(): number {
    return this.hashes.length;
  }

  private row(k: number): CachedEntryCounts {
    const b = k * ROW;
    const c = this.counts;
    const out: CachedEntryCounts = { e: c.slice(b, b + KINDS) };
    if (c[b + KINDS] >= 0) {
      out.x = c.slice(b + KINDS, b + 2 * KINDS);
      out.f = c[b + 2 * KINDS];
    }
    return out;
  }

  get(hash: string): CachedEntryCounts | undefined {
    const k = this.slots.get(hash);
    if (k === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return this.row(k);
  }

  set(hash: string, counts: CachedEntryCounts): void {
    let k = this.slots.get(hash);
    if (k === undefined) {
      k = this.hashes.length;
      this.hashes.push(hash);
      this.slots.set(hash, k);
    }
    const b = k * ROW;
    for (let j = 0; j < KINDS; j++) {
      this.counts[b + j] = counts.e[j] ?? 0;
      this.counts[b + KINDS + j] = counts.x ? (counts.x[j] ?? 0) : j === 0 ? -1 : 0;
    }
    this.counts[b + 2 * KINDS] = counts.f ?? 0;
    this.dirty = true;
  }

  /** The counts recorded for a line offset, only while the bound file is unchanged. */
  getAt(offset: number): CachedEntryCounts | undefined {
    if (!this.stampTrusted) return undefined;
    const k = this.offsets.get(offset);
    if (k === undefined) return undefined;
    this.hits++;
    return this.row(k);
  }

  /**
   * Ties the offset map to the session file as it is now. When the file is byte-for-byte
   * the one the map was made from (same size and mtime: session files are append-only),
   * a reopen finds each entry's hash by its offset without reading or hashing the line:
   * that is what makes a second open ~free. Otherwise the map restarts (content hashes
   * still hit).
   */
  bindFile(stamp: FileStamp): boolean {
    this.stampTrusted = !!this.stamp && this.stamp.size === stamp.size && this.stamp.mtimeMs === stamp.mtimeMs;
    if (!this.stampTrusted) {
      this.offsets = new Map();
      this.stamp = { size: stamp.size, mtimeMs: stamp.mtimeMs };
      this.dirty = true;
    }
    return this.stampTrusted;
  }

  setHashAt(offset: number, hash: string): void {
    const k = this.slots.get(hash);
    if (k === undefined || this.offsets.get(offset) === k) return;
    this.offsets.set(offset, k);
    this.dirty = true;
  }

  /** Writes the file if anything changed. Failures are reported to the caller, who may ignore them (a cache is optional). */
  save(): void {
    if (!this.path || !this.dirty) return;
    mkdirSync(dirname(this.path), { recursive: true });
    const data: CacheFile = { format: FORMAT, tokenizer: this.tokenizer, hashes: this.hashes, counts: this.counts, ...(this.stamp ? { stamp: this.stamp, offsetList: [...this.offsets.keys()], slotList: [...this.offsets.values()] } : {}) };
    writeNewFile(this.path, JSON.stringify(data), { replace: true });
    this.dirty = false;
  }
}

/** One cache file per session path inside a cache dir (content-keyed inside, so a moved file only loses its cache). */
export function tokenCacheFile(dir: string, sessionPath: string): string {
  const name = sessionPath.replace(/[^A-Za-z0-9._-]+/g, "-").slice(-80);
  const h = createHash("sha1").update(sessionPath).digest("hex").slice(0, 12);
  return join(dir, `${h}-${name}.json`);
}
