import type { SessionReader } from "../session/session-reader";
import { pushAll } from "../util/push-all";

/** One display row of the entry tree, as pi's /tree draws it. */
export interface TreeRow {
  index: number;
  /**
   * Box-drawing prefix (│ and spaces) plus the connector for branch children, 3 columns
   * a level. Past MAX_DRAWN_LEVELS only the innermost levels are drawn, after a "⋯"
   * column: a session with thousands of nested branches would otherwise give rows
   * tens of thousands of columns wide.
   */
  prefix: string;
  /** Levels of nesting (branch points above the row), drawn or not. */
  depth: number;
  onActivePath: boolean;
  isLeaf: boolean;
  isActiveLeaf: boolean;
}

/** Levels of the tree prefix drawn in full (3 columns each); deeper rows show the innermost. */
export const MAX_DRAWN_LEVELS = 16;

/** Innermost levels kept of a deeper prefix, after the "⋯" column. */
const KEPT = (MAX_DRAWN_LEVELS - 1) * 3;

function drawn(prefix: string, depth: number): string {
  return depth > MAX_DRAWN_LEVELS ? `⋯  ${prefix.slice(prefix.length - KEPT)}` : prefix;
}

/** Which entries show: user messages only, the conversation (pi's default), or all. */
export type RowFilter = "user" | "default" | "all";

export interface TreeRowOptions {
  /** Shorthand for filter "all". */
  all?: boolean;
  filter?: RowFilter;
  leaf?: number;
  /** Positions whose descendants are hidden (folded branch segments). */
  folded?: ReadonlySet<number>;
  /**
   * Only the rows of this entry and its descendants: a sub-agent written inline, nested
   * under its call, shown by what its own rows would show (subagentVisibility).
   */
  root?: number;
  /**
   * Sub-agents written inline shown as the first children of the calls that started them
   * (a text tree shows everything at once); without it they are left out, for a view that
   * nests them on demand (the explorer).
   */
  nestInline?: boolean;
}

/**
 * Rows in display order. Depth grows only at branch points (a chain stays in one
 * column); hidden entries are skipped and their children move up to the nearest shown
 * ancestor.
 */
export function treeRows(session: SessionReader, opts: TreeRowOptions = {}): TreeRow[] {
  const tree = session.tree;
  const filter: RowFilter = opts.all ? "all" : (opts.filter ?? "default");
  const format = session.format;
  // The format says which filter shows an entry ("user" rows show under every filter).
  const inside = opts.root !== undefined;
  const shown = (i: number) => {
    if (filter === "all") return true;
    const d = format.describe(session, i);
    const v = (inside ? d.subagentVisibility : undefined) ?? d.visibility;
    return filter === "user" ? v === "user" : v !== "all";
  };
  const folded = opts.folded;
  const activeLeaf = opts.leaf ?? format.defaultLeaf(session);
  const active = new Set(activeLeaf >= 0 ? tree.path(activeLeaf) : []);

  // Shown children of i: real children, with hidden ones replaced by their own.
  const shownChildren = (i: number): number[] => {
    const out: number[] = [];
    const stack: number[] = [];
    const pushReversed = (kids: Iterable<number>) => {
      const a = Array.from(kids);
      for (let k = a.length - 1; k >= 0; k--) stack.push(a[k]);
    };
    const inline = byCall.get(i);
    pushReversed(inline ? [...inline, ...tree.children(i)] : tree.children(i));
    while (stack.length) {
      const c = stack.pop() as number;
      if (shown(c)) out.push(c);
      else pushReversed(tree.children(c));
    }
    return out;
  };
  const roots: number[] = [];
  // A sub-agent written inline is no root of its own: it shows nested under the call that started it.
  const nested = inside ? undefined : format.subagents?.inlineRoots(session);
  const byCall = new Map<number, number[]>();
  if (opts.nestInline) for (const [root, call] of nested ?? []) byCall.set(call, [...(byCall.get(call) ?? []), root]);
  for (const r of inside ? [opts.root as number] : tree.roots()) {
    if (nested?.has(r)) continue;
    if (shown(r)) roots.push(r);
    else pushAll(roots, shownChildren(r));
  }

  const rows: TreeRow[] = [];
  // Prefixes are kept to their innermost levels as they grow: what is cut is never drawn.
  type Frame = { i: number; prefix: string; connector: string; depth: number };
  const stack: Frame[] = [];
  const clip = (p: string) => (p.length > KEPT + 3 ? p.slice(p.length - KEPT - 3) : p);
  const pushKids = (kids: number[], prefix: string, depth: number, branch: boolean) => {
    for (let k = kids.length - 1; k >= 0; k--) {
      const last = k === kids.length - 1;
      if (branch) stack.push({ i: kids[k], prefix: clip(prefix + (last ? "   " : "│  ")), connector: clip(prefix + (last ? "└─ " : "├─ ")), depth: depth + 1 });
      else stack.push({ i: kids[k], prefix, connector: prefix, depth });
    }
  };
  pushKids(roots, "", 0, roots.length > 1);
  while (stack.length) {
    const f = stack.pop() as Frame;
    const kids = folded?.has(f.i) ? [] : shownChildren(f.i);
    rows.push({
      index: f.i,
      prefix: drawn(f.connector, f.depth),
      depth: f.depth,
      onActivePath: active.has(f.i),
      isLeaf: tree.childCount(f.i) === 0,
      isActiveLeaf: f.i === activeLeaf,
    });
    pushKids(kids, f.prefix, f.depth, kids.length > 1);
  }
  return rows;
}
