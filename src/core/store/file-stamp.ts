import { createHash } from "node:crypto";
import { closeSync, readSync } from "node:fs";
import { openRegular } from "../util/safe-open";

/** Size, mtime and inode of a file when it was read (a write re-checks them). */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  /** Inode: a file replaced by another (same size and mtime) is a different file. */
  ino?: number;
}

/** A write refused because the file is no longer the one that was read. */
export class StaleSessionError extends Error {
  constructor(path: string, detail: string) {
    super(`${path} changed on disk (${detail}); reload it`);
    this.name = "StaleSessionError";
  }
}

/**
 * A session whose store its agent rewrites in place (OpenCode's database rows) changed:
 * reading it again is that store's ordinary refresh, not a file rewritten under us.
 */
export class RowsChangedError extends StaleSessionError {
  constructor(path: string, detail: string) {
    super(path, detail);
    this.name = "RowsChangedError";
  }
}

/** Bytes hashed at each end of the part of a file that was read. */
export const EDGE_BYTES = 4096;

/**
 * Hashes of the first and the last EDGE_BYTES of bytes [0, end) of an open file. Size,
 * mtime and inode miss a file rewritten in place to the same size with its mtime put
 * back; pi's v1 -> v3 migration rewrites the header. Both show in these bytes, while an
 * append (past `end`) changes neither.
 */
export function edgeHashes(fd: number, end: number): string {
  const head = readAt(fd, 0, Math.min(EDGE_BYTES, end));
  const tailFrom = Math.max(0, end - EDGE_BYTES);
  const tail = tailFrom === 0 ? head : readAt(fd, tailFrom, end - tailFrom);
  return `${end}:${digest(head)}:${digest(tail)}`;
}

/** edgeHashes of a file by path; "missing" when it cannot be read. */
export function edgeHashesOf(path: string, end: number): string {
  let fd: number;
  try {
    fd = openRegular(path);
  } catch {
    return "missing";
  }
  try {
    return edgeHashes(fd, end);
  } finally {
    closeSync(fd);
  }
}

function digest(b: Buffer): string {
  return createHash("sha1").update(b).digest("hex").slice(0, 16);
}

/** Up to `length` bytes at `offset` (fewer when the file is shorter now). */
export function readAt(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  const got = readInto(fd, buf, offset);
  return got === length ? buf : buf.subarray(0, got);
}

/** Fills `into` with the bytes at `offset` on: how many it got (fewer at the file's end). */
export function readInto(fd: number, into: Buffer, offset: number): number {
  let got = 0;
  while (got < into.length) {
    const n = readSync(fd, into, got, into.length - got, offset + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}
