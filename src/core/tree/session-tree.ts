import type { EntryMeta, LineProblem } from "../store/entry-meta";
import type { EntryTable } from "../store/entry-table";

/**
 * The entry tree over an index: parents, children ordered by timestamp (oldest first,
 * file order on ties, as pi's /tree), roots, leaves, paths, labels and the session name.
 * Entries are addressed by their position in file order.
 */
export class SessionTree {
  readonly byId = new Map<string, number>();
  /** Parent position, or -1 for a root (null parent, self parent or unknown parent). */
  readonly parent: Int32Array;
  private childStart: Int32Array = new Int32Array(1);
  private childList: Int32Array = new Int32Array(0);
  readonly labels = new Map<string, string>();
  /** Position of the label entry that set each label in `labels` (a fork copies its timestamp). */
  readonly labelEntries = new Map<string, number>();
  readonly name: string | undefined;
  readonly problems: LineProblem[] = [];

  constructor(
    readonly metas: readonly EntryMeta[],
    /** The columns behind `metas`: read directly in the O(entries) passes below. */
    private readonly table?: EntryTable,
  ) {
    const n = metas.length;
    const ids: string[] = new Array(n);
    for (let i = 0; i < n; i++) ids[i] = table ? table.idAt(i) : metas[i].id;
    for (let i = 0; i < n; i++) {
      const prev = this.byId.get(ids[i]);
      if (prev !== undefined) {
        this.problems.push({
          kind: "duplicate-id",
          line: metas[i].line,
          message: `line ${metas[i].line}: id ${ids[i]} already used on line ${metas[prev].line}; the later entry wins, as in pi`,
        });
      }
      this.byId.set(ids[i], i);
    }
    this.parent = new Int32Array(n);
    let name: string | undefined;
    for (let i = 0; i < n; i++) {
      const parentId = table ? table.parentIdAt(i) : metas[i].parentId;
      let p = -1;
      if (parentId !== null && parentId !== ids[i]) {
        const pi = this.byId.get(parentId);
        if (pi === undefined) {
          const line = metas[i].line;
          this.problems.push({
            kind: "unknown-parent",
            line,
            message: `line ${line}: parent ${parentId} of ${ids[i]} is not in the file; its path starts here`,
          });
        } else p = pi;
      }
      this.parent[i] = p;
      // Formats mark label entries by a target (rare.targetId) and a session name by rare.name.
      const r = table ? table.rare.get(i) : metas[i];
      if (r?.targetId) {
        if (r.label) {
          this.labels.set(r.targetId, r.label);
          this.labelEntries.set(r.targetId, i);
        } else {
          this.labels.delete(r.targetId);
          this.labelEntries.delete(r.targetId);
        }
      } else if (r?.name) {
        name = r.name;
      }
    }
    this.name = name;
    this.detectCycles();
    [this.childStart, this.childList] = this.buildChildren();
  }

  get size(): number {
    return this.metas.length;
  }

  indexOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /**
   * The last entry: pi's rule, not the tree's. Every caller asks its format instead
   * (`SessionFormat.defaultLeaf`; pi's is src/core/formats/pi/default-leaf.ts).
   * @deprecated kept only for src/explorer/token-bars.ts until that pi-only file goes (issue 26).
   */
  get defaultLeaf(): number {
    return this.metas.length - 1;
  }

  children(i: number): Int32Array {
    return this.childList.subarray(this.childStart[i], this.childStart[i + 1]);
  }

  childCount(i: number): number {
    return this.childStart[i + 1] - this.childStart[i];
  }

  roots(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.metas.length; i++) if (this.parent[i] < 0) out.push(i);
    return out;
  }

  leaves(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.metas.length; i++) if (this.childCount(i) === 0) out.push(i);
    return out;
  }

  branchPoints(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.metas.length; i++) if (this.childCount(i) > 1) out.push(i);
    return out;
  }

  /** Positions root..i. Cycles were cut at load, so this always ends. */
  path(i: number): number[] {
    const out: number[] = [];
    for (let cur = i; cur >= 0; cur = this.parent[cur]) out.push(cur);
    return out.reverse();
  }

  /** Every position in the subtree under i (i included), depth first. */
  subtree(i: number): number[] {
    const out: number[] = [];
    const stack = [i];
    while (stack.length) {
      const cur = stack.pop() as number;
      out.push(cur);
      const kids = this.children(cur);
      for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    }
    return out;
  }

  /** Deepest common ancestor of a and b, or -1. */
  commonAncestor(a: number, b: number): number {
    const onA = new Set(this.path(a));
    for (let cur = b; cur >= 0; cur = this.parent[cur]) if (onA.has(cur)) return cur;
    return -1;
  }

  /** A parent chain that loops would make pi hang; we cut it and report it. */
  private detectCycles(): void {
    const n = this.metas.length;
    const state = new Uint8Array(n); // 0 new, 1 on current walk, 2 done
    for (let s = 0; s < n; s++) {
      if (state[s]) continue;
      const walk: number[] = [];
      let cur = s;
      while (cur >= 0 && state[cur] === 0) {
        state[cur] = 1;
        walk.push(cur);
        cur = this.parent[cur];
      }
      if (cur >= 0 && state[cur] === 1) {
        const m = this.metas[cur];
        this.problems.push({
          kind: "cycle",
          line: m.line,
          message: `line ${m.line}: parent chain of ${m.id} loops back on itself; treated as a root`,
        });
        this.parent[cur] = -1;
      }
      for (const w of walk) state[w] = 2;
    }
  }

  /** Children in CSR form, each list sorted by timestamp (file order on ties). */
  private buildChildren(): [Int32Array, Int32Array] {
    const n = this.metas.length;
    const start = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) if (this.parent[i] >= 0) start[this.parent[i] + 1]++;
    for (let i = 0; i < n; i++) start[i + 1] += start[i];
    const list = new Int32Array(start[n]);
    const fill = start.slice(0, n);
    for (let i = 0; i < n; i++) if (this.parent[i] >= 0) list[fill[this.parent[i]]++] = i;
    for (let p = 0; p < n; p++) {
      const a = start[p];
      const b = start[p + 1];
      if (b - a > 1) {
        const time = (i: number) => (this.table ? this.table.times[i] : this.metas[i].time);
        const kids = Array.from(list.subarray(a, b)).sort((x, y) => timeOrder(time(x), time(y)) || x - y);
        list.set(kids, a);
      }
    }
    return [start, list];
  }
}

function timeOrder(a: number, b: number): number {
  const ta = Number.isNaN(a) ? 0 : a;
  const tb = Number.isNaN(b) ? 0 : b;
  return ta - tb;
}
