import { withArticle } from "../util/human";
import type { IndexHooks, LeadHooks } from "./index-hooks";
import type { EntryMeta, LineProblem } from "./entry-meta";
import { EntryTable, type TablePart } from "./entry-table";
import { isBlank, type RawLine } from "./line-scanner";
import { jsonDeeperThan, MAX_JSON_DEPTH, TOO_DEEP } from "../util/json-depth";
import { closesObject, leadingMembers, skimmable } from "./line-skim";

/**
 * A file that is not a session of the format it was read as. Its message never quotes the file: the path may come
 * from an untrusted workspace and point at any file on the machine (a symlink to
 * /etc/passwd), so it says what was expected and what kind of line was found, not what
 * the line holds.
 */
export class NotASessionError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
    agent = "pi",
  ) {
    super(`${path}: not ${withArticle(agent)} session file: ${detail}`);
    this.name = "NotASessionError";
  }
}

/** Valid JSON nested deeper than MAX_JSON_DEPTH takes at least this many bytes: an opening and a closing bracket per level. */
export const DEEP_LINE_BYTES = 2 * (MAX_JSON_DEPTH + 1);

/** Bytes of lines a history read keeps parsed for its own second look (more are read again). */
const KEEP_BYTES = 96 * 2 ** 20;

/** Unparseable lines read before giving up on finding a header (see accept). */
export const MAX_LINES_BEFORE_HEADER = 10_000;

/** Line problems kept with their messages; the rest are only counted. */
export const MAX_LISTED_PROBLEMS = 1_000;

