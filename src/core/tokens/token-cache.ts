import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";

const FORMAT = 2;

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

interface CacheFile {
  format: number;
  tokenizer: string;
  entries: Record<string, CachedEntryCounts>;
  /** Content hash by line offset, valid only while the session file has exactly `stamp`. */
  stamp?: FileStamp;
  /** Line offsets and their content hashes, as two parallel arrays (quicker to parse than an object keyed by offset). */
  offsetList?: number[];
  hashList?: string[];
}

/**
 * Token counts keyed by the content hash of an entry's line, in one JSON file (path
 * chosen by the caller). Keying by content, not by file or position, means a forked or
 * reloaded session reuses counts, and an edited line simply misses. A cache written by
 * another tokenizer or format is ignored, never trusted. Writes go to a temp file and
 * are renamed into place so a crash never leaves a half-written cache.
 */
export class TokenCache {
  private entries: Record<string, CachedEntryCounts> = Object.create(null);
  private offsets = new Map<number, string>();
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
      const data = JSON.parse(readFileSync(path, "utf8")) as Partial<CacheFile>;
      if (data.format === FORMAT && data.tokenizer === tokenizer && data.entries && typeof data.entries === "object") {
        // Used as parsed (no copy: a reopen should cost next to nothing); reads go through
        // Object.hasOwn, so no key can reach a prototype.
        cache.entries = data.entries;
        if (data.stamp && Array.isArray(data.offsetList) && Array.isArray(data.hashList) && data.offsetList.length === data.hashList.length) {
          cache.stamp = data.stamp;
          const list = data.offsetList;
          const hashes = data.hashList;
          for (let k = 0; k < list.length; k++) cache.offsets.set(list[k], hashes[k]);
        }
      }
    } catch {
      // Missing or corrupt: counts are recomputed, the file is rewritten on save.
    }
    return cache;
  }

  get size(): number {
    return Object.keys(this.entries).length;
  }

  get(hash: string): CachedEntryCounts | undefined {
    const hit = Object.hasOwn(this.entries, hash) ? this.entries[hash] : undefined;
    if (hit) this.hits++;
    else this.misses++;
    return hit;
  }

  set(hash: string, counts: CachedEntryCounts): void {
    this.entries[hash] = counts;
    this.dirty = true;
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

  /** The content hash recorded for a line offset, only while the bound file is unchanged. */
  hashAt(offset: number): string | undefined {
    return this.stampTrusted ? this.offsets.get(offset) : undefined;
  }

  setHashAt(offset: number, hash: string): void {
    if (this.offsets.get(offset) === hash) return;
    this.offsets.set(offset, hash);
    this.dirty = true;
  }

  /** Writes the file if anything changed. Failures are reported to the caller, who may ignore them (a cache is optional). */
  save(): void {
    if (!this.path || !this.dirty) return;
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    const data: CacheFile = { format: FORMAT, tokenizer: this.tokenizer, entries: this.entries, ...(this.stamp ? { stamp: this.stamp, offsetList: [...this.offsets.keys()], hashList: [...this.offsets.values()] } : {}) };
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, this.path);
    this.dirty = false;
  }
}

/** One cache file per session path inside a cache dir (content-keyed inside, so a moved file only loses its cache). */
export function tokenCacheFile(dir: string, sessionPath: string): string {
  const name = sessionPath.replace(/[^A-Za-z0-9._-]+/g, "-").slice(-80);
  const h = createHash("sha1").update(sessionPath).digest("hex").slice(0, 12);
  return join(dir, `${h}-${name}.json`);
}
