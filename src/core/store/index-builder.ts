import type { SessionHeader } from "../model/entries";
import { entryPreviewCodes } from "../model/preview";
import { estimateEntryTokens } from "../tokens/estimate";
import type { EntryMeta, LineProblem } from "./entry-meta";
import { EntryTable, type TablePart } from "./entry-table";
import { parseIsoTime } from "../util/iso-time";
import { isBlank, type RawLine } from "./line-scanner";

/**
 * A file that is not a pi session. Its message never quotes the file: the path may come
 * from an untrusted workspace and point at any file on the machine (a symlink to
 * /etc/passwd), so it says what was expected and what kind of line was found, not what
 * the line holds.
 */
export class NotASessionError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path}: not a pi session file: ${detail}`);
    this.name = "NotASessionError";
  }
}

/** Unparseable lines read before giving up on finding a header (see accept). */
export const MAX_LINES_BEFORE_HEADER = 10_000;

/** Line problems kept with their messages; the rest are only counted. */
export const MAX_LISTED_PROBLEMS = 1_000;

/** Deterministic ids for v1 entries (which have none): the line number as 8 hex chars. */
export function v1EntryId(lineNo: number): string {
  return lineNo.toString(16).padStart(8, "0");
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** Writes a usage object's figures into the table (no object kept). */
function putUsage(t: EntryTable, i: number, u: unknown): void {
  if (!u || typeof u !== "object") return;
  const o = u as Record<string, unknown>;
  const cost = o.cost as Record<string, unknown> | undefined;
  t.setUsageFigures(i, num(o.input), num(o.output), num(o.cacheRead), num(o.cacheWrite), typeof o.totalTokens === "number" ? o.totalTokens : Number.NaN, cost && typeof cost.total === "number" ? cost.total : Number.NaN);
}

/** What kind of JSON value a would-be header is, without any of its content. */
function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v !== "object") return `a ${typeof v}`;
  const o = v as Record<string, unknown>;
  return o.type === "session" ? 'an object with "type":"session" but no string "id"' : 'an object without "type":"session"';
}

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

/**
 * Builds the entry index from raw lines: header check, tolerant parsing with every bad
 * line reported, and in-memory migration of v1/v2 (ids for v1, hookMessage -> custom).
 * Full entries are not kept: only EntryMeta.
 */
export class IndexBuilder {
  header: SessionHeader | undefined;
  version = 1;
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
  /** v1 only: id of each parsed entry by its index among parsed lines (header = 0). */
  private parsedIds: Array<string | undefined> = [];
  private prevId: string | null = null;

  constructor(
    private readonly path: string,
    state?: { header: SessionHeader; version: number; prevId: string | null; parsedCount: number },
  ) {
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
    if (!this.header && this.badLines >= MAX_LINES_BEFORE_HEADER) {
      throw new NotASessionError(this.path, `first line is not a session header (no JSON line in the first ${this.badLines} lines; expected {"type":"session",...})`);
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

  /**
   * Appends what another builder indexed from the lines right after ours, as if we had
   * read them: `lineBase` is how many lines come before its first. Versions 2 and 3
   * only (v1 ids come from line numbers, which that builder did not know).
   */
  adopt(p: BuilderPart, lineBase: number): void {
    if (this.version < 2) throw new Error(`${this.path}: a version ${this.version} session is indexed in one pass`);
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
    let obj: unknown;
    try {
      // Inside the try: should the decoder still refuse a line as too long, it fails here.
      obj = JSON.parse(raw.buf.toString("utf8", raw.start, raw.end));
    } catch (err) {
      if ((err as { code?: string }).code === "ERR_STRING_TOO_LONG") return this.tooLong(raw, raw.end - raw.start);
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
    if (!this.header) {
      // The first line that parses must be the header (pi: otherwise not a session).
      const h = obj as Record<string, unknown>;
      if (!isObject || h.type !== "session" || typeof h.id !== "string") {
        throw new NotASessionError(this.path, `first line is not a session header (line ${raw.lineNo} is ${jsonKind(obj)}; expected {"type":"session","id":"..."})`);
      }
      this.header = obj as SessionHeader;
      this.version = typeof h.version === "number" ? h.version : 1;
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
    if (e.type === "session") {
      // pi drops extra header lines from the entries; they still count for v1 indexes.
      if (this.version < 2) this.parsedIds.push(undefined);
      return;
    }
    this.addEntry(e, raw);
  }

  private addEntry(e: Record<string, unknown>, raw: RawLine): void {
    let id: string;
    let parentId: string | null;
    let parentIsPrevious = false;
    if (this.version < 2) {
      id = v1EntryId(raw.lineNo);
      parentId = this.prevId;
      parentIsPrevious = true;
    } else {
      if (typeof e.id !== "string" || !e.id) {
        this.report({
          kind: "missing-id",
          line: raw.lineNo,
          message: `line ${raw.lineNo}: a version ${this.version} entry needs a string "id"; found ${describe(e.id)} (entry skipped)`,
        });
        return;
      }
      id = e.id;
      // In a chain the parent is the previous entry; the table stores that as a flag.
      parentId = typeof e.parentId === "string" ? e.parentId : null;
      parentIsPrevious = parentId !== null && parentId === this.prevId;
    }
    // Only v1 compactions point at entries by position.
    if (this.version < 2) this.parsedIds.push(id);
    this.prevId = id;
    const type = typeof e.type === "string" ? e.type : "(untyped)";
    // v3 renamed hookMessage to custom; migrated here, on the parsed line we do not
    // keep, so the estimate and preview below count it as pi does after its migration.
    if (this.version < 3 && type === "message") {
      const m = e.message as { role?: unknown } | undefined;
      if (m && m.role === "hookMessage") m.role = "custom";
    }
    const timestamp = typeof e.timestamp === "string" ? e.timestamp : "";
    const i = this.table.push(id, parentId, type, parseIsoTime(timestamp), raw.lineNo, raw.offset, raw.end - raw.start, entryPreviewCodes(e), estimateEntryTokens(e), parentIsPrevious);
    this.fillTypeFields(i, type, e);
  }

  private fillTypeFields(i: number, type: string, e: Record<string, unknown>): void {
    const t = this.table;
    switch (type) {
      case "message": {
        const m = (e.message ?? {}) as Record<string, unknown>;
        const role = typeof m.role === "string" ? m.role : "(none)";
        t.setRole(i, role);
        if (role === "assistant") {
          putUsage(t, i, m.usage);
          if (typeof m.stopReason === "string") t.setStopReason(i, m.stopReason);
          if (typeof m.provider === "string") t.setProvider(i, m.provider);
          if (typeof m.model === "string") t.setModel(i, m.model);
          const blocks = Array.isArray(m.content) ? (m.content as Array<{ type?: string }>) : [];
          let calls = 0;
          for (const b of blocks) if (b && b.type === "toolCall") calls++;
          t.toolCalls[i] = calls;
        } else if (role === "toolResult" && m.usage) {
          putUsage(t, i, m.usage);
        } else if (role === "bashExecution" && m.excludeFromContext) {
          t.rareOf(i).excluded = true;
        }
        break;
      }
      case "compaction": {
        const r = t.rareOf(i);
        if (typeof e.firstKeptEntryId === "string") r.firstKeptEntryId = e.firstKeptEntryId;
        if (typeof e.firstKeptEntryIndex === "number") r.firstKeptEntryIndex = e.firstKeptEntryIndex;
        r.tokensBefore = num(e.tokensBefore);
        if (Array.isArray(e.retainedTail)) r.hasRetainedTail = true;
        if (e.usage) putUsage(t, i, e.usage);
        break;
      }
      case "branch_summary": {
        const r = t.rareOf(i);
        r.fromId = typeof e.fromId === "string" ? e.fromId : undefined;
        r.emptySummary = !(typeof e.summary === "string" && e.summary);
        if (e.usage) putUsage(t, i, e.usage);
        break;
      }
      case "label": {
        const r = t.rareOf(i);
        r.targetId = typeof e.targetId === "string" ? e.targetId : undefined;
        r.label = typeof e.label === "string" && e.label ? e.label : undefined;
        break;
      }
      case "session_info":
        if (typeof e.name === "string" && e.name.trim()) t.rareOf(i).name = e.name.trim();
        break;
      case "model_change":
        if (typeof e.provider === "string") t.setProvider(i, e.provider);
        if (typeof e.modelId === "string") t.setModel(i, e.modelId);
        break;
      case "thinking_level_change":
        if (typeof e.thinkingLevel === "string") t.rareOf(i).thinkingLevel = e.thinkingLevel;
        break;
    }
  }

  /** v1 compactions name the first kept entry by its index among parsed lines. */
  resolveV1Indexes(from = 0): void {
    if (this.version >= 2) return;
    for (const [i, r] of this.table.rare) {
      if (i < from || this.table.typeAt(i) !== "compaction") continue;
      if (r.firstKeptEntryIndex !== undefined && r.firstKeptEntryId === undefined) {
        const target = this.parsedIds[r.firstKeptEntryIndex];
        if (target) r.firstKeptEntryId = target;
      }
    }
  }
}
