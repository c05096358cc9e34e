import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { reason, writeAll, writeAndSync, writeFs } from "./write-fs";

/**
 * Temp files of ours: `.<target>.<pid>.<hex>.ase-tmp`, hidden and not ending in .jsonl, so
 * no listing (ours or pi's) takes a half-written file for a session. The older
 * `.<pid>.<time>.tmp` names of earlier versions are ours too.
 */
const OUR_TEMP = /^\..+\.\d+\.[0-9a-f]+\.ase-tmp$|^\.\d+\.\d+\.tmp$/;

/** A temp file left by a writer of ours older than this is a leftover (a kill, a crash). */
export const STALE_TEMP_MS = 10 * 60_000;

export function isOurTempFile(name: string): boolean {
  return OUR_TEMP.test(name);
}

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.ase-tmp`);
}

/** Why a new file could not be written; nothing is at the target (and no temp file, unless said). */
export class NewFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NewFileError";
  }
}

/** Opens a new temp file beside `target`. */
function openTemp(target: string): { tmp: string; fd: number } {
  const tmp = tempPathFor(target);
  try {
    return { tmp, fd: writeFs().openSync(tmp, "wx", 0o644) };
  } catch (err) {
    throw new NewFileError(`nothing written: cannot create a file in ${dirname(target)}: ${reason(err)}`);
  }
}

/** Removes the temp file; the error to throw, naming a temp file that could not go. */
function discard(tmp: string, target: string, what: string): NewFileError {
  let left = "";
  try {
    writeFs().unlinkSync(tmp);
  } catch (err) {
    left = `; its temp file ${tmp} is left (hidden from listings; removed by a later run): ${reason(err)}`;
  }
  return new NewFileError(`nothing written: ${target}: ${what}${left}`);
}

/** Closes the written temp file and puts it in place, or removes it when anything failed. */
function placeTemp(tmp: string, fd: number, target: string, failure: string | undefined, opts: { replace: boolean }): void {
  const w = writeFs();
  try {
    w.closeSync(fd);
  } catch (err) {
    failure ??= `could not be closed: ${reason(err)}`;
  }
  if (failure) throw discard(tmp, target, failure);
  try {
    if (opts.replace) w.renameSync(tmp, target);
    else placeWithoutReplacing(tmp, target);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw discard(tmp, target, e.code === "EEXIST" ? "a file of that name exists already" : `cannot put it in place: ${reason(e)}`);
  }
  syncDir(dirname(target));
}

/**
 * Writes a whole file or nothing: a temp file in the same directory, fsynced, then put
 * in place and the directory fsynced. With `replace` it is renamed over the target
 * (caches); without, it is hard-linked, so an existing target is never replaced (a fork
 * cannot overwrite a session, even one made in the same instant).
 */
export function writeNewFile(target: string, content: string | Uint8Array, opts: { replace: boolean }): void {
  const { tmp, fd } = openTemp(target);
  const buf = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  const { failure } = writeAndSync(fd, buf, (why) => `could not be synced to disk: ${why}`);
  placeTemp(tmp, fd, target, failure, opts);
}

/**
 * A new file written a piece at a time, as the pieces come (nothing is held but the piece),
 * then put in place whole (finish) or dropped: a temp file beside the target until then,
 * so the target is never seen half-written.
 */
export class NewFileWriter {
  private readonly tmp: string;
  private readonly fd: number;
  private open = true;
  /** Why a write failed (nothing more is written then). */
  failure: string | undefined;
  /** Bytes written so far. */
  bytes = 0;

  /** Opens the temp file (throws NewFileError when it cannot be made). */
  constructor(private readonly target: string) {
    ({ tmp: this.tmp, fd: this.fd } = openTemp(target));
  }

  /** Writes a piece now: false once a write has failed. */
  put(piece: string | Uint8Array): boolean {
    if (this.failure || !this.open) return false;
    const { written, error } = writeAll(this.fd, typeof piece === "string" ? Buffer.from(piece, "utf8") : piece);
    this.bytes += written;
    if (error) this.failure = `short write (${this.bytes} bytes written: ${reason(error)})`;
    return !this.failure;
  }

  /** Syncs the file to disk and puts it in place; a failed write or sync throws NewFileError and leaves nothing. */
  finish(opts: { replace: boolean }): void {
    if (!this.open) throw new NewFileError(`nothing written: ${this.target}: the file was dropped`);
    this.open = false;
    let failure = this.failure;
    if (!failure) {
      try {
        writeFs().fsyncSync(this.fd);
      } catch (err) {
        failure = `could not be synced to disk: ${reason(err)}`;
      }
    }
    placeTemp(this.tmp, this.fd, this.target, failure, opts);
  }

  /** Drops what was written: no file, no temp file (one that cannot be removed is left hidden for a later run's cleaning). */
  drop(): void {
    if (!this.open) return;
    this.open = false;
    try {
      writeFs().closeSync(this.fd);
    } catch {
      // Removed below all the same.
    }
    discard(this.tmp, this.target, "");
  }
}

/** A write of a piece failed: the producer stops there. */
class PieceFailed extends Error {}

/**
 * writeNewFile for a file made piece by piece (an export of a large session): `produce`
 * hands each piece to `put`, which writes it to the temp file at once, so no more than a
 * piece is held. Whole or nothing: a failed write, or `produce` throwing (its error is
 * thrown again), leaves no file and no temp file. Returns the bytes written.
 */
export async function writeNewFileInPieces(target: string, produce: (put: (piece: string) => void) => Promise<void>, opts: { replace: boolean }): Promise<number> {
  const file = new NewFileWriter(target);
  try {
    await produce((piece) => {
      if (!file.put(piece)) throw new PieceFailed(file.failure);
    });
  } catch (err) {
    // The producer's own error (bad input): nothing is left, and the caller sees it as it was.
    if (file.failure === undefined) {
      file.drop();
      throw err;
    }
  }
  file.finish(opts);
  return file.bytes;
}

/**
 * The one new-file road of every fork writer: a new session file named `name` in `dir`
 * (default: the source's folder) holding `lines` (one JSON text each), written whole or
 * not at all and never over an existing file; temp files an earlier run left are
 * cleaned first. The source is only read. Returns the new file's path.
 */
export function writeNewSession(sourcePath: string, dir: string | undefined, name: string, lines: readonly string[]): string {
  const folder = dir ?? dirname(resolve(sourcePath));
  const target = join(folder, name);
  cleanStaleTemps(folder);
  writeNewFile(target, `${lines.join("\n")}\n`, { replace: false });
  return target;
}

const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

function placeWithoutReplacing(tmp: string, target: string): void {
  const w = writeFs();
  try {
    w.linkSync(tmp, target);
  } catch (err) {
    // A file system without hard links: rename, after checking (a small window, not a guarantee).
    if (!NO_HARD_LINKS.has((err as NodeJS.ErrnoException).code ?? "")) throw err;
    if (exists(target)) throw Object.assign(new Error("exists"), { code: "EEXIST" });
    w.renameSync(tmp, target);
    return;
  }
  try {
    w.unlinkSync(tmp);
  } catch {
    // The new file is complete and in place; the hidden temp name goes with the next cleaning.
  }
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** So the new name survives a crash too. Some systems cannot sync a directory: not an error. */
function syncDir(dir: string): void {
  const w = writeFs();
  let fd: number | undefined;
  try {
    fd = w.openSync(dir, "r");
    w.fsyncSync(fd);
  } catch {
    // Best effort: the file itself is synced and in place.
  } finally {
    if (fd !== undefined) {
      try {
        w.closeSync(fd);
      } catch {
        // Nothing to undo.
      }
    }
  }
}

/** Removes our temp files in `dir` older than STALE_TEMP_MS; returns how many went. */
export function cleanStaleTemps(dir: string, now = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!isOurTempFile(name)) continue;
    const p = join(dir, name);
    try {
      if (now - statSync(p).mtimeMs < STALE_TEMP_MS) continue;
      writeFs().unlinkSync(p);
      removed++;
    } catch {
      // Gone already, or not ours to remove: a listing never shows it either way.
    }
  }
  return removed;
}
