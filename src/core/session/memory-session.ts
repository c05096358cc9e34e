import type { LineProblem, EntryMeta } from "../store/entry-meta";
import { EntryTable } from "../store/entry-table";
import { SessionTree } from "../tree/session-tree";
import { formatById } from "./format-table";
import type { IndexHooks } from "../store/index-hooks";
import type { SessionFormat } from "./session-format";
import type { SessionReader } from "./session-reader";

/**
 * A session held as an array of records, indexed by the same hooks as a file: rule tests
 * build sessions this way (as pi's own tests do) instead of writing temp files. Record k
 * reads as line k + 1 + `firstLine`.
 */
export class MemorySession implements SessionReader {
  readonly table = new EntryTable();
  readonly metas: readonly EntryMeta[] = this.table.asArray();
  readonly tree: SessionTree;
  private readonly lineProblems: LineProblem[] = [];
  private readonly records: Array<Record<string, unknown>> = [];
  readonly complete = true;

  constructor(
    readonly formatId: string,
    hooks: IndexHooks,
    records: ReadonlyArray<Record<string, unknown>>,
    readonly path = `(memory)/${formatId}.jsonl`,
    /** Lines before the first record (a header line the records do not hold). */
    firstLine = 0,
    /** The file version the records are read as (pi: its header's; 0 for formats without one). */
    readonly version = 0,
    /** The file line each record came from, where records are not lines (a replayed file). */
    lineOf?: (record: Record<string, unknown>, k: number) => number,
    /** Problems found before the records (lines a replay skipped). */
    problems: readonly LineProblem[] = [],
  ) {
    this.lineProblems.push(...problems);
    records.forEach((r, k) => {
      const lineNo = lineOf ? lineOf(r, k) : firstLine + k + 1;
      const got = hooks.identify(r, lineNo, { version, prevId: this.table.count ? this.table.idAt(this.table.count - 1) : null });
      if (got === null) return;
      if (typeof got === "string") {
        this.lineProblems.push({ kind: "bad-field", line: lineNo, message: `line ${lineNo}: ${got}` });
        return;
      }
      const i = this.table.push(got.id, got.parentId, got.type, got.time, lineNo, 0, 0, got.preview, got.estimate);
      hooks.fill(this.table, i, r);
      this.records.push(r);
    });
    this.tree = new SessionTree(this.metas, this.table);
  }

  private formatFound: SessionFormat | undefined;

  /** The format it is read as, looked up once by its id. */
  get format(): SessionFormat {
    this.formatFound ??= formatById(this.formatId);
    return this.formatFound;
  }

  get problems(): LineProblem[] {
    return [...this.lineProblems, ...this.tree.problems].sort((a, b) => a.line - b.line);
  }

  get problemCount(): number {
    return this.lineProblems.length + this.tree.problems.length;
  }

  entryAt(i: number): Record<string, unknown> {
    const r = this.records[i];
    if (!r) throw new Error(`${this.path}: no entry at position ${i}`);
    return r;
  }

  requireIndex(id: string): number {
    const i = this.tree.indexOf(id);
    if (i === undefined) throw new Error(`${this.path}: no entry with id ${id}`);
    return i;
  }

  meta(id: string): EntryMeta | undefined {
    const i = this.tree.indexOf(id);
    return i === undefined ? undefined : this.metas[i];
  }
}
