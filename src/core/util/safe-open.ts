import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";

/**
 * The one way our code opens a file someone else named (a session, a prices file, a
 * settings-like JSON): it must be a regular file. A FIFO named x.jsonl blocks an open for
 * reading until a writer comes; /dev/zero never ends. So: stat first (a clear error
 * before any open), then open with O_NONBLOCK (a FIFO swapped in after the stat cannot
 * hang the open) and check the descriptor again (the open file is what is read).
 */

/** What a non-regular file is, in words. */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/** A file that is there but is no regular file; the message names it and what it is. */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
  constructor(readonly path: string, st: Stats) {
    const kind = kindOf(st);
    super(kind.startsWith("not ") ? `${path} is not a regular file` : `${path} is ${kind}, not a regular file`);
    this.name = "NotRegularFileError";
  }
}

/** A file larger than the kind of file it should be (a prices file of gigabytes is no prices file). */
export class FileTooLargeError extends Error {
  readonly code = "EFBIG";
  constructor(readonly path: string, size: number, cap: number) {
    super(`${path} is larger than ${human(cap)} (${human(size)}); not read`);
    this.name = "FileTooLargeError";
  }
}

function human(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} bytes`;
}

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Throws unless `st` is a regular file within the cap. */
function check(path: string, st: Stats, maxBytes?: number): void {
  if (!st.isFile()) throw new NotRegularFileError(path, st);
  if (maxBytes !== undefined && st.size > maxBytes) throw new FileTooLargeError(path, st.size, maxBytes);
}

/** Opens a regular file for reading (see the module comment); the caller closes the descriptor. */
export function openRegular(path: string, maxBytes?: number): number {
  check(path, statSync(path), maxBytes);
  const fd = openSync(path, FLAGS);
  try {
    check(path, fstatSync(fd), maxBytes);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The async twin of openRegular, for the listing and search that overlap their reads. */
export async function openRegularAsync(path: string, maxBytes?: number): Promise<FileHandle> {
  check(path, await stat(path), maxBytes);
  const fh = await open(path, FLAGS);
  try {
    check(path, await fh.stat(), maxBytes);
    return fh;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** Throws (saying why) unless `path` is a regular file: for code that only stats before handing the path on. */
export function assertRegular(path: string, st: Stats): void {
  check(path, st);
}

/**
 * The whole text of a regular file (a config, a cache, a meta file): refused when it is
 * larger than `maxBytes`; read no further than the size it had when checked, even if it grows.
 */
export function readTextFile(path: string, maxBytes?: number): string {
  return readBytesFile(path, maxBytes).toString("utf8");
}

/**
 * The whole of a regular file as bytes, with readTextFile's checks: for a reader that
 * decodes it line by line (one UTF-8 character outside ASCII makes a whole-file string
 * two bytes a character, and every line cut from it slower to parse).
 */
/** Reads up to `size` bytes of fd from its start into `into`: how many it got (fewer at the file's end). */
function readUpTo(fd: number, into: Buffer, size: number): number {
  let got = 0;
  while (got < size) {
    const n = readSync(fd, into, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

export function readBytesFile(path: string, maxBytes?: number): Buffer {
  const fd = openRegular(path, maxBytes);
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(size);
    const got = readUpTo(fd, buf, size);
    return got < size ? buf.subarray(0, got) : buf;
  } finally {
    closeSync(fd);
  }
}

/**
 * readBytesFile into `into` (from its start) instead of a new buffer: the bytes read, a view
 * of `into`. A file larger than `maxBytes` or than `into` is refused as too large.
 */
export function readBytesInto(path: string, into: Buffer, maxBytes: number): Buffer {
  const cap = Math.min(maxBytes, into.length);
  const fd = openRegular(path, cap);
  try {
    return into.subarray(0, readUpTo(fd, into, fstatSync(fd).size));
  } finally {
    closeSync(fd);
  }
}

/** Largest config file we read whole (prices, settings-like JSON, a sub-agent's meta file): far above any real one. */
export const CONFIG_CAP = 1024 * 1024;
