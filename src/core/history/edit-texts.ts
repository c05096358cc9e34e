// Where an edit's old and new texts are in their session file, so the history index (and
// its cache file) holds a place and a digest instead of the texts: a thousand sessions'
// edits are hundreds of MB, their places a few bytes each. A text is read back when a
// lookup hands it out, and a file changed under the index gives a note, never another text.

import { closeSync } from "node:fs";
import { readAt, readInto } from "../store/file-stamp";
import { laneDigest } from "../util/lane-digest";
import { openRegular } from "../util/safe-open";

/**
 * A text's place: the bytes at `at` (`bytes` long) of its session file are a JSON string
 * that decodes to it (the entry's line holds it so), and `digest` is those bytes' (bytesDigest).
 */
export interface TextAt {
  at: number;
  bytes: number;
  digest: number;
}

/** How the texts of entry i are kept in its touches: as they are (sessionTouches' default), or at their places. */
export type TextPlacer = (i: number, texts: { oldText?: string; newText?: string }) => { oldText?: string; newText?: string; oldAt?: TextAt; newAt?: TextAt };

/**
 * A short digest of a text's JSON bytes as its line holds them: enough to tell the bytes read
 * back from others. A cold index digests every edit of every session (650 MB at the bench's
 * 4 GB), so it is lane-digest.ts's, run in WebAssembly where the line is in pi's line scan's memory.
 */
export function bytesDigest(bytes: Uint8Array, from = 0, to = bytes.length): number {
  return laneDigest(bytes, from, to);
}

/**
 * The place of `text` in a line of its session file (`line`, read from `lineOffset`):
 * the JSON string JSON.stringify writes for it, wherever it stands in the line, and the
 * digest of those bytes. Undefined
 * when the line does not hold it so (a writer that escapes differently, an edit cut out
 * of a patch): the caller keeps that text itself.
 */
export function placeOf(text: string, line: Buffer, lineOffset: number): TextAt | undefined {
  const literal = Buffer.from(JSON.stringify(text));
  const k = line.indexOf(literal);
  if (k < 0) return undefined;
  return { at: lineOffset + k, bytes: literal.length, digest: bytesDigest(literal) };
}

/**
 * The length of a text a read left in its line (at cut[0], cut[1] of `line`) as far as a
 * `cap` on it asks: up to the cap, a bound (its JSON string's bytes less the quotes: a
 * character takes a byte or more there); past it, the text is decoded and counted.
 */
export function cutLength(line: Buffer, cut: [number, number], cap: number): number {
  const bytes = cut[1] - cut[0] - 2;
  if (bytes <= cap) return bytes;
  return (JSON.parse(line.toString("utf8", cut[0], cut[1])) as string).length;
}

/** Reads byte ranges of one session file, the file opened once and closed by `close`. */
export class SessionBytes {
  private fd: number | undefined;

  constructor(readonly path: string) {}

  /** The bytes [at, at+bytes) of the file; fewer at its end. */
  read(at: number, bytes: number): Buffer {
    this.fd ??= openRegular(this.path);
    return readAt(this.fd, at, bytes);
  }

