import { open } from "node:fs/promises";

/** One physical line of a JSONL file, without its newline. `buf` is only valid during the callback. */
export interface RawLine {
  buf: Buffer;
  start: number;
  end: number;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** 1-based line number in the file. */
  lineNo: number;
  /** False only for a last line that has no trailing newline. */
  terminated: boolean;
}

export interface ScanOptions {
  /** Byte offset to start at (must be the start of a line). */
  fromOffset?: number;
  /** Line number of the line at fromOffset. */
  fromLine?: number;
  /** Stop before this byte offset (used to read a snapshot of a growing file). */
  toOffset?: number;
  chunkSize?: number;
  signal?: AbortSignal;
  onProgress?: (bytesRead: number) => void;
}

export interface ScanResult {
  /** Offset just past the last byte scanned. */
  endOffset: number;
  /** Number of the next line (1-based). */
  nextLine: number;
  /** Whether the scanned range ended with a newline (or was empty). */
  endsWithNewline: boolean;
}

const CHUNK = 1 << 20;

/**
 * Streams a file in chunks and calls onLine for every line, so a file larger than
 * V8's string limit can be read and nothing but the current chunk is held.
 */
export async function scanLines(
  path: string,
  onLine: (line: RawLine) => void,
  opts: ScanOptions = {},
): Promise<ScanResult> {
  const fh = await open(path, "r");
  try {
    const size = opts.toOffset ?? (await fh.stat()).size;
    const chunkSize = opts.chunkSize ?? CHUNK;
    let pos = opts.fromOffset ?? 0;
    let lineNo = opts.fromLine ?? 1;
    // Pieces of a line that spans chunks; joined once its newline arrives.
    let pending: Buffer[] = [];
    let pendingStart = pos;
    let lastByte = 10;
    // One chunk buffer for the whole scan: lines handed out are views into it, valid only
    // during the callback (a line spanning chunks is copied). Fresh buffers per chunk
    // would pile up as external memory until a major GC.
    const chunk = Buffer.allocUnsafe(Math.min(chunkSize, Math.max(size - pos, 1)));
    while (pos < size) {
      opts.signal?.throwIfAborted();
      const want = Math.min(chunk.length, size - pos);
      const { bytesRead } = await fh.read(chunk, 0, want, pos);
      if (bytesRead === 0) break;
      let lineStart = 0;
      let nl = chunk.indexOf(10, 0);
      while (nl !== -1 && nl < bytesRead) {
        if (pending.length > 0) {
          pending.push(chunk.subarray(0, nl));
          const joined = Buffer.concat(pending);
          pending = [];
          onLine({ buf: joined, start: 0, end: joined.length, offset: pendingStart, lineNo, terminated: true });
        } else {
          onLine({ buf: chunk, start: lineStart, end: nl, offset: pos + lineStart, lineNo, terminated: true });
        }
        lineNo++;
        lineStart = nl + 1;
        nl = chunk.indexOf(10, lineStart);
      }
      if (lineStart < bytesRead) {
        if (pending.length === 0) pendingStart = pos + lineStart;
        pending.push(Buffer.from(chunk.subarray(lineStart, bytesRead)));
      }
      lastByte = chunk[bytesRead - 1];
      pos += bytesRead;
      opts.onProgress?.(pos);
    }
    if (pending.length > 0) {
      const joined = Buffer.concat(pending);
      onLine({ buf: joined, start: 0, end: joined.length, offset: pendingStart, lineNo, terminated: false });
      lineNo++;
    }
    return { endOffset: pos, nextLine: lineNo, endsWithNewline: lastByte === 10 };
  } finally {
    await fh.close();
  }
}

/** True when bytes start..end are all JSON whitespace (pi skips such lines silently). */
export function isBlank(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i];
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) return false;
  }
  return true;
}