function describe(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** What a builder that indexed a later byte range of the same file hands over (see IndexBuilder.adopt). */
export interface BuilderPart {
  part: TablePart;
  problems: LineProblem[];
  unlisted: number;
  /** Line of its latest problem, 0 if none; its lines are counted from 1. */
  lastProblemLine: number;
  lastId: string | null;
}

/** A problem found by a builder that counted lines from 1, moved down by `by` lines. */
function shiftProblem(p: LineProblem, by: number): LineProblem {
  const head = `line ${p.line}`;
  const line = p.line + by;
  return { ...p, line, message: p.message.startsWith(head) ? `line ${line}${p.message.slice(head.length)}` : p.message };
}

/** Where a builder that reads a later part of a file starts (the lines before it already read). */
export interface BuilderState {
  header: Record<string, unknown> | undefined;
  version: number;
  prevId: string | null;
  parsedCount: number;
}

/**
 * Builds the entry index from raw lines of any format: the format's hooks say what a
 * line is (header check, identity, what to keep); parsing is tolerant, every bad line
 * reported with its number. Full entries are not kept: only EntryMeta.
 */
export class IndexBuilder {
  /** The header line, for formats that have one. */
  header: Record<string, unknown> | undefined;
  /** The header's version (pi: 1 when absent); 0 for a format without a header. */
  version: number;
  readonly table = new EntryTable();
  /** The records as an array; each access reads the table (nothing is kept per entry). */
  readonly metas: readonly EntryMeta[] = this.table.asArray();
  /** Line problems with their messages, the first MAX_LISTED_PROBLEMS of them. */
  readonly problems: LineProblem[] = [];
  /** Problems past MAX_LISTED_PROBLEMS: counted, not kept (a file of garbage lines would otherwise hold a report per line). */
  unlisted = 0;
  /** Line of the latest problem, listed or not (refresh forgets a torn last line's). */
  private lastProblemLine = 0;
  /** Lines that did not parse, for the rule about lines before the header. */
  private badLines = 0;
  /** Positional versions only: id of each parsed entry by its index among parsed lines (header = 0). */
  private parsedIds: Array<string | undefined> = [];
  private prevId: string | null = null;
  /** A history read's whole-parsed entries, by position (see takeKept). */
  private kept = new Map<number, Record<string, unknown>>();
  private keptBytes = 0;

  constructor(
    private readonly path: string,
    readonly hooks: IndexHooks,
    state?: BuilderState,
    /** Index lines the per-file history does not need from their leading members (IndexHooks.skim). */
    readonly skims = false,
  ) {
    this.version = hooks.header ? 1 : 0;
    if (state) {
      this.header = state.header;
      this.version = state.version;
      this.prevId = state.prevId;
      this.parsedIds.length = state.parsedCount;
    }
  }

  get parsedCount(): number {
    return this.parsedIds.length;
  }

  /** Whether the file's ids come from line numbers (read in one pass, in place). */
  get positional(): boolean {
    return !!this.hooks.header?.positional(this.version);
  }

  /** Whether the header this format needs is still missing. */
  get needsHeader(): boolean {
    return !!this.hooks.header && !this.header;
  }

  /** A line too long to read is reported with its size and skipped like one that does not parse. */
  private tooLong(raw: RawLine, bytes: number): void {
    const mb = (bytes / 2 ** 20).toFixed(0);
    this.report({ kind: "parse-error", line: raw.lineNo, message: `line ${raw.lineNo}: too long to read (${mb} MB; a JavaScript string holds at most 512 MB), skipped` });
    this.countBadLine();
  }

  /**
   * pi skips unparseable lines before the header too, but a file that opens with
   * thousands of them is a log or a text file, not a session: say so now, rather than
   * read all of it and keep a report for each of its lines.
   */
  private countBadLine(): void {
    this.badLines++;
    if (this.needsHeader && this.badLines >= MAX_LINES_BEFORE_HEADER) {
      throw new NotASessionError(this.path, (this.hooks.header as NonNullable<IndexHooks["header"]>).missing(true, this.badLines).replace(`in ${this.badLines} line(s)`, `in the first ${this.badLines} lines`), this.hooks.agent);
    }
  }

  private report(p: LineProblem): void {
    if (this.problems.length < MAX_LISTED_PROBLEMS) this.problems.push(p);
    else this.unlisted++;
    this.lastProblemLine = p.line;
  }

  /** Forgets the problem reported for a line (a torn last line about to be read again). */
  forgetProblem(line: number): void {
    const k = this.problems.findLastIndex((p) => p.line === line);
    if (k >= 0) this.problems.splice(k, 1);
    else if (this.unlisted > 0 && this.lastProblemLine === line) this.unlisted--;
  }

  /** Everything indexed so far, to be adopted by the builder of the lines before (this one must not be used after). */
  handOver(): BuilderPart {
    return { part: this.table.toPart(), problems: this.problems, unlisted: this.unlisted, lastProblemLine: this.lastProblemLine, lastId: this.prevId };
  }

  /** State for a builder that reads on from the end of what this one read. */
  stateAfter(): BuilderState {
    return { header: this.header, version: this.version, prevId: this.prevId, parsedCount: 1 };
  }

  /**
   * Appends what another builder indexed from the lines right after ours, as if we had
   * read them: `lineBase` is how many lines come before its first. Not for positional
   * versions (their ids come from line numbers, which that builder did not know).
   */
  adopt(p: BuilderPart, lineBase: number): void {
    if (this.positional) throw new Error(`${this.path}: a version ${this.version} session is indexed in one pass`);
    this.table.appendPart(p.part, lineBase);
    for (const q of p.problems) this.report(shiftProblem(q, lineBase));
    this.unlisted += p.unlisted;
    if (p.lastProblemLine) this.lastProblemLine = p.lastProblemLine + lineBase;
    if (p.lastId !== null) this.prevId = p.lastId;
  }

  get lastId(): string | null {
    return this.prevId;
  }

  accept(raw: RawLine): void {
    // A line past V8's string limit (~512 MB): the scanner counted it rather than keep it.
    if (raw.unreadBytes !== undefined) return this.tooLong(raw, raw.unreadBytes);
    if (isBlank(raw.buf, raw.start, raw.end)) return;
    if (this.skims && this.skimmed(raw)) return;
    if (this.hooks.fromLead && this.fromLead(raw, this.hooks.fromLead)) return;
    // Before parsing: a value this deep would overflow the stack of whatever walks it next.
    // A shorter line cannot be that deep and parse, so its depth is looked at only if it
    // fails to (most lines: the walk cost a load 3% of its time), for the same report.
    const mayBeDeep = raw.end - raw.start >= DEEP_LINE_BYTES;
    if (mayBeDeep && jsonDeeperThan(raw.buf, raw.start, raw.end)) return this.tooDeep(raw);
    let obj: unknown;
    try {
      // Inside the try: should the decoder still refuse a line as too long, it fails here.
      obj = JSON.parse(raw.buf.toString("utf8", raw.start, raw.end));
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_STRING_TOO_LONG") return this.tooLong(raw, raw.end - raw.start);
      if (!mayBeDeep && jsonDeeperThan(raw.buf, raw.start, raw.end)) return this.tooDeep(raw);
      const reason = (err as Error).message;
      if (!raw.terminated) {
        this.report({
          kind: "torn-line",
          line: raw.lineNo,
          message: `line ${raw.lineNo}: torn last line (${raw.end - raw.start} bytes, no newline; an agent killed mid-write leaves this): ${reason}`,
        });
      } else {
        this.report({ kind: "parse-error", line: raw.lineNo, message: `line ${raw.lineNo}: not valid JSON: ${reason}` });
      }
      this.countBadLine();
      return;
    }
    const isObject = !!obj && typeof obj === "object" && !Array.isArray(obj);
    const header = this.hooks.header;
    if (header && !this.header) {
      const got = header.accept(obj, raw.lineNo);
      if (typeof got === "string") throw new NotASessionError(this.path, got, this.hooks.agent);
      this.header = obj as Record<string, unknown>;
      this.version = got.version;
      this.parsedIds.push(undefined);
      return;
    }
    if (!isObject) {
      this.report({
        kind: "not-an-object",
        line: raw.lineNo,
        message: `line ${raw.lineNo}: expected a JSON object, found ${describe(obj)}`,
      });
      return;
    }
    const e = obj as Record<string, unknown>;
    if (header?.isRepeat(e)) {
      // pi drops extra header lines from the entries; they still count for v1 indexes.
      if (this.positional) this.parsedIds.push(undefined);
      return;
    }
    this.addEntry(e, raw);
  }

  private tooDeep(raw: RawLine): void {
    this.report({ kind: "parse-error", line: raw.lineNo, message: `line ${raw.lineNo}: ${TOO_DEEP}` });
    this.countBadLine();
  }

  /**
   * Indexes a line from its leading members, when its format says that is all the history
   * needs of it: true if it did. The header and the lines the format needs are parsed whole.
   */
  private skimmed(raw: RawLine): boolean {
    const skim = this.hooks.skim;
    if (!skim || this.needsHeader) return false;
    const lead = leadingMembers(raw.buf, raw.start, raw.end);
    const e = lead && skim.skim(lead, this.version, raw.buf.subarray(raw.start, raw.end));
    if (!e || this.hooks.header?.isRepeat(e)) return false;
    // A torn last line is parsed whole, to be reported as a full read reports it. The rest
    // of a skimmed line is not checked as JSON (that cost as much as a listing's scan): see
    // SkimHooks for what a line damaged after its lead then does.
    if (!raw.terminated || !closesObject(raw.buf, raw.start, raw.end)) return false;
    this.addEntry(e, raw, true);
    return true;
  }

  /** Indexes a line from its first members when its format says they hold all the index keeps of it (IndexHooks.fromLead): true if it did. */
  private fromLead(raw: RawLine, hooks: LeadHooks): boolean {
    if (this.needsHeader) return false;
    const e = hooks.read(raw.buf, raw.start, raw.end);
    // A torn, cut or too deep line is parsed whole, to be reported the way a full read reports it.
    if (!e || !skimmable(raw.buf, raw.start, raw.end)) return false;
    this.addEntry(e, raw, true);
    return true;
  }

  private addEntry(e: Record<string, unknown>, raw: RawLine, skimmed = false): void {
    const got = this.hooks.identify(e, raw.lineNo, { version: this.version, prevId: this.prevId, skims: this.skims });
    if (got === null) return;
    if (typeof got === "string") {
      this.report({ kind: "missing-id", line: raw.lineNo, message: `line ${raw.lineNo}: ${got}` });
      return;
    }
    // In a chain the parent is the previous entry; the table stores that as a flag.
    const parentIsPrevious = got.parentId !== null && got.parentId === this.prevId;
    // Only positional versions point at entries by position.
    if (this.positional) this.parsedIds.push(got.id);
    this.prevId = got.id;
    const i = this.table.push(got.id, got.parentId, got.type, got.time, raw.lineNo, raw.offset, raw.end - raw.start, got.preview, got.estimate, parentIsPrevious);
    this.hooks.fill(this.table, i, e);
    // A history read asks for the lines it parsed whole again at once: they are kept for it.
    if (this.skims && !skimmed && this.keptBytes < KEEP_BYTES) {
      this.kept.set(i, e);
      this.keptBytes += raw.end - raw.start;
    }
  }

  /** What a history read parsed whole, by position, handed over once (JsonlSession.entryAt uses them). */
  takeKept(): Map<number, Record<string, unknown>> {
    const kept = this.kept;
    this.kept = new Map();
    this.keptBytes = KEEP_BYTES;
    return kept;
  }

  /** Positional versions name the first kept entry by its index among parsed lines. */
  resolveV1Indexes(from = 0): void {
    if (!this.positional) return;
    for (const [i, r] of this.table.rare) {
      if (i < from) continue;
      if (r.firstKeptEntryIndex !== undefined && r.firstKeptEntryId === undefined) {
        const target = this.parsedIds[r.firstKeptEntryIndex];
        if (target) r.firstKeptEntryId = target;
      }
    }
  }
}
