import { readFile, stat } from "node:fs/promises";
import { applyWal, readWal } from "./wal";

/**
 * One consistent picture of a live SQLite database in WAL mode, read without SQLite's
 * locks: the main file and its -wal are read as plain bytes (opened read-only, closed at
 * once, so nothing is written, no -shm is needed or made, and OpenCode is never blocked).
 * A checkpoint or a new commit while we read could mix two states, so the -wal is read
 * before and its size and header checked after the main file, with the main file's own
 * stamp: any change and the read starts over; a database that keeps changing is an error.
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

/** Reads a consistent picture of the database, retrying while a writer changes it (about 3 s), then DatabaseBusyError. */
export async function readSnapshot(path: string, opts: { tries?: number; /** Called between the reads (tests change the files there). */ betweenReads?: () => void } = {}): Promise<DbSnapshot> {
  const tries = opts.tries ?? 30;
  await stat(path); // A missing database is ENOENT, named by the caller.
  for (let attempt = 0; attempt < tries; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, Math.min(200, 10 * attempt)));
    const before = await dbStamp(path);
    const walBytes = await readOrEmpty(`${path}-wal`);
    const db = await readOrEmpty(path);
    opts.betweenReads?.();
    const after = await dbStamp(path);
    if (!sameStamp(before, after) || walBytes.length !== after.walSize) continue;
    // The -wal restarted (new salts in its header) or was truncated since we read it.
    const walNow = await readOrEmpty(`${path}-wal`);
    if (walNow.length !== walBytes.length || !sameBytes(walNow, walBytes, Math.min(32, walBytes.length))) continue;
    const wal = readWal(walBytes);
    return { image: applyWal(db, wal, walBytes), stamp: after, walCommits: wal?.commits ?? 0 };
  }
  throw new DatabaseBusyError(`${path}: the database kept changing while it was read (${tries} tries); try again when the agent is idle`);
}
