import { closeSync, fstatSync, readSync } from "node:fs";
import { openRegular } from "./safe-open";

/** Bytes read at a time: one buffer for the whole file, grown only for a longer line. */
const CHUNK = 4 * 2 ** 20;

/** One line of bytes, buf[start, end) without its newline, and its 1-based number. */
export type TakeLineBytes = (buf: Buffer, start: number, end: number, line: number) => void;

/** Calls `take` for every line of `bytes` (the last one too, if it has no newline). */
export function forEachLineOf(bytes: Buffer, take: TakeLineBytes): void {
  // 0x0A never occurs inside a multi-byte UTF-8 character: cutting at it is safe.
  for (let start = 0, line = 1; start < bytes.length; line++) {
    const nl = bytes.indexOf(10, start);
    const end = nl < 0 ? bytes.length : nl;
    take(bytes, start, end, line);
    start = end + 1;
  }
}

/** Where a read of a file's lines ended. */
export interface FileLinesRead {
  /** Offset after the last byte read. */
  end: number;
  /** Number of the line after the last one given. */
  nextLine: number;
  /** False when the last line given had no newline (a writer may not have finished it). */
  endsWithNewline: boolean;
}

/**
 * Calls `take` for every line of a regular file (openRegular's checks, `maxBytes`
 * included) from `from` (a line start, whose number is `fromLine`), reading it in chunks:
 * a line's bytes are valid only during the call. A whole-file buffer costs a page fault
 * per 4 KiB of fresh memory (~60 ms of system time for 100 MB) and holds all of it; one
 * chunk buffer is faulted in once. Reads up to the size the file had when opened.
 * `chunkBytes`: for tests.
 */
export function forEachFileLine(path: string, maxBytes: number | undefined, take: TakeLineBytes, opts: { from?: number; fromLine?: number; chunkBytes?: number } = {}): FileLinesRead {
  const fd = openRegular(path, maxBytes);
  try {
    const size = fstatSync(fd).size;
    let pos = opts.from ?? 0;
    let line = opts.fromLine ?? 1;
    let buf = Buffer.allocUnsafe(Math.max(1, Math.min(opts.chunkBytes ?? CHUNK, size - pos)));
    // buf[0, have) is the start of a line not yet ended; pos is the file offset after it.
    let have = 0;
    while (pos < size) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, size));
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const n = readSync(fd, buf, have, Math.min(buf.length - have, size - pos), pos);
      if (n <= 0) break;
      pos += n;
      const view = buf.subarray(0, have + n);
      let start = 0;
      for (let nl = view.indexOf(10, have); nl >= 0; nl = view.indexOf(10, start)) {
        take(view, start, nl, line++);
        start = nl + 1;
      }
      buf.copyWithin(0, start, view.length);
      have = view.length - start;
    }
    if (have > 0) take(buf, 0, have, line++);
    return { end: pos, nextLine: line, endsWithNewline: have === 0 };
  } finally {
    closeSync(fd);
  }
}
