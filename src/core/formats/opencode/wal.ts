/**
 * SQLite's write-ahead log, applied to a copy of the database's pages in memory, following
 * the documented file format (https://www.sqlite.org/fileformat2.html#the_write_ahead_log,
 * docs/opencode-format.md "Reading the WAL"). OpenCode keeps its newest rows in
 * `opencode.db-wal` until a checkpoint; a reader that looks at the main file alone misses
 * them. Only frames up to the last valid commit frame count: a frame whose salts differ
 * from the header's, or whose running checksum does not match, ends the log (it is a
 * leftover of an earlier log or a write in progress), exactly as SQLite's recovery does.
 */

const WAL_MAGIC_LE = 0x377f0682;
const WAL_MAGIC_BE = 0x377f0683;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** What the log holds up to its last commit. */
export interface WalCommitted {
  pageSize: number;
  /** Page number -> offset of its newest committed copy in the log. */
  pages: Map<number, number>;
  /** Pages in the database after the last commit. */
  dbPages: number;
  /** Valid commit frames read. */
  commits: number;
  /** The header's salts, which change whenever the log restarts. */
  salt: [number, number];
}

/** Adds 32-bit words to the running checksum pair (big- or little-endian words, as the magic says). */
function checksum(buf: Uint8Array, start: number, end: number, bigEndian: boolean, s: [number, number]): [number, number] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let s0 = s[0];
  let s1 = s[1];
  for (let i = start; i < end; i += 8) {
    s0 = (s0 + view.getUint32(i, !bigEndian) + s1) >>> 0;
    s1 = (s1 + view.getUint32(i + 4, !bigEndian) + s0) >>> 0;
  }
  return [s0, s1];
}

/** The committed frames of a log, or undefined when it holds none (empty, no header, a bad header). */
export function readWal(wal: Uint8Array): WalCommitted | undefined {
  if (wal.length < WAL_HEADER) return undefined;
  const view = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
  const magic = view.getUint32(0);
  if (magic !== WAL_MAGIC_LE && magic !== WAL_MAGIC_BE) return undefined;
  const bigEndian = magic === WAL_MAGIC_BE;
  const pageSize = view.getUint32(8);
  // A power of two from 512 to 65536, as SQLite allows.
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  const salt: [number, number] = [view.getUint32(16), view.getUint32(20)];
  let sum = checksum(wal, 0, 24, bigEndian, [0, 0]);
  if (sum[0] !== view.getUint32(24) || sum[1] !== view.getUint32(28)) return undefined;
  const pages = new Map<number, number>();
  const pending: Array<[number, number]> = [];
  let dbPages = 0;
  let commits = 0;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (view.getUint32(at + 8) !== salt[0] || view.getUint32(at + 12) !== salt[1]) break;
    sum = checksum(wal, at, at + 8, bigEndian, sum);
    sum = checksum(wal, at + FRAME_HEADER, at + FRAME_HEADER + pageSize, bigEndian, sum);
    if (sum[0] !== view.getUint32(at + 16) || sum[1] !== view.getUint32(at + 20)) break;
    const pgno = view.getUint32(at);
    if (pgno === 0) break;
    pending.push([pgno, at + FRAME_HEADER]);
    const commitSize = view.getUint32(at + 4);
    if (commitSize > 0) {
      // A commit frame: everything since the last commit becomes visible at once.
      for (const [p, off] of pending) pages.set(p, off);
      pending.length = 0;
      dbPages = commitSize;
      commits++;
    }
  }
  return commits ? { pageSize, pages, dbPages, commits, salt } : undefined;
}

/** The database's page size from its header (1 stands for 65536), or undefined for an empty file. */
export function dbPageSize(db: Uint8Array): number | undefined {
  if (db.length < 100) return undefined;
  const raw = (db[16] << 8) | db[17];
  return raw === 1 ? 65536 : raw;
}

/**
 * The database as of the log's last commit: the main file's pages with the log's newest
 * committed copies laid over them, cut to the committed size. The header is marked as a
 * rollback-journal database (bytes 18-19 = 1) so the in-memory SQLite reads it whole and
 * never looks for a -wal or -shm of its own.
 */
export function applyWal(db: Uint8Array, wal: WalCommitted | undefined, walBytes: Uint8Array): Uint8Array {
  let image: Uint8Array;
  if (!wal) {
    image = Uint8Array.from(db);
  } else {
    const fromDb = dbPageSize(db);
    if (fromDb !== undefined && fromDb !== wal.pageSize) throw new Error(`the -wal's page size (${wal.pageSize}) differs from the database's (${fromDb})`);
    image = new Uint8Array(wal.dbPages * wal.pageSize);
    image.set(db.subarray(0, Math.min(db.length, image.length)));
    for (const [pgno, off] of wal.pages) {
      if (pgno > wal.dbPages) continue;
      image.set(walBytes.subarray(off, off + wal.pageSize), (pgno - 1) * wal.pageSize);
    }
  }
  if (image.length >= 100) {
    image[18] = 1;
    image[19] = 1;
  }
  return image;
}
