import type { Database, SqlValue } from "sql.js/dist/sql-wasm-inline.js";
import { loadSqliteWasm } from "../../lazy/lazy-bundles";
import { type DbStamp, dbStamp, readSnapshot, sameStamp } from "./db-snapshot";

/**
 * OpenCode's database, read through SQLite itself: sql.js (SQLite compiled to WebAssembly,
 * no native code to build per platform, the same in the CLI on Node 20 and in any VS Code
 * extension host) opened on an in-memory copy that has the -wal's committed frames applied
 * (db-snapshot.ts). The copy is ours: nothing of the user's is opened for writing and no
 * lock is held once the bytes are read. Copies are kept per database while its stamp holds.
 */

export type Row = Record<string, SqlValue>;

export interface OpenDb {
  path: string;
  stamp: DbStamp;
  walCommits: number;
  all(sql: string, params?: SqlValue[]): Row[];
  /** Frees the in-memory copy (done when it leaves the cache). */
  close(): void;
}

/** An OpenCode database that cannot be read (not SQLite, damaged, not OpenCode's schema). */
export class BadDatabaseError extends Error {}

type SqlJs = Awaited<ReturnType<ReturnType<typeof loadSqliteWasm>["initSqlJs"]>>;
let sqlJs: Promise<SqlJs> | undefined;
const cache = new Map<string, { stamp: DbStamp; db: OpenDb }>();
/** Databases kept open (a few: the store's main one and its channel databases). */
const CACHE_MAX = 4;

function wrap(path: string, db: Database, stamp: DbStamp, walCommits: number): OpenDb {
  return {
    path,
    stamp,
    walCommits,
    all(sql, params) {
      let stmt;
      try {
        stmt = db.prepare(sql, params);
        const names = stmt.getColumnNames();
        const out: Row[] = [];
        while (stmt.step()) {
          const values = stmt.get();
          const row: Row = {};
          names.forEach((n, i) => (row[n] = values[i]));
          out.push(row);
        }
        return out;
      } catch (err) {
        throw new BadDatabaseError(`${path}: ${(err as Error).message}`);
      } finally {
        stmt?.free();
      }
    },
    close: () => db.close(),
  };
}

/** Opens (or reuses) the current picture of a database; errors name the file. */
export async function openDatabase(path: string): Promise<OpenDb> {
  const now = await dbStamp(path);
  const hit = cache.get(path);
  if (hit && sameStamp(hit.stamp, now)) return hit.db;
  sqlJs ??= loadSqliteWasm().initSqlJs();
  const SQL = await sqlJs;
  const snap = await readSnapshot(path);
  let db: Database;
  try {
    db = new SQL.Database(snap.image);
    // The header is checked at the first statement, not at open.
    db.exec("SELECT count(*) FROM sqlite_master");
  } catch (err) {
    throw new BadDatabaseError(`${path}: not a readable SQLite database (${(err as Error).message})`);
  }
  const open = wrap(path, db, snap.stamp, snap.walCommits);
  if (hit) {
    cache.delete(path);
    hit.db.close();
  }
  cache.set(path, { stamp: snap.stamp, db: open });
  for (const [key, old] of cache) {
    if (cache.size <= CACHE_MAX) break;
    cache.delete(key);
    old.db.close();
  }
  return open;
}

/** Forgets cached copies (tests that rewrite a database in place). */
export function forgetDatabases(): void {
  for (const { db } of cache.values()) db.close();
  cache.clear();
}
