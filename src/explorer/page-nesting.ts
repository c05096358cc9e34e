import type { PageIndex, PageSubagents } from "../core/export/html-data";
import type { SessionReader } from "../core/session/session-reader";
import type { RowNesting, ShownRow } from "./row-view";
import type { Row, RowFilter } from "../protocol";

/**
 * The sub-agents of an exported page nested under the calls that started them, as the
 * explorer's SubagentNesting does in the panel: a call's row carries the cue and, expanded,
 * the rows the export wrote for it (built for a call at depth 0: indented here under the
 * call where it is drawn). A call's data is parsed on its first expand.
 */
export class StaticNesting implements RowNesting {
  /** Call position -> which PageIndex.subagentCalls element it is. */
  private readonly calls = new Map<number, number>();
  private readonly open = new Set<number>();
  private readonly loaded = new Map<number, PageSubagents>();
  /** Nested row id -> the call position it hangs under (the rows shown now). */
  private places = new Map<string, number>();

  constructor(
    private readonly idx: PageIndex,
    /** The k-th call's data (its script parsed), or undefined while the page still parses it. */
    private readonly load: (k: number) => PageSubagents | undefined,
  ) {
    (idx.subagentCalls ?? []).forEach(([position], k) => this.calls.set(position, k));
  }

  cue(_session: SessionReader, i: number): Row["subagents"] {
    const k = this.calls.get(i);
    if (k === undefined) return undefined;
    return { expanded: this.open.has(i), agents: this.loaded.get(k)?.agents ?? this.idx.subagentCalls[k][1] };
  }

  /** Whether position i started sub-agents. */
  has(i: number): boolean {
    return this.calls.has(i);
  }

  /** Shows or hides the sub-agents of the call at position i; false while its data is not parsed yet. */
  expand(i: number, expand: boolean): boolean {
    if (!expand) {
      this.open.delete(i);
      return true;
    }
    const k = this.calls.get(i);
    if (k === undefined) throw new Error(`entry ${i} started no sub-agent`);
    if (!this.loaded.has(k)) {
      const data = this.load(k);
      if (!data) return false;
      this.loaded.set(k, data);
    }
    this.open.add(i);
    return true;
  }

  splice(_session: SessionReader, rows: ShownRow[], filter: RowFilter): ShownRow[] {
    this.places = new Map();
    if (!this.open.size) return rows;
    const out: ShownRow[] = [];
    for (const r of rows) {
      out.push(r);
      const k = r.index >= 0 && this.open.has(r.index) ? this.calls.get(r.index) : undefined;
      const data = k === undefined ? undefined : this.loaded.get(k);
      if (!data) continue;
      for (const row of data.rows[filter] ?? []) {
        this.places.set(row.id, r.index);
        const nested: Row = { ...row, depth: row.depth + r.depth, ...(row.nested ? { nested: { ...row.nested, indent: row.nested.indent + r.depth } } : {}) };
        out.push({ index: -1, prefix: nested.prefix, depth: nested.depth, onActivePath: false, isLeaf: true, isActiveLeaf: false, nested });
      }
    }
    return out;
  }

  /** The call a nested row hangs under (its position), or undefined for any other id. */
  callOf(id: string): number | undefined {
    return this.places.get(id);
  }

  /** A nested row's details, or undefined for any other id. */
  details(id: string): PageSubagents["details"][string] | undefined {
    const call = this.places.get(id);
    const k = call === undefined ? undefined : this.calls.get(call);
    return k === undefined ? undefined : this.loaded.get(k)?.details[id];
  }
}
