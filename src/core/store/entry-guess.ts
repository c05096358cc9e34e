import { closeSync, readSync } from "node:fs";
import { openRegular } from "../util/safe-open";

/** Bytes read at the start and at the middle of a range to guess its entry count. */
export const SAMPLE = 1 << 20;

/** Few entry lines are shorter (ids, type, timestamp): a bound on the guess. */
export const MIN_ENTRY_BYTES = 128;

/** Newlines in the first `end` bytes of `buf`. */
export function lineCount(buf: Buffer, end: number): number {
  let n = 0;
  for (let k = buf.indexOf(10); k >= 0 && k < end; k = buf.indexOf(10, k + 1)) n++;
  return n;
}

/**
 * About how many entries bytes from..to of a file hold, from the line lengths of a MB at
 * its start and one at its middle. It leans high: room set aside from it is only touched
 * when used, while a table that outgrows its room copies itself and keeps the old copy
 * until a major GC (a load of 100 MB on one thread peaked ~10 MB higher that way).
 */
export function guessEntries(path: string, from: number, to: number): number {
  const bytes = to - from;
  if (bytes <= 0) return 0;
  const fd = openRegular(path);
  try {
    const buf = Buffer.allocUnsafe(Math.min(bytes, SAMPLE));
    let read = 0;
    let lines = 0;
    for (const at of bytes > 2 * SAMPLE ? [from, from + Math.floor(bytes / 2)] : [from]) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, to - at), at);
      read += n;
      lines += lineCount(buf, n);
    }
    return entriesAt(read / Math.max(1, lines), bytes);
  } finally {
    closeSync(fd);
  }
}

/** Entries of `bytes` bytes of lines `perLine` bytes long on average, leaning high, and never more than MIN_ENTRY_BYTES allows. */
function entriesAt(perLine: number, bytes: number): number {
  return Math.ceil(Math.min((bytes / perLine) * 1.5, bytes / MIN_ENTRY_BYTES));
}

/**
 * The same guess for bytes still to come (a .zst being decompressed): from the line lengths
 * of the first chunk and the size the stream expects.
 */
export function guessEntriesFrom(first: Buffer, bytes: number): number {
  if (bytes <= 0 || first.length === 0) return 0;
  return entriesAt(first.length / Math.max(1, lineCount(first, first.length)), bytes);
}
