import { type FoldedSearch, foldedSearch } from "./folded-simd";
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
  /** Chunk buffers to read into, when the finder searches its own memory best (SIMD). */
  buffers?(size: number): [Buffer, Buffer];
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
 * Case-insensitive, where WebAssembly SIMD runs: files are read straight into the
 * module's memory (buffers()), tested 16 positions at a time on the needle's two rarest
 * bytes, case bit set (folded-simd.ts); each candidate is then checked whole.
 */
class SimdFolded implements CandidateFinder {
  /** The needle's bytes with the case bit set on letters, and that bit per byte. */
  private readonly lower: Uint8Array;
  private readonly bit: Uint8Array;
  private readonly i: number;
  private readonly j: number;
  private mem: Uint8Array = new Uint8Array(0);
  /** Where the chunk starts in the module's memory. */
  private base = 0;
  private end = 0;
  /** For a chunk outside the module's memory (a buffer grown for a long line). */
  private readonly other: RegExpFolded;
  private outside = false;

  constructor(private readonly simd: FoldedSearch, literal: string) {
    this.other = new RegExpFolded(literal);
    const bytes = Buffer.from(literal, "latin1");
    this.bit = bytes.map((b) => (/[A-Za-z]/.test(String.fromCharCode(b)) ? 0x20 : 0));
    this.lower = bytes.map((b, k) => b | this.bit[k]);
    let a = 0;
    for (let k = 1; k < bytes.length; k++) if (commonness(this.lower[k]) < commonness(this.lower[a])) a = k;
    let b = a === 0 && bytes.length > 1 ? 1 : 0;
    for (let k = 0; k < bytes.length; k++) if (k !== a && commonness(this.lower[k]) < commonness(this.lower[b])) b = k;
    if (bytes.length === 1) b = a;
    [this.i, this.j] = a <= b ? [a, b] : [b, a];
  }

  buffers(size: number): [Buffer, Buffer] {
    return this.simd.chunkBuffers(size);
  }

  begin(buf: Buffer, end: number): void {
    this.outside = buf.buffer !== this.simd.memory;
    if (this.outside) return this.other.begin(buf, end);
    this.mem = new Uint8Array(buf.buffer);
    this.base = buf.byteOffset;
    this.end = end;
  }

  next(from: number): number {
    if (this.outside) return this.other.next(from);
    const { lower, bit, i, j, mem, base } = this;
    const n = lower.length;
    // Positions p of byte i such that the needle, starting at p - i, ends by `end`.
    const stop = base + this.end - n + j + 1;
    const first = lower[i] | 0x20;
    const last = lower[j] | 0x20;
    for (let p = this.simd.find(base + from + i, stop, first, last, j - i); p !== -1; p = this.simd.find(p + 1, stop, first, last, j - i)) {
      const q = p - i;
      let k = 0;
      while (k < n && (mem[q + k] | bit[k]) === lower[k]) k++;
      if (k === n) return q - base;
    }
    return -1;
  }
}

/**
 * Case-insensitive without WebAssembly SIMD: the chunk read as Latin-1 (one char per
 * byte, so offsets stay byte offsets) and searched by a case-insensitive RegExp, which
 * V8 runs with a Boyer-Moore lookahead. The literal is ASCII (JSON-safe), so folding
 * Latin-1 letters changes nothing.
 */
class RegExpFolded implements CandidateFinder {
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

/** The finder for a pattern; `simd: false` forces the RegExp path (tests compare the two). */
export function candidateFinder(p: SearchPattern, opts: { simd?: boolean } = {}): CandidateFinder {
  if (p.literal === undefined) return new EveryLine();
  if (p.caseSensitive) return new ExactFinder(Buffer.from(p.literal, "latin1"));
  const simd = opts.simd === false ? undefined : foldedSearch();
  return simd ? new SimdFolded(simd, p.literal) : new RegExpFolded(p.literal);
}
