import { constants } from "node:fs";
import { type FileStamp, StaleSessionError } from "./file-stamp";
import { withSessionLock } from "./session-lock";
import { reason, writeAndSync, writeFs } from "./write-fs";

/** The append failed and the file is as it was: the message says so. */
export class NothingWrittenError extends Error {
  constructor(
    message: string,
    /** The file's stamp after a cut-back (same bytes, a new mtime), when it could be read. */
    readonly stampAfter?: FileStamp,
  ) {
    super(message);
    this.name = "NothingWrittenError";
  }
}

/**
 * The append failed part way and its bytes could not be cut off again: the file ends in
 * a torn line. The message says exactly which bytes and how to remove them.
 */
export class PartialWriteError extends Error {
  constructor(
    readonly path: string,
    /** The length the file had before the append: everything after it is ours. */
    readonly keepBytes: number,
    /** The file's length now, when it could be read. */
    readonly sizeNow: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = "PartialWriteError";
  }
}

/**
 * Appends `text` (whole lines) to the session at `path`, under its lock, only when the
 * file is still the one described by `stamp` (same inode, size and mtime). Afterwards
 * the file holds either all of `text`, synced, or exactly its old bytes: a short or
 * failed write, or a failed fsync, is cut back to the old length before the error is
 * thrown. If even that fails, a PartialWriteError names what is left.
 */
export function appendLines(path: string, stamp: FileStamp, text: string): void {
  const w = writeFs();
  withSessionLock(path, () => {
    let fd: number;
    try {
      // No O_CREAT: a session renamed or deleted since it was loaded is not re-created.
      fd = w.openSync(path, constants.O_WRONLY | constants.O_APPEND);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === "ENOENT") throw new StaleSessionError(path, "it is gone: renamed or deleted");
      throw new NothingWrittenError(`nothing written: ${path}: cannot open it for writing: ${reason(e)}`);
    }
    try {
      const st = w.fstatSync(fd);
      if (stamp.ino !== undefined && st.ino !== stamp.ino) throw new StaleSessionError(path, "replaced by another file");
      if (st.size !== stamp.size || st.mtimeMs !== stamp.mtimeMs) {
        throw new StaleSessionError(path, `size ${stamp.size} -> ${st.size} just before writing`);
      }
      const buf = Buffer.from(text, "utf8");
      const { written, failure } = writeAndSync(fd, buf, (why) => `the ${buf.length} bytes were written but could not be synced to disk: ${why}`);
      if (failure) undo(path, fd, stamp.size, written, buf.length, failure);
    } finally {
      try {
        w.closeSync(fd);
      } catch {
        // The data is synced (or cut back) before this point; a failed close changes neither.
      }
    }
  });
}

/**
 * Cuts the file back to `oldSize` after a failed append, then throws what happened. Only
 * our own bytes are cut: if the file grew by more than we wrote (another writer got in
 * between our check and our write), it is left alone and the error says so.
 */
function undo(path: string, fd: number, oldSize: number, written: number, total: number, failure: string): never {
  const w = writeFs();
  let size: number | undefined;
  try {
    size = w.fstatSync(fd).size;
  } catch {
    size = undefined; // Unknown: cut back anyway, under our lock it is our bytes.
  }
  if (size === oldSize) throw new NothingWrittenError(`nothing written: ${path}: ${failure}; the file is unchanged (${oldSize} bytes)`, stampOf(fd));
  if (size !== undefined && size !== oldSize + written) {
    throw new PartialWriteError(
      path,
      oldSize,
      size,
      `${path}: ${failure}; the file is now ${size} bytes (it was ${oldSize}, ${written} of them ours): another process wrote at the same time, so it was not cut back; check its last lines`,
    );
  }
  try {
    w.ftruncateSync(fd, oldSize);
  } catch (err) {
    const left =
      size === undefined
        ? `up to ${written} of the ${total} bytes may be left after byte ${oldSize}`
        : `${written} byte(s) of a ${total}-byte line are left after byte ${oldSize} (the file is ${size} bytes; it was ${oldSize})`;
    throw new PartialWriteError(
      path,
      oldSize,
      size,
      `${path}: ${failure}, and cutting the file back failed (${reason(err)}): ${left}; the last line is torn: cut it back with \`truncate -s ${oldSize}\` on the file`,
    );
  }
  try {
    w.fsyncSync(fd);
  } catch {
    // The length is set (ftruncate is exact); a failed sync of it is not more we can do.
  }
  throw new NothingWrittenError(`nothing written: ${path}: ${failure}; it is back to its ${oldSize} bytes`, stampOf(fd));
}

function stampOf(fd: number): FileStamp | undefined {
  try {
    const st = writeFs().fstatSync(fd);
    return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
  } catch {
    return undefined;
  }
}

/** A loaded session as an append needs it: where it is, what it was when read, how it ends. */
export interface AppendTarget {
  readonly path: string;
  stamp: FileStamp;
  readonly endsWithNewline: boolean;
  /** Throws unless the file is still as it was read (the agent may have appended meanwhile). */
  checkUnchanged(): void;
  /** Reads in what was appended. */
  refresh(): Promise<unknown>;
}

/**
 * The one road every writer appends by: whole lines (JSON records, one a line) to a
 * loaded session, all or nothing. The file must be as loaded (checked here and again
 * under the lock by appendLines); a last line without its newline (a torn write) gets one
 * first, so no record is joined to it; a short write is cut back before the error is
 * reported, and the session then keeps the file's new stamp (same bytes, a new mtime) so
 * the next write is not refused; on success the session reads the new lines in.
 */
export async function appendToSession(session: AppendTarget, records: ReadonlyArray<unknown>): Promise<void> {
  session.checkUnchanged();
  if (!records.length) return;
  const text = records.map((r) => JSON.stringify(r)).join("\n");
  try {
    appendLines(session.path, session.stamp, `${session.endsWithNewline ? "" : "\n"}${text}\n`);
  } catch (err) {
    const after = err instanceof NothingWrittenError ? err.stampAfter : undefined;
    if (after && after.size === session.stamp.size && after.ino === session.stamp.ino) session.stamp = after;
    throw err;
  }
  await session.refresh();
}
