import { randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { reason, writeAndSync, writeFs } from "./write-fs";

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

/**
 * Writes a whole file or nothing: a temp file in the same directory, fsynced, then put
 * in place and the directory fsynced. With `replace` it is renamed over the target
 * (caches); without, it is hard-linked, so an existing target is never replaced (a fork
 * cannot overwrite a session, even one made in the same instant).
 */
export function writeNewFile(target: string, content: string | Uint8Array, opts: { replace: boolean }): void {
  const w = writeFs();
  const tmp = tempPathFor(target);
  let fd: number;
  try {
    fd = w.openSync(tmp, "wx", 0o644);
  } catch (err) {
    throw new NewFileError(`nothing written: cannot create a file in ${dirname(target)}: ${reason(err)}`);
  }
  const fail = (what: string): never => {
    let left = "";
    try {
      w.unlinkSync(tmp);
    } catch (err) {
      left = `; its temp file ${tmp} is left (hidden from listings; removed by a later run): ${reason(err)}`;
    }
    throw new NewFileError(`nothing written: ${target}: ${what}${left}`);
  };
  const buf = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  let { failure } = writeAndSync(fd, buf, (why) => `could not be synced to disk: ${why}`);
  try {
    w.closeSync(fd);
  } catch (err) {
    failure ??= `could not be closed: ${reason(err)}`;
  }
  if (failure) fail(failure);
  try {
    if (opts.replace) w.renameSync(tmp, target);
    else placeWithoutReplacing(tmp, target);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    fail(e.code === "EEXIST" ? "a file of that name exists already" : `cannot put it in place: ${reason(e)}`);
  }
  syncDir(dirname(target));
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
