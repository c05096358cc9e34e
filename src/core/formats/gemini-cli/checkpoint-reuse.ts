/**
 * `$set.messages` checkpoints read without parsing what was read before. Gemini CLI writes
 * the whole message list again at each resume, compression and rewind: in a long session
 * these lines are most of the file (85% of the bench's 100 MB), and most of their messages
 * are, byte for byte, a message the file already held. Such a message is taken from the
 * earlier text (a shallow copy: every record the replay gets is a fresh object, as
 * JSON.parse gives); only the others are parsed, each on its own.
 *
 * The result is the object JSON.parse of the whole line gives, or undefined whenever the
 * line is not of the shape Gemini writes (then the caller parses it whole, and reports
 * what is wrong with it as before). Gemini writes `{"$set":{"messages":[...],...}}` with
 * each message's `id` first (JSON.stringify of its records, no spaces).
 *
 * The texts are copied into blocks of their own: the file is read in chunks (a whole-file
 * buffer cost a page fault per 4 KiB, ~60 ms of system time for 100 MB, and its memory).
 */

const PREFIX = Buffer.from('{"$set":{"messages":[');
const ID_OPEN = Buffer.from('{"id":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const CLOSE_LIST = 0x5d;

type Rec = Record<string, unknown>;
const isObject = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** A message's latest text: a copy of its bytes, and the message they parse to. */
interface SeenText {
  block: Buffer;
  start: number;
  end: number;
  message: Rec;
}

/** Bytes of the blocks the texts are copied into (a longer text gets a block of its own). */
const BLOCK = 4 * 2 ** 20;

/**
 * The end (exclusive) of the JSON object or array that starts at `p`, -1 if it does not
 * end before `end`. Only brackets outside strings count; the text found is then parsed,
 * which checks the rest.
 */
function valueEnd(buf: Buffer, p: number, end: number): number {
  let depth = 0;
  for (let i = p; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) {
      // To the closing quote: an escape skips the character after the backslash.
      for (i++; i < end; i++) {
        const s = buf[i];
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === CLOSE_LIST) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Texts of the messages read so far in one file, by message id (its latest text). */
export class MessageTexts {
  private readonly byId = new Map<string, SeenText>();
  private block = Buffer.alloc(0);
  private used = 0;

  /** A message record parsed from buf[start, end). */
  note(message: Rec, buf: Buffer, start: number, end: number): void {
    if (typeof message.id !== "string") return;
    const n = end - start;
    if (this.used + n > this.block.length) {
      this.block = Buffer.allocUnsafe(Math.max(BLOCK, n));
      this.used = 0;
    }
    buf.copy(this.block, this.used, start, end);
    this.byId.set(message.id, { block: this.block, start: this.used, end: this.used + n, message });
    this.used += n;
  }

  /** The record on the checkpoint line buf[start, end), or undefined: parse the line whole. */
  checkpoint(buf: Buffer, start: number, end: number): Rec | undefined {
    if (end - start <= PREFIX.length || buf.compare(PREFIX, 0, PREFIX.length, start, start + PREFIX.length) !== 0) return undefined;
    const messages: Rec[] = [];
    let p = start + PREFIX.length;
    if (buf[p] === CLOSE_LIST) p++;
    else {
      for (;;) {
        const seen = this.seenAt(buf, p, end);
        let next: number;
        if (seen) {
          messages.push({ ...seen.message });
          next = p + (seen.end - seen.start);
        } else {
          next = valueEnd(buf, p, end);
          if (next < 0) return undefined;
          let m: unknown;
          try {
            m = JSON.parse(buf.toString("utf8", p, next));
          } catch {
            return undefined;
          }
          if (!isObject(m)) return undefined;
          this.note(m, buf, p, next);
          messages.push(m);
        }
        p = next;
        if (p >= end) return undefined;
        if (buf[p++] === COMMA) continue;
        if (buf[p - 1] === CLOSE_LIST) break;
        return undefined;
      }
    }
    // What follows the list (`,"lastUpdated":"..."}}`), parsed with a null in the list's place:
    // a second "messages" key (or an escaped one) would win over the list, so none may be there.
    const rest = buf.toString("utf8", p, end);
    if (rest.includes("\\") || rest.includes('"messages"')) return undefined;
    let r: unknown;
    try {
      r = JSON.parse(`{"$set":{"messages":null${rest}`);
    } catch {
      return undefined;
    }
    if (!isObject(r) || !isObject(r.$set) || r.$set.messages !== null) return undefined;
    r.$set.messages = messages;
    return r;
  }

  /** The message seen before whose text starts at `p`, byte for byte, and is followed by more of the line. */
  private seenAt(buf: Buffer, p: number, end: number): SeenText | undefined {
    const idStart = p + ID_OPEN.length;
    if (idStart >= end) return undefined;
    for (let k = 0; k < ID_OPEN.length; k++) if (buf[p + k] !== ID_OPEN[k]) return undefined;
    let q = idStart;
    while (q < end && buf[q] !== QUOTE) {
      // An id with an escape is left to the parse (its text is not the id's).
      if (buf[q] === BACKSLASH) return undefined;
      q++;
    }
    if (q >= end) return undefined;
    // Read as latin1 (no decoding work): an id outside ASCII then finds nothing, and is parsed.
    const seen = this.byId.get(buf.toString("latin1", idStart, q));
    if (!seen) return undefined;
    const to = p + (seen.end - seen.start);
    if (to >= end || buf.compare(seen.block, seen.start, seen.end, p, to) !== 0) return undefined;
    return seen;
  }
}
