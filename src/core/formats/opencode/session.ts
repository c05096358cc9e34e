import { existsSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { MemorySession } from "../../session/memory-session";
import { type FileStamp, RowsChangedError } from "../../store/file-stamp";
import { readDbSession, sessionRowsStamp } from "./db-read";
import { opencodeDatabases, opencodeRoot } from "./discover";
import { buildEntries } from "./entries";
import { opencodeIndexHooks } from "./index-hooks";
import { legacySessionFiles, readLegacySession } from "./legacy-read";
import { LEGACY_SESSION_FILE, type OcEntry, type OcStored, OPENCODE_ID, parseAddress } from "./records";
import { openDatabase } from "./sqlite-db";

/** An OpenCode session: its parts as entries in one chain, read whole from the store. */
export class OpencodeSession extends MemorySession {
  /**
   * What the explorer watches a live session by (size, stamp, refresh): the store's files
   * (the database and its -wal, or the legacy session file) as they were before the read.
   * OpenCode rewrites rows in place, so a change is never read on from where the read
   * stopped: when the session's own rows changed, refresh() says so and the explorer reads
   * it again; a write to other sessions' rows only moves the stamp on.
   */
  private current: FileStamp;
  readonly threads = 1;
  readonly workerFailure: string | undefined = undefined;

  constructor(
    readonly stored: OcStored,
    stamp?: FileStamp,
  ) {
    const entries = buildEntries(stored);
    // Rows have no line numbers: an entry's position (1-based) stands in.
    super(OPENCODE_ID, opencodeIndexHooks, entries, stored.address, 0, 0, undefined, stored.problems.map((p) => ({ kind: "bad-field" as const, line: p.line, message: `${stored.address}: ${p.message}` })));
    this.current = stamp ?? storeStamp(stored.address);
  }

  get stamp(): FileStamp {
    return this.current;
  }

  /** Bytes of the store's files when read. */
  get size(): number {
    return this.stamp.size;
  }

  async refresh(): Promise<{ added: number }> {
    const now = storeStamp(this.path);
    if (now.size === this.current.size && now.mtimeMs === this.current.mtimeMs) return { added: 0 };
    const at = parseAddress(this.path);
    if (at && this.stored.rowsStamp !== undefined && (await rowsNow(at.db, at.sessionId)) === this.stored.rowsStamp) {
      // Another session's rows, or bytes that commit nothing yet: this one's are as shown.
      this.current = now;
      return { added: 0 };
    }
    throw new RowsChangedError(this.path, "OpenCode wrote to this session's rows; they are read again");
  }

  /** The entry OpenCode goes on from: the last one a pending revert does not delete (-1: none). */
  get resumeLeaf(): number {
    for (let i = this.metas.length - 1; i >= 0; i--) if (!(this.entryAt(i) as OcEntry).reverted) return i;
    return -1;
  }

  private steps: string[] | undefined;

  /**
   * The model call entry i belongs to: its message and step (a step starts at each
   * step-start part). The step-finish holding the call's usage and the parts the call
   * produced share it, so the usage is placed at that call's message of the context.
   */
  stepOf(i: number): string {
    if (!this.steps) {
      this.steps = [];
      let message = "";
      let step = 0;
      for (let k = 0; k < this.metas.length; k++) {
        const e = this.entryAt(k) as OcEntry;
        if (e.messageId !== message) {
          message = e.messageId;
          step = 0;
        }
        if (e.type === "step-start") step++;
        this.steps.push(`${e.messageId}/${step}`);
      }
    }
    return this.steps[i];
  }

  /** Where a child session lives: beside this one in the same store. */
  childAddress(id: string): string | undefined {
    const at = parseAddress(this.path);
    if (at) return `${at.db}#${id}`;
    return this.stored.children.has(id) ? this.path.replace(/ses_[A-Za-z0-9_-]+\.json$/, `${id}.json`) : undefined;
  }
}

/** Whether a path names an OpenCode session: `<db>#ses_…`, `opencode:ses_…` or a legacy session file. */
export function isOpencodeAddress(path: string): boolean {
  return parseAddress(path) !== undefined || /^opencode:ses_[A-Za-z0-9_-]+$/.test(path) || LEGACY_SESSION_FILE.test(path);
}

/** Reads a session by its address; errors name it and say what was expected. */
export async function loadOpencode(path: string, env: NodeJS.ProcessEnv = process.env): Promise<OpencodeSession> {
  const named = /^opencode:(ses_[A-Za-z0-9_-]+)$/.exec(path);
  if (named) return new OpencodeSession(await resolveById(named[1], env));
  const at = parseAddress(path);
  if (at) {
    if (!isAbsolute(at.db)) throw new Error(`${path}: an OpenCode session is addressed as <absolute path of its database>#<session id>`);
    if (!existsSync(at.db)) throw new Error(`${at.db}: no such database (session ${at.sessionId})`);
    // Stamped before the read: a write during it is seen by the next refresh.
    const stamp = storeStamp(path);
    let stored: OcStored | undefined;
    try {
      stored = readDbSession(await openDatabase(at.db), at.sessionId);
    } catch (err) {
      throw new Error(`${path}: ${(err as Error).message}`);
    }
    if (!stored) throw new Error(`${at.db}: no session ${at.sessionId} in this database`);
    return new OpencodeSession(stored, stamp);
  }
  return new OpencodeSession(readLegacySession(path));
}

/** `opencode:<id>`: the first database of the environment's data dir holding it, else its legacy file. */
async function resolveById(id: string, env: NodeJS.ProcessEnv): Promise<OcStored> {
  const root = opencodeRoot(undefined, env);
  for (const db of opencodeDatabases(root, env)) {
    const stored = readDbSession(await openDatabase(db), id);
    if (stored) return stored;
  }
  const file = legacySessionFiles(root).find((f) => f.endsWith(`${id}.json`));
  if (file) return readLegacySession(file);
  throw new Error(`opencode:${id}: no such session in ${root} (its databases and storage/)`);
}

/**
 * The files a session's rows live in: `<db>#<id>` is the database and its -wal;
 * `opencode:<id>` the environment's databases; a legacy session its file.
 */
export function storeFiles(address: string): string[] {
  const at = parseAddress(address);
  if (at) return [at.db, `${at.db}-wal`];
  if (address.startsWith("opencode:")) return opencodeDatabases(opencodeRoot(undefined, process.env), process.env).flatMap((db) => [db, `${db}-wal`]);
  return [address];
}

/** The session's rows stamp in the database as it is now; undefined when it cannot be read (the read again says why). */
async function rowsNow(db: string, sessionId: string): Promise<string | undefined> {
  try {
    return sessionRowsStamp(await openDatabase(db), sessionId);
  } catch {
    return undefined;
  }
}

/** The store's files together: their sizes added, the newest modification. */
function storeStamp(address: string): FileStamp {
  let size = 0;
  let mtimeMs = 0;
  for (const f of storeFiles(address)) {
    try {
      const st = statSync(f);
      size += st.size;
      mtimeMs = Math.max(mtimeMs, st.mtimeMs);
    } catch {
      // A -wal that is not there (checkpointed, or never made).
    }
  }
  return { size, mtimeMs };
}
