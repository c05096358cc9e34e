import type { EntryMeta, LineProblem } from "../store/entry-meta";
import type { EntryTable } from "../store/entry-table";
import type { SessionTree } from "../tree/session-tree";
import type { SessionFormat } from "./session-format";

export type { FileStamp } from "../store/file-stamp";

/** What a session says about itself (pi's header; the first lines of a headerless format). */
export interface SessionInfo {
  id: string;
  cwd: string;
  /** The format's version of the file, when it has one. */
  version?: number;
  /** Version of the agent that wrote the lines (e.g. "0.4.2"), when they record one. */
  agentVersion?: string;
  created?: string;
  name?: string;
}

/**
 * A loaded session of any format: its entries indexed in file order, the tree over them,
 * and full entries read on demand. Implemented by the indexed JSONL reader (a file of any
 * size) and by the in-memory reader (rule tests build sessions as arrays of records).
 */
export interface SessionReader {
  /** The file it was read from (an in-memory session names where it would live). */
  readonly path: string;
  readonly formatId: string;
  /** The format it was read as, found once: callers use it instead of looking it up again. */
  readonly format: SessionFormat;
  readonly metas: readonly EntryMeta[];
  /** The index's columns, for passes over every entry. */
  readonly table: EntryTable;
  readonly tree: SessionTree;
  /** Lines skipped while reading, plus tree problems, in line order. */
  readonly problems: LineProblem[];
  readonly problemCount: number;
  /** False while only a first part of a large file is read. */
  readonly complete: boolean;
  /** The full record at position i, as the format stores it (after in-memory migration). */
  entryAt(i: number): Record<string, unknown>;
  /** Position of an id, or an error naming the file. */
  requireIndex(id: string): number;
  meta(id: string): EntryMeta | undefined;
}
