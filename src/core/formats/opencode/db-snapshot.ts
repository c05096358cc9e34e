import { open, readFile, stat } from "node:fs/promises";
import { applyWal, readWal } from "./wal";

/**
 * One consistent picture of a live SQLite database in WAL mode, read without SQLite's
 * locks: the main file and its -wal are read as plain bytes (opened read-only, closed at
 * once, so nothing is written, no -shm is needed or made, and OpenCode is never blocked).
 *
 * Why the picture is consistent: within one generation of the -wal (the salts in its
 * header) frames are only appended, and a checkpoint only copies frames of that
 * generation into the main file. So the -wal's header is read first, then the main file,
 * then the whole -wal: if the header is unchanged, every page a checkpoint may have
 * written into the main file while we read it is in the -wal we read too, and laying the
 * -wal's committed frames over the main file yields the state of its last commit (frames
 * appended while we read are simply not yet seen; a frame half-written fails its
 * checksum). A changed header (a restart or truncation) starts the read over; with no
 * -wal at all the main file's own stamp must hold. A database that keeps changing that
 * way under every read is an error naming it.
 */

export interface DbStamp {
  dbSize: number;
  dbMtimeMs: number;
  walSize: number;
  walMtimeMs: number;
}

export interface DbSnapshot {
  /** The database as of the last commit, ready for an in-memory SQLite. */
  image: Uint8Array;
  stamp: DbStamp;
  /** Commits read from the -wal (0: everything was in the main file). */
  walCommits: number;
}

/** Thrown when the database changed under every read. */
export class DatabaseBusyError extends Error {}

async function statOrNone(path: string): Promise<{ size: number; mtimeMs: number }> {
  try {
    const st = await stat(path);
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { size: 0, mtimeMs: 0 };
    throw err;
  }
}

async function readOrEmpty(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path, { flag: "r" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return new Uint8Array(0);
    throw err;
  }
}

/** The stamp of a database and its -wal (sizes and times), to tell whether a cached copy is current. */
export async function dbStamp(path: string): Promise<DbStamp> {
  const [db, wal] = await Promise.all([statOrNone(path), statOrNone(`${path}-wal`)]);
  return { dbSize: db.size, dbMtimeMs: db.mtimeMs, walSize: wal.size, walMtimeMs: wal.mtimeMs };
}

export const sameStamp = (a: DbStamp, b: DbStamp): boolean => a.dbSize === b.dbSize && a.dbMtimeMs === b.dbMtimeMs && a.walSize === b.walSize && a.walMtimeMs === b.walMtimeMs;

const sameBytes = (a: Uint8Array, b: Uint8Array, n: number): boolean => {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** Reads a consistent picture of the database, starting over while a writer restarts its -wal under us, then DatabaseBusyError. */
export async function readSnapshot(path: string, opts: { tries?: number; /** Called between the reads (tests change the files there). */ betweenReads?: () => void } = {}): Promise<DbSnapshot> {
  const tries = opts.tries ?? 30;
  await stat(path); // A missing database is ENOENT, named by the caller.
  for (let attempt = 0; attempt < tries; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, Math.min(200, 10 * attempt)));
    const before = await dbStamp(path);
    const head = await readHeader(`${path}-wal`);
    const db = await readOrEmpty(path);
    opts.betweenReads?.();
    const walBytes = await readOrEmpty(`${path}-wal`);
    if (walBytes.length < head.length || !sameBytes(walBytes, head, head.length) || (head.length === 0 && walBytes.length > 0)) continue;
    const after = await dbStamp(path);
    // Without a -wal nothing covers a change to the main file made while we read it.
    if (head.length === 0 && (before.dbSize !== after.dbSize || before.dbMtimeMs !== after.dbMtimeMs)) continue;
    const wal = readWal(walBytes);
    // The stamp from before the read: a later change makes the next stamp differ, so a cached copy is never taken for newer.
    return { image: applyWal(db, wal, walBytes), stamp: before, walCommits: wal?.commits ?? 0 };
  }
  throw new DatabaseBusyError(`${path}: the database kept changing while it was read (${tries} tries); try again when the agent is idle`);
}

/** The -wal's 32-byte header (empty when there is no -wal or it is shorter). */
async function readHeader(path: string): Promise<Uint8Array> {
  let fh;
  try {
    fh = await open(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return new Uint8Array(0);
    throw err;
  }
  try {
    const buf = Buffer.alloc(32);
    const { bytesRead } = await fh.read(buf, 0, 32, 0);
    return bytesRead === 32 ? buf : new Uint8Array(0);
  } finally {
    await fh.close();
  }
}
