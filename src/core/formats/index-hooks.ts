import type { EntryTable } from "../store/entry-table";

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

/**
 * What the line scanner extracts per line, for one format. The generic JSONL index
 * (src/core/store) parses each line and hands the object here; nothing of the object
 * is kept but what these hooks write into the table.
 */
export interface IndexHooks {
  /** Format id, for messages. */
  readonly formatId: string;
  /**
   * The format's identity of one parsed line: an entry, a string naming what is wrong
   * with it (reported as a problem with the line number, the line skipped), or null
   * for a line that is not an entry and not a problem.
   */
  identify(e: Record<string, unknown>, lineNo: number): IndexedEntry | string | null;
  /** Writes the rest of what the index keeps (role, usage, model, rare fields) for entry i. */
  fill(table: EntryTable, i: number, e: Record<string, unknown>): void;
}
