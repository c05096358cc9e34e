import type { EntryMeta } from "./entry-meta";
import type { EntryTable } from "./entry-table";

/** What hooks that read a later range of a file hand over: plain data (it crosses threads), or why the range must be read again on one thread. */
export type RangeHandOver = { state: unknown } | { onePass: string };

/** What a format's indexer found on one line: the entry's identity in the tree. */
export interface IndexedEntry {
  id: string;
  /** Parent id; null at a root. */
  parentId: string | null;
  /** The format's own type name, kept interned in the index. */
  type: string;
  /** Time in ms since the epoch; NaN when the line has none or it does not parse. */
  time: number;
  /** Up to ~100 characters of the entry's text for rows and search. */
  preview: string | Uint16Array;
  /** A chars/4 estimate of what the entry adds to the context. */
  estimate: number;
}

/** Where the indexer is in the file when it reads a line. */
export interface IndexPosition {
  /** The file's version (from its header; 0 for a format without one). */
  version: number;
  /** Id of the entry read just before, null at the start. */
  prevId: string | null;
  /**
   * Set on a history read (IndexHooks.skim): only the entries' identity and the previews of
   * prompts are asked for, so a format may leave other previews and estimates empty.
   */
  skims?: boolean;
}

/** For formats whose first line is a header (pi). */
export interface HeaderHooks {
  /** The first parsed line as a header: its version, or why it is not one (quoting nothing of it). */
  accept(obj: unknown, lineNo: number): { version: number } | string;
  /** Why a file with content has no header at all (no JSON line, or only blank lines). */
  missing(hadBadLines: boolean, lines: number): string;
  /** A later line that is another header: skipped, not an entry. */
  isRepeat(e: Record<string, unknown>): boolean;
  /** Versions whose entry ids come from line numbers: indexed in one pass, never split. */
  positional(version: number): boolean;
  /** Whether a file of this version can be split across threads (checked on the header alone). */
  splittable(header: Record<string, unknown>): boolean;
}

/**
 * How a reader that needs only the lines that can hold a file operation or a user's prompt
 * (the per-file history) indexes every other line from its leading members alone, its
 * content unparsed (see line-skim.ts). For every line that is JSON as JSON.parse reads it,
 * and for a torn last line (parsed whole), the entries, their ids and their tree are a full
 * read's; a skimmed entry only lacks what its content holds. The rest of a skimmed line is
 * not checked as JSON (the check cost as much as a listing's scan of the bytes), so a line
 * damaged after its lead (cut and followed by more lines, bad JSON past the lead, nested too
 * deep, a lead member repeated after the content: no agent writes one, JSON keeps the last)
 * is indexed as its lead says, where a full read reports it and leaves it out. It holds no
 * file operation by its lead; what differs is below it: a full read starts a new path at its
 * children, so a touch after it in the same turn has no prompt there, and here has the turn's.
 */
export interface SkimHooks {
  /**
   * The record a line is indexed as, from its leading members (see leadingMembers), when
   * the lead shows that the line can hold no file operation and no prompt and names all
   * its place in the tree needs; undefined to parse the line whole. `line` is the line's
   * bytes, for a format that tells from markers it does not hold that the line needs no parse.
   */
  skim(lead: Record<string, unknown>, version: number, line: Buffer): Record<string, unknown> | undefined;
}

/**
 * Lines whose first members hold all that the index keeps of them (Codex's events that no
 * view reads from the index): indexed from those members on every load, their bulk
 * unparsed. Unlike SkimHooks, the entry is the one a full parse gives, field for field.
 */
export interface LeadHooks {
  /**
   * The record to index buf[start, end) as, read from its first members strictly (they
   * must be written exactly as the format's writer writes them, so that reading them is
   * parsing them); undefined: the line is parsed whole.
   */
  read(buf: Buffer, start: number, end: number): Record<string, unknown> | undefined;
}

/**
 * What the line scanner extracts per line, for one format. The generic JSONL index
 * (src/core/store) parses each line and hands the object here; nothing of the object
 * is kept but what these hooks write into the table.
 */
export interface IndexHooks {
  /** Format id (picks the hooks again on a worker thread). */
  readonly formatId: string;
  /** Agent name for messages ("not a pi session file"). */
  readonly agent: string;
  readonly header?: HeaderHooks;
  /**
   * The format's identity of one parsed line: an entry, a string naming what is wrong
   * with it (reported as a problem with the line number, the line skipped), or null
   * for a line that is not an entry and not a problem. May migrate `e` in place.
   */
  identify(e: Record<string, unknown>, lineNo: number, at: IndexPosition): IndexedEntry | string | null;
  /** Writes the rest of what the index keeps (role, usage, model, rare fields) for entry i. */
  fill(table: EntryTable, i: number, e: Record<string, unknown>): void;
  /** The id a line read again claims (a rewritten file no longer holds its entry). */
  idOf(e: Record<string, unknown>): unknown;
  /** The full record as the rest of the code reads it (in-memory migration of old versions). */
  migrate?(e: Record<string, unknown>, meta: EntryMeta, version: number): Record<string, unknown>;
  /** How a history read skims the lines it does not need; left out: every line is parsed. */
  readonly skim?: SkimHooks;
  /** Lines every load indexes from their first members alone (see LeadHooks); left out: none. */
  readonly fromLead?: LeadHooks;

  /**
   * For hooks that carry state from line to line (Codex: turns, the model, usage): a
   * second thread reads the later range with fresh hooks. `startRange` readies them for
   * a range that does not start at the top, `handOverRange` says what of it hangs on the
   * lines before, and the first range's hooks take that over in `adoptRange`, once the
   * range's entries are in the table from `base` on; the result is the one-pass index.
   */
  startRange?(header: Record<string, unknown> | undefined): void;
  handOverRange?(): RangeHandOver;
  adoptRange?(table: EntryTable, base: number, state: unknown): void;
}
