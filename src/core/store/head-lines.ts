import { readSync } from "node:fs";

/**
 * A file's first lines, read whole. Detection and the listing look at the first few
 * lines of a session; a Claude Code transcript often starts with a long pasted prompt
 * (a megabyte on one line), so a fixed-size head would cut its first line and the file
 * would read as no session. The head grows until it holds the lines asked for, up to a
 * generous cap; a first line beyond the cap is an error that says so.
 */

/** Bytes read first: the first lines of nearly every session fit. */
export const FIRST_READ = 64 * 1024;
/** Longest first line read: a pasted prompt of megabytes fits; a gigabyte line is no session header. */
export const HEAD_CAP = 16 * 1024 * 1024;

export class FirstLineTooLongError extends Error {
  constructor(path: string, cap = HEAD_CAP) {
    super(`${path}: the first line is longer than ${cap / 1024 / 1024} MiB; not read as a session`);
    this.name = "FirstLineTooLongError";
  }
}

/** The end (after its newline) of the first `n` non-blank lines in `buf`, or undefined when it holds fewer. */
export function linesEnd(buf: Buffer, n: number): number | undefined {
  let seen = 0;
  for (let start = 0; start < buf.length; ) {
    const nl = buf.indexOf(10, start);
    if (nl === -1) return undefined;
    for (let k = start; k < nl; k++) {
      if (buf[k] > 32) {
        seen++;
        break;
      }
    }
    if (seen >= n) return nl + 1;
    start = nl + 1;
  }
  return undefined;
}

export interface Head {
  /** The bytes read from the file's start. */
  bytes: Buffer;
  /** Whether that is the whole file (else its last piece may be a cut line). */
  whole: boolean;
}

/**
 * The first bytes of an open file: at least `minBytes` (when the file has them) and at
 * least its first `lines` non-blank lines whole, when they end within HEAD_CAP. `have`
 * is what the caller read from the start already (not read again; `minBytes` then does not apply). Throws
 * FirstLineTooLongError when not even the first line ends within the cap.
 */
export function readHead(fd: number, path: string, size: number, opts: { lines: number; minBytes?: number; have?: Buffer; cap?: number }): Head {
  const cap = opts.cap ?? HEAD_CAP;
  // What the caller has is used as it is when it is enough (search's chunks are megabytes: no copy).
  let buf = opts.have ?? Buffer.allocUnsafe(Math.min(size, opts.minBytes ?? FIRST_READ));
  let got = opts.have?.length ?? 0;
  for (;;) {
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) return { bytes: buf.subarray(0, got), whole: true };
      got += n;
    }
    const whole = got >= size;
    if (whole || linesEnd(buf, opts.lines) !== undefined) return { bytes: buf, whole };
    if (got >= cap) {
      if (linesEnd(buf, 1) === undefined) throw new FirstLineTooLongError(path, cap);
      return { bytes: buf, whole: false };
    }
    // Grow by four: a 1 MiB line costs a few reads, not one per 64 KiB.
    const next = Buffer.allocUnsafe(Math.min(size, cap, Math.max(FIRST_READ, buf.length * 4)));
    buf.copy(next, 0, 0, got);
    buf = next;
  }
}

/** Bytes scanned at a time while looking for the end of a line too long to read whole. */
const SCAN_CHUNK = 1024 * 1024;

/**
 * Where the first line ends (after its newline), found by scanning without keeping it:
 * for a first line past the cap (a pasted prompt of hundreds of megabytes), so the lines
 * after it can still say what the file is. `size` when the file has a single line.
 */
export function firstLineEnd(fd: number, size: number): number {
  const buf = Buffer.allocUnsafe(Math.min(SCAN_CHUNK, Math.max(size, 1)));
  for (let pos = 0; pos < size; ) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n <= 0) break;
    const nl = buf.subarray(0, n).indexOf(10);
    if (nl !== -1) return pos + nl + 1;
    pos += n;
  }
  return size;
}

/** Up to `bytes` bytes from `offset`, and whether they reach the file's end. */
export function readFrom(fd: number, offset: number, size: number, bytes = FIRST_READ * 4): Head {
  const buf = Buffer.allocUnsafe(Math.max(0, Math.min(bytes, size - offset)));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, offset + got);
    if (n <= 0) break;
    got += n;
  }
  return { bytes: buf.subarray(0, got), whole: offset + got >= size };
}
