import { constants } from "node:buffer";
import { openRegularAsync } from "../util/safe-open";

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
  /**
   * Set for a line longer than a JavaScript string can hold: its bytes were counted,
   * not kept (buf holds none of them), since no decoder could turn them into text.
   */
  unreadBytes?: number;
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
  /** UTF-16 units a line may decode to before it is counted rather than kept (V8's string limit). */
  maxLineUnits?: number;
}

export interface ScanResult {
  /** Offset just past the last byte scanned. */
  endOffset: number;
  /** Number of the next line (1-based). */
  nextLine: number;
  /** Whether the scanned range ended with a newline (or was empty). */
  endsWithNewline: boolean;
}

const CHUNK = 1 << 19;

/**
 * Cuts chunks of a JSONL stream into lines, in order, and hands each to `onLine`: a
 * view into the chunk, valid only during the callback (a line spanning chunks is copied
 * once its newline arrives). The chunks may come from a file or from a decompressor.
 */
export class LineSplitter {
  private pos: number;
  private lineNo: number;
  /** Pieces of a line that spans chunks; joined once its newline arrives. */
  private pending: Buffer[] = [];
  private pendingStart: number;
  private readonly long: LongLine;
  private lastByte = 10;
  private last: Buffer = Buffer.alloc(0);

  constructor(
    private readonly onLine: (line: RawLine) => void,
    opts: Pick<ScanOptions, "fromOffset" | "fromLine" | "maxLineUnits"> = {},
  ) {
    this.pos = opts.fromOffset ?? 0;
    this.pendingStart = this.pos;
    this.lineNo = opts.fromLine ?? 1;
    this.long = new LongLine(opts.maxLineUnits ?? constants.MAX_STRING_LENGTH);
  }

  /** Offset just past the bytes pushed so far. */
  get offset(): number {
    return this.pos;
  }

  /** Hands on the lines that end in chunk[0..bytesRead) (bytesRead > 0). */
  push(chunk: Buffer, bytesRead: number): void {
    const long = this.long;
    const onLine = this.onLine;
    const pos = this.pos;
    let lineStart = 0;
    let nl = chunk.indexOf(10, 0);
    while (nl !== -1 && nl < bytesRead) {
      if (long.skipped) {
        onLine({ buf: chunk, start: 0, end: 0, offset: this.pendingStart, lineNo: this.lineNo, terminated: true, unreadBytes: long.skipped + nl });
        long.reset();
      } else if (this.pending.length > 0) {
        this.pending.push(chunk.subarray(0, nl));
        const joined = Buffer.concat(this.pending);
        this.pending = [];
        long.reset();
        onLine({ buf: joined, start: 0, end: joined.length, offset: this.pendingStart, lineNo: this.lineNo, terminated: true });
      } else {
        onLine({ buf: chunk, start: lineStart, end: nl, offset: pos + lineStart, lineNo: this.lineNo, terminated: true });
      }
      this.lineNo++;
      lineStart = nl + 1;
      nl = chunk.indexOf(10, lineStart);
    }
    if (lineStart < bytesRead) {
      if (this.pending.length === 0 && !long.skipped) this.pendingStart = pos + lineStart;
      const piece = chunk.subarray(lineStart, bytesRead);
      if (long.skipped) long.skipped += piece.length;
      else if (long.fits(this.pending, piece)) this.pending.push(Buffer.from(piece));
      else this.pending = [];
    }
    this.lastByte = chunk[bytesRead - 1];
    this.last = chunk;
    this.pos += bytesRead;
  }

  /** Hands on the last line when it has no newline, and says where the scan ended. */
  end(): ScanResult {
    if (this.long.skipped) {
      this.onLine({ buf: this.last, start: 0, end: 0, offset: this.pendingStart, lineNo: this.lineNo, terminated: false, unreadBytes: this.long.skipped });
      this.lineNo++;
    } else if (this.pending.length > 0) {
      const joined = Buffer.concat(this.pending);
      this.pending = [];
      this.onLine({ buf: joined, start: 0, end: joined.length, offset: this.pendingStart, lineNo: this.lineNo, terminated: false });
      this.lineNo++;
    }
    return { endOffset: this.pos, nextLine: this.lineNo, endsWithNewline: this.lastByte === 10 };
  }
}

