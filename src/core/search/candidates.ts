import { escapeRegExp, type SearchPattern } from "./pattern";

/**
 * Finds candidate positions in a chunk of raw bytes: places where the pattern's literal
 * occurs, so only the lines around them are parsed. Without a literal every line is one.
 */
export interface CandidateFinder {
  /** Starts on a chunk: the bytes buf[0, end). */
  begin(buf: Buffer, end: number): void;
  /** The next candidate at or after `from`, or -1. */
  next(from: number): number;
}

/**
 * Buffer.indexOf runs a memchr-driven scan for needles of up to 7 bytes and a much
 * slower Boyer-Moore-Horspool past that (measured: 8-19 GB/s against 1-2 GB/s), so a
 * long literal is looked for by a 7-byte window of it and checked whole where found.
 */
const WINDOW = 7;

/** How common a byte is in session text, roughly: the window starting on the rarest byte is searched. */
function commonness(b: number): number {
  const c = String.fromCharCode(b);
  const lower = "etaoinsrhldcumfpgwybvkxjqz";
  const k = lower.indexOf(c);
  if (k >= 0) return 60 - 2 * k;
  if (c >= "A" && c <= "Z") return 6;
  if (c >= "0" && c <= "9") return 15;
  if (c === " ") return 80;
  return 25;
}

/** Exact bytes (case-sensitive): a window of the literal found by Buffer.indexOf, then compared whole. */
class ExactFinder implements CandidateFinder {
  private readonly window: Buffer<ArrayBufferLike>;
  private readonly at: number;
  private buf: Buffer<ArrayBufferLike> = Buffer.alloc(0);
  private end = 0;

  constructor(private readonly literal: Buffer) {
    let at = 0;
    for (let k = 1; k + WINDOW <= literal.length; k++) if (commonness(literal[k]) < commonness(literal[at])) at = k;
    this.at = at;
    this.window = literal.subarray(at, at + WINDOW);
  }

  begin(buf: Buffer, end: number): void {
    this.buf = buf;
    this.end = end;
  }

  next(from: number): number {
    const { buf, literal, at } = this;
    for (let p = buf.indexOf(this.window, from + at); p !== -1 && p < this.end; p = buf.indexOf(this.window, p + 1)) {
      const start = p - at;
      if (start >= from && start + literal.length <= this.end && buf.compare(literal, 0, literal.length, start, start + literal.length) === 0) return start;
    }
    return -1;
  }
}

/**
 * Case-insensitive: the chunk read as Latin-1 (one char per byte, so offsets stay byte
 * offsets) and searched by a case-insensitive RegExp, which V8 runs with a Boyer-Moore
 * lookahead. The literal is ASCII (JSON-safe), so folding Latin-1 letters changes nothing.
 */
class FoldedFinder implements CandidateFinder {
  private readonly re: RegExp;
  private text = "";

  constructor(literal: string) {
    this.re = new RegExp(escapeRegExp(literal), "gi");
  }

  begin(buf: Buffer, end: number): void {
    this.text = buf.toString("latin1", 0, end);
  }

  next(from: number): number {
    this.re.lastIndex = from;
    const m = this.re.exec(this.text);
    return m ? m.index : -1;
  }
}

/** Every line is a candidate: each call names the next line's start. */
class EveryLine implements CandidateFinder {
  private end = 0;

  begin(_buf: Buffer, end: number): void {
    this.end = end;
  }

  next(from: number): number {
    return from < this.end ? from : -1;
  }
}

export function candidateFinder(p: SearchPattern): CandidateFinder {
  if (p.literal === undefined) return new EveryLine();
  return p.caseSensitive ? new ExactFinder(Buffer.from(p.literal, "latin1")) : new FoldedFinder(p.literal);
}
