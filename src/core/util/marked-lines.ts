import { closeSync, readSync } from "node:fs";
import { openRegular } from "./safe-open";

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

/** Fills a buffer of `length` bytes from `offset` (fewer when the file ends first). */
function readRange(fd: number, offset: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, out, got, length - got, offset + got);
    if (n <= 0) break;
    got += n;
  }
  return out.subarray(0, got);
}

/**
 * Calls `take` with the text of every line of a file that holds one of `markers`, in file
 * order, reading the file once in chunks. A line is only looked at while streaming: one
 * without a marker is never assembled (a 200 MB line costs one chunk of memory), and one
 * with a marker that spans chunks is read again by its byte range into one buffer of its
 * size (gluing chunk strings together made each chunk copy the whole line so far).
 * A line too long to be a JavaScript string is passed over.
 */
export function forEachMarkedLine(path: string, markers: readonly string[], take: (line: string) => void): void {
  const marks = markers.map((m) => Buffer.from(m, "utf8"));
  // Bytes of the current line kept from the chunk before, to find a marker cut by a chunk's end.
  const overlap = Math.max(0, ...marks.map((m) => m.length - 1));
  const fd = openRegular(path);
  try {
    const buf = Buffer.alloc(CHUNK);
    let carry = Buffer.alloc(0);
    let lineStart = 0;
    let marked = false;
    let pos = 0;
    const emit = (bytes: Buffer) => {
      let text: string;
      try {
        text = bytes.toString("utf8");
      } catch {
        return;
      }
      take(text);
    };
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, pos);
      if (n <= 0) break;
      const chunk = buf.subarray(0, n);
      for (let from = 0; ; ) {
        const nl = chunk.indexOf(NEWLINE, from);
        const end = nl < 0 ? n : nl;
        const piece = chunk.subarray(from, end);
        if (!marked && marks.length) {
          const seam = carry.length ? Buffer.concat([carry, piece.subarray(0, overlap)]) : undefined;
          marked = marks.some((m) => piece.includes(m) || (seam !== undefined && seam.includes(m)));
        }
        if (nl < 0) {
          // Copied: the chunk buffer is read into again.
          const tail = piece.length >= overlap ? piece.subarray(piece.length - overlap) : Buffer.concat([carry, piece]).subarray(-overlap);
          carry = Buffer.from(tail);
          break;
        }
        if (marked) emit(lineStart >= pos ? piece : readRange(fd, lineStart, pos + nl - lineStart));
        lineStart = pos + nl + 1;
        marked = false;
        carry = Buffer.alloc(0);
        from = nl + 1;
      }
      pos += n;
    }
    if (marked && lineStart < pos) emit(readRange(fd, lineStart, pos - lineStart));
  } finally {
    closeSync(fd);
  }
}