/**
 * Streams a file in chunks and calls onLine for every line, so a file larger than
 * V8's string limit can be read and nothing but the current chunk is held.
 */
export async function scanLines(
  path: string,
  onLine: (line: RawLine) => void,
  opts: ScanOptions = {},
): Promise<ScanResult> {
  const fh = await openRegularAsync(path);
  // A read started ahead of the lines; settled before the file is closed.
  let inFlight: Promise<{ bytesRead: number; buffer: Buffer }> | undefined;
  try {
    const size = opts.toOffset ?? (await fh.stat()).size;
    const chunkSize = opts.chunkSize ?? CHUNK;
    const lines = new LineSplitter(onLine, opts);
    const from = lines.offset;
    // Two chunk buffers for the whole scan: while the lines of one are handed out, the
    // next range is already being read into the other (a load waited ~10% of its time on
    // reads before). Fresh buffers per chunk would pile up as external memory until a major GC.
    const first = Buffer.allocUnsafe(Math.min(chunkSize, Math.max(size - from, 1)));
    let spare: Buffer | undefined;
    const readInto = (buf: Buffer, at: number) => fh.read(buf, 0, Math.min(buf.length, size - at), at);
    inFlight = from < size ? readInto(first, from) : undefined;
    while (inFlight) {
      const { bytesRead, buffer: chunk } = await inFlight;
      inFlight = undefined;
      if (bytesRead === 0) break;
      opts.signal?.throwIfAborted();
      const next = lines.offset + bytesRead;
      if (next < size) {
        spare ??= Buffer.allocUnsafe(first.length);
        inFlight = readInto(chunk === first ? spare : first, next);
      }
      lines.push(chunk, bytesRead);
      opts.onProgress?.(lines.offset);
    }
    return lines.end();
  } finally {
    await inFlight?.catch(() => undefined);
    await fh.close();
  }
}

/** Like scanLines, over chunks that come from elsewhere (a decompressor), each handed on in order and not kept. */
export async function scanChunks(chunks: AsyncIterable<Uint8Array>, onLine: (line: RawLine) => void, opts: Pick<ScanOptions, "signal" | "onProgress" | "maxLineUnits"> = {}): Promise<ScanResult> {
  const lines = new LineSplitter(onLine, opts);
  for await (const c of chunks) {
    opts.signal?.throwIfAborted();
    if (!c.length) continue;
    lines.push(Buffer.from(c.buffer, c.byteOffset, c.length), c.length);
    opts.onProgress?.(lines.offset);
  }
  return lines.end();
}

/** UTF-16 units the UTF-8 bytes decode to: one per character, two for a 4-byte one. */
function utf16Units(b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if ((c & 0xc0) !== 0x80) n += c >= 0xf0 ? 2 : 1;
  }
  return n;
}

/**
 * Watches the line being pieced together across chunks. Under the limit in bytes it
 * cannot be too long; past it, its UTF-16 length is counted, and a line that will not
 * fit in a string is from then on only counted (`skipped` bytes), never joined: a
 * 540 MB line used to be held twice (1.2 GB) only to be refused by the decoder.
 */
class LongLine {
  /** Bytes of a line too long to keep, 0 while the current line is kept. */
  skipped = 0;
  private bytes = 0;
  private units = -1;

  constructor(private readonly limit: number) {}

  reset(): void {
    this.skipped = 0;
    this.bytes = 0;
    this.units = -1;
  }

  /** Whether the line still fits with one more piece; if not, it is skipped from now on. */
  fits(pending: readonly Buffer[], piece: Uint8Array): boolean {
    this.bytes += piece.length;
    if (this.bytes <= this.limit) return true;
    if (this.units < 0) this.units = pending.reduce((n, p) => n + utf16Units(p), 0);
    this.units += utf16Units(piece);
    if (this.units <= this.limit) return true;
    this.skipped = this.bytes;
    return false;
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
