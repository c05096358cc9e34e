import type { Session } from "../store/session";

/** One display row of the entry tree, as pi's /tree draws it. */
export interface TreeRow {
  index: number;
  /** Box-drawing prefix (│ and spaces) plus the connector for branch children. */
  prefix: string;
  onActivePath: boolean;
  isLeaf: boolean;
  isActiveLeaf: boolean;
}

/** Entry types hidden unless --all: they carry no conversation. */
const QUIET = new Set(["label", "custom", "model_change", "thinking_level_change", "session_info"]);

/** Which entries show: user messages only, the conversation (pi's default), or all. */
export type RowFilter = "user" | "default" | "all";

export interface TreeRowOptions {
  /** Shorthand for filter "all". */
  all?: boolean;
  filter?: RowFilter;
  leaf?: number;
  /** Positions whose descendants are hidden (folded branch segments). */
  folded?: ReadonlySet<number>;
}

/**
 * Rows in display order. Depth grows only at branch points (a chain stays in one
 * column); hidden entries are skipped and their children move up to the nearest shown
 * ancestor.
 */
export function treeRows(session: Session, opts: TreeRowOptions = {}): TreeRow[] {
  const tree = session.tree;
  const metas = session.metas;
  const filter: RowFilter = opts.all ? "all" : (opts.filter ?? "default");
  const t = session.table;
  const shown = (i: number) => (filter === "all" ? true : filter === "user" ? t.typeAt(i) === "message" && t.roleAt(i) === "user" : !QUIET.has(t.typeAt(i)));
  const folded = opts.folded;
  const activeLeaf = opts.leaf ?? tree.defaultLeaf;
  const active = new Set(activeLeaf >= 0 ? tree.path(activeLeaf) : []);

  // Shown children of i: real children, with hidden ones replaced by their own.
  const shownChildren = (i: number): number[] => {
    const out: number[] = [];
    const stack = Array.from(tree.children(i)).reverse();
    while (stack.length) {
      const c = stack.pop() as number;
      if (shown(c)) out.push(c);
      else stack.push(...Array.from(tree.children(c)).reverse());
    }
    return out;
  };
  const roots: number[] = [];
  for (const r of tree.roots()) {
    if (shown(r)) roots.push(r);
    else roots.push(...shownChildren(r));
  }

  const rows: TreeRow[] = [];
  type Frame = { i: number; prefix: string; connector: string };
  const stack: Frame[] = [];
  const pushKids = (kids: number[], prefix: string, branch: boolean, below: string) => {
    for (let k = kids.length - 1; k >= 0; k--) {
      const last = k === kids.length - 1;
      if (branch) stack.push({ i: kids[k], prefix: below + (last ? "   " : "│  "), connector: below + (last ? "└─ " : "├─ ") });
      else stack.push({ i: kids[k], prefix, connector: prefix });
    }
  };
  pushKids(roots, "", roots.length > 1, "");
  while (stack.length) {
    const f = stack.pop() as Frame;
    const kids = folded?.has(f.i) ? [] : shownChildren(f.i);
    rows.push({
      index: f.i,
      prefix: f.connector,
      onActivePath: active.has(f.i),
      isLeaf: tree.childCount(f.i) === 0,
      isActiveLeaf: f.i === activeLeaf,
    });
    pushKids(kids, f.prefix, kids.length > 1, f.prefix);
  }
  return rows;
}
