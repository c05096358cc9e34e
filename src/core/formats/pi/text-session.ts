import { IndexBuilder, NotASessionError } from "../../store/index-builder";
import type { RawLine } from "../../store/line-scanner";
import type { HeaderHooks } from "../../store/index-hooks";
import { piIndexHooks } from "./index-hooks";
import type { SessionEntry } from "./model/entries";
import { Session } from "./pi-session";

/**
 * The lines of `bytes` as the file scanner hands them to the index builder: byte
 * offsets, numbers from 1, the last one unterminated when no newline ends the text.
 */
function eachLine(bytes: Buffer, onLine: (line: RawLine) => void): { nextLine: number; endsWithNewline: boolean } {
  let lineNo = 1;
  let start = 0;
  for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, start)) {
    onLine({ buf: bytes, start, end: nl, offset: start, lineNo: lineNo++, terminated: true });
    start = nl + 1;
  }
  if (start < bytes.length) onLine({ buf: bytes, start, end: bytes.length, offset: start, lineNo: lineNo++, terminated: false });
  return { nextLine: lineNo, endsWithNewline: bytes.length === 0 || bytes[bytes.length - 1] === 10 };
}

/**
 * A pi session read from text held in memory, through the same index builder and pi
 * hooks as a file (header, versions, damaged and torn lines, v1 ids): rule tests state
 * a session in a few lines and read it without writing a file. It is a `Session`, so
 * everything that takes one reads it; writing to it, or re-reading it, fails clearly.
 */
export class TextSession extends Session {
  private readonly parsed = new Map<number, SessionEntry>();

  private constructor(
    path: string,
    builder: IndexBuilder,
    private readonly bytes: Buffer,
    nextLine: number,
    endsWithNewline: boolean,
  ) {
    super(path, builder, bytes.length, nextLine, endsWithNewline, { size: bytes.length, mtimeMs: 0 });
  }

  /** Reads `text` (JSONL) as a pi session file at `path` would be read. */
  static fromText(text: string, path = "(memory)/session.jsonl"): TextSession {
    const bytes = Buffer.from(text, "utf8");
    const builder = new IndexBuilder(path, piIndexHooks);
    const end = eachLine(bytes, (line) => builder.accept(line));
    // The checks a file load makes once every line is read (JsonlSession.loadWith).
    if (bytes.length === 0) throw new NotASessionError(path, "the file is empty", piIndexHooks.agent);
    if (builder.needsHeader) throw new NotASessionError(path, (piIndexHooks.header as HeaderHooks).missing(builder.problems.length > 0, end.nextLine - 1), piIndexHooks.agent);
    builder.resolveV1Indexes();
    return new TextSession(path, builder, bytes, end.nextLine, end.endsWithNewline);
  }

  /** The entry at position i, parsed from its line and migrated as a file's is. */
  override entryAt(i: number): SessionEntry {
    const hit = this.parsed.get(i);
    if (hit) return hit;
    const meta = this.metas[i];
    if (!meta) throw new Error(`${this.path}: no entry at position ${i}`);
    const obj = JSON.parse(this.bytes.toString("utf8", meta.offset, meta.offset + meta.length)) as Record<string, unknown>;
    const entry = (piIndexHooks.migrate ? piIndexHooks.migrate(obj, meta, this.version) : obj) as SessionEntry;
    this.parsed.set(i, entry);
    return entry;
  }

  /** Nothing can be appended to text in memory: writers check this first. */
  override checkUnchanged(): void {
    throw new Error(`${this.path}: read from text in memory, not a file; nothing can be written to it`);
  }

  override refresh(): Promise<{ added: number }> {
    return Promise.reject(new Error(`${this.path}: read from text in memory, not a file; there is nothing to re-read`));
  }
}