  /** Fills `into` from `at` on: how many bytes it got (fewer at the file's end). */
  readInto(into: Buffer, at: number): number {
    this.fd ??= openRegular(this.path);
    return readInto(this.fd, into, at);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Bytes the placer reads of its file at a time: the lines it asks for are many, short and in file order. */
const WINDOW = 1 << 20;

/**
 * A file's lines read through one window of WINDOW bytes, moved on as the lines asked for
 * pass its end: a read per window rather than per line (thousands of edits to a large
 * session each cost a read and a buffer before). A line longer than a quarter of it is read alone.
 */
class LineWindow {
  /** Made at the first line asked for: a session without edits reads none. */
  private buf: Buffer | undefined;
  private from = 0;
  private got = 0;

  constructor(private readonly file: SessionBytes) {}

  /** The bytes [at, at+bytes) (fewer at the file's end), valid until the next read. */
  read(at: number, bytes: number): Buffer {
    if (bytes > WINDOW / 4) return this.file.read(at, bytes);
    if (!this.buf || at < this.from || at + bytes > this.from + this.got) {
      this.buf ??= Buffer.allocUnsafe(WINDOW);
      this.from = at;
      this.got = this.file.readInto(this.buf, at);
    }
    const k = at - this.from;
    return this.buf.subarray(k, Math.min(k + bytes, this.got));
  }
}

/**
 * The text at a place, read back: the text, or a one-line note saying why it is not given
 * (the file is gone, shorter, or holds other bytes there than when it was indexed).
 */
export function readBack(file: SessionBytes, place: TextAt): { text: string } | { note: string } {
  const changed = `${file.path} changed since the history indexed it (bytes ${place.at}-${place.at + place.bytes} no longer hold the edit's text); refresh the history to read it again`;
  let bytes: Buffer;
  try {
    bytes = file.read(place.at, place.bytes);
  } catch (err) {
    return { note: `${file.path}: the edit's text could not be read back: ${(err as Error).message}` };
  }
  if (bytes.length < place.bytes || bytesDigest(bytes) !== place.digest) return { note: changed };
  let text: unknown;
  try {
    text = JSON.parse(bytes.toString("utf8"));
  } catch {
    return { note: changed };
  }
  if (typeof text !== "string") return { note: changed };
  return { text };
}

/** A touch whose texts may be places in its session file (sessionPath), read back by withTexts. */
interface PlacedTexts {
  sessionPath: string;
  oldText?: string;
  newText?: string;
  oldAt?: TextAt;
  newAt?: TextAt;
  textNote?: string;
}

/**
 * Where the texts of a session's edits are kept: as places in its file when the entry's
 * line holds them as JSON strings (the line read again, once per entry), else as they are.
 */
export function placer(metas: ReadonlyArray<{ offset: number; length: number }>, bytes: SessionBytes): TextPlacer {
  let lineOf = -1;
  let line: Buffer | undefined;
  const window = new LineWindow(bytes);
  return (i, t) => {
    const meta = metas[i];
    if (lineOf !== i) {
      lineOf = i;
      try {
        line = meta.length > 0 ? window.read(meta.offset, meta.length) : undefined;
      } catch {
        // Not a file of lines (a database address): the texts are kept as they are.
        line = undefined;
      }
    }
    return placeTexts(t, line, meta.offset);
  };
}

/** Where a read left a text unparsed in its line (FileOpsEntry.cutAt). */
type CutAt = (text: string) => [number, number] | undefined;

/**
 * An entry's edit texts at their places in its line (read from `offset` of its file), each
 * kept as it is where the line does not hold it so. A stand-in for a text left in the line
 * (`cutAt`) is placed where it was left.
 */
export function placeTexts(t: { oldText?: string; newText?: string }, line: Buffer | undefined, offset: number, cutAt?: CutAt): ReturnType<TextPlacer> {
  const out: ReturnType<TextPlacer> = {};
  // Old then new, written out: a loop over pairs of keys cost a third of this.
  if (t.oldText !== undefined) {
    const at = line && placed(t.oldText, line, offset, cutAt);
    if (at) out.oldAt = at;
    else out.oldText = t.oldText;
  }
  if (t.newText !== undefined) {
    const at = line && placed(t.newText, line, offset, cutAt);
    if (at) out.newAt = at;
    else out.newText = t.newText;
  }
  return out;
}

/**
 * A text whose JSON string is shorter than this is kept as it is, not as its place: the place
 * ([at, bytes, digest] in the cache, ~25 bytes) takes as much room, and finding and digesting
 * it cost more than the rest of the text's touch. At most the bytes from which pi's quick read
 * leaves a text in its line (formats/pi/file-ops-read.ts's CUT_BYTES), so that a text the
 * read left there is never short and both reads keep a text alike.
 */
export const SHORT_TEXT_BYTES = 32;

/** Printable ASCII but a quote and a backslash: JSON.stringify writes each such character as one byte. */
const PLAIN_ASCII = /^[ !#-[\]-~]*$/;

/**
 * A text's place in its line: where it was left (`cutAt`), else where JSON.stringify's literal
 * of it is (placeOf); undefined for neither, and for a short one (SHORT_TEXT_BYTES).
 */
function placed(text: string, line: Buffer, offset: number, cutAt: CutAt | undefined): TextAt | undefined {
  const cut = cutAt?.(text);
  if (!cut) {
    // Plain ASCII short enough: its literal's bytes are its length and the quotes, known without making it.
    if (text.length + 2 < SHORT_TEXT_BYTES && PLAIN_ASCII.test(text)) return undefined;
    const at = placeOf(text, line, offset);
    return at && at.bytes >= SHORT_TEXT_BYTES ? at : undefined;
  }
  return { at: offset + cut[0], bytes: cut[1] - cut[0], digest: bytesDigest(line, cut[0], cut[1]) };
}

/**
 * The touches with their edits' texts read back from the session files (once: the texts
 * then stay in the index's records), or a note where a file no longer holds them.
 */
export function withTexts<T extends PlacedTexts>(touches: T[]): T[] {
  const files = new Map<string, SessionBytes>();
  try {
    for (const t of touches) {
      if (!t.oldAt && !t.newAt) continue;
      let file = files.get(t.sessionPath);
      if (!file) files.set(t.sessionPath, (file = new SessionBytes(t.sessionPath)));
      for (const [key, atKey] of [["oldText", "oldAt"], ["newText", "newAt"]] as const) {
        const at = t[atKey];
        if (!at) continue;
        delete t[atKey];
        const got = readBack(file, at);
        if ("text" in got) t[key] = got.text;
        else t.textNote ??= got.note;
      }
    }
  } finally {
    for (const f of files.values()) f.close();
  }
  return touches;
}
