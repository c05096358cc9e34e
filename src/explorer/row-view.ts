import { offers, whyNotOffered } from "../core/session/capabilities";
import type { SessionFormat } from "../core/session/session-format";
import type { SessionReader } from "../core/session/session-reader";
import type { EntryAction, Row, RowFilter, SessionInfoView } from "../protocol";
import { type TreeRow, treeRows } from "../core/formats/tree-rows";
import { loadedTitleFacts } from "../core/formats/title-facts";
import { clipField } from "../core/util/visible-text";
import { isLiveSession } from "./live-session";

/** What the rows ask of the sub-agents nested in them (subagent-rows.ts builds it). */
export interface RowNesting {
  /** The rows with each expanded call's sub-agent rows spliced in after it. */
  splice(session: SessionReader, rows: ShownRow[], filter: RowFilter): ShownRow[];
  /** The cue of a row that started sub-agents (undefined for any other). */
  cue(session: SessionReader, i: number): Row["subagents"];
}

type Boundary = "summarized" | "kept-start";

/** A row of the tree, or one of a sub-agent's rows nested under its call (built by the nesting, index -1). */
export type ShownRow = TreeRow & { nested?: Row };

/** Filters from the narrowest to the widest (reveal widens along it). */
const WIDER: readonly RowFilter[] = ["user", "default", "all"];

/**
 * The explorer's rows for one session: filter, folded branch points and the active
 * leaf, rebuilt in O(entries) when one of them changes, and served by page. Pure, so the
 * extension host and the webview tests (on real sessions) use the very same rows.
 */
export class RowView {
  filter: RowFilter = "default";
  readonly folded = new Set<string>();
  /** Leaf of the selected branch; undefined = the default leaf. */
  selectedLeaf: number | undefined;
  private rows: ShownRow[] = [];
  /** The sub-agents expanded under their calls (subagent-rows.ts); none: calls carry no cue. */
  nesting: RowNesting | undefined;
  private marks = new Map<number, Boundary>();
  /** Position of the row marked as the default leaf (-1: none shown). */
  private leafMark = -1;

  private format: SessionFormat;
  /** The session's cwd, read once: rows show paths inside it relative to it. */
  private cwd: string | undefined;

  /** `root`: the rows of that entry's subtree only (a sub-agent written inline, nested under its call). */
  constructor(
    private session: SessionReader,
    private readonly root?: number,
  ) {
    this.format = session.format;
    this.recompute();
  }

  setSession(session: SessionReader): void {
    if (session !== this.session) this.cwd = undefined;
    this.session = session;
    this.format = session.format;
    if (this.selectedLeaf !== undefined && this.selectedLeaf >= session.metas.length) this.selectedLeaf = undefined;
    this.recompute();
  }

  get rowCount(): number {
    return this.rows.length;
  }

  recompute(): void {
    const s = this.session;
    const folded = new Set<number>();
    for (const id of this.folded) {
      const i = s.tree.indexOf(id);
      if (i !== undefined) folded.add(i);
    }
    this.rows = treeRows(s, { filter: this.filter, folded, leaf: this.selectedLeaf, root: this.root });
    if (this.nesting) this.rows = this.nesting.splice(s, this.rows, this.filter);
    this.marks = this.boundaries();
    this.leafMark = this.shownLeaf();
  }

  /**
   * The row that carries the default leaf's marker: the leaf, or where the filter hides it
   * (pi appends a label entry at the leaf) its nearest shown ancestor, as pi's /tree does.
   */
  private shownLeaf(): number {
    const s = this.session;
    const leaf = this.format.defaultLeaf(s);
    if (leaf < 0) return -1;
    const shown = new Set(this.rows.map((r) => r.index));
    for (let i = leaf; i >= 0; i = s.tree.parent[i]) if (shown.has(i)) return i;
    return -1;
  }

  setFilter(filter: RowFilter): number {
    this.filter = filter;
    this.recompute();
    return this.rows.length;
  }

  toggleFold(id: string): number {
    this.session.requireIndex(id);
    if (this.folded.has(id)) this.folded.delete(id);
    else this.folded.add(id);
    this.recompute();
    return this.rows.length;
  }

  /**
   * Selecting an entry makes the newest leaf under it the active one, unless `keepLeaf`
   * (the branch a timeline chart shows) lies below it: then that leaf stays active.
   */
  select(id: string, keepLeaf?: number): { entry: number; leaf: number; rowIndex: number } {
    const s = this.session;
    const entry = s.requireIndex(id);
    let leaf = entry;
    if (keepLeaf !== undefined && s.tree.path(keepLeaf).includes(entry)) {
      leaf = keepLeaf;
    } else {
      while (s.tree.childCount(leaf) > 0) {
        const kids = s.tree.children(leaf);
        leaf = kids[kids.length - 1];
      }
    }
    this.selectedLeaf = leaf;
    this.recompute();
    return { entry, leaf, rowIndex: this.rows.findIndex((r) => r.index === entry) };
  }

  /**
   * Selects an entry as select() does and makes its row shown: folded branch points
   * above it are unfolded, and a filter that hides it is widened (user messages, then
   * conversation, then all) only as far as needed. Says what it changed.
   */
  reveal(id: string): { entry: number; rowIndex: number; unfolded: string[] } {
    const s = this.session;
    const entry = s.requireIndex(id);
    const unfolded: string[] = [];
    for (const i of s.tree.path(entry)) {
      const at = s.metas[i].id;
      if (i !== entry && this.folded.delete(at)) unfolded.push(at);
    }
    let { rowIndex } = this.select(id);
    for (let k = WIDER.indexOf(this.filter) + 1; rowIndex < 0 && k < WIDER.length; k++) {
      this.filter = WIDER[k];
      this.recompute();
      rowIndex = this.rows.findIndex((r) => r.index === entry);
    }
    return { entry, rowIndex, unfolded };
  }

  /** Row indexes whose preview or label contains the query, or whose id starts with it. */
  search(query: string): number[] {
    const q = query.toLowerCase();
    if (!q) return [];
    const s = this.session;
    const out: number[] = [];
    this.rows.forEach((r, k) => {
      if (r.nested) {
        if (r.nested.preview.toLowerCase().includes(q) || r.nested.typeLabel.toLowerCase().includes(q)) out.push(k);
        return;
      }
      const m = s.metas[r.index];
      // The row's text and the line's own (a response's row shortens its calls' list).
      if (this.rowText(r.index).toLowerCase().includes(q) || m.preview.toLowerCase().includes(q) || m.id.startsWith(q) || (s.tree.labels.get(m.id) ?? "").toLowerCase().includes(q)) out.push(k);
    });
    return out;
  }

  page(start: number, count: number): Row[] {
    return this.rows.slice(start, start + count).map((r) => r.nested ?? this.row(r));
  }

  /** Where the row with this id is (a nested sub-agent row's too), or -1. */
  indexOfId(id: string): number {
    return this.rows.findIndex((r) => (r.nested ? r.nested.id === id : this.session.metas[r.index].id === id));
  }

  /** On the active path, the entries the last compaction summarized and where its kept part starts. */
  private boundaries(): Map<number, Boundary> {
    const s = this.session;
    const out = new Map<number, Boundary>();
    const leaf = this.selectedLeaf ?? this.format.defaultLeaf(s);
    if (leaf < 0) return out;
    const path = s.tree.path(leaf);
    let c = -1;
    for (let k = path.length - 1; k >= 0 && c < 0; k--) if (this.format.describe(s, path[k]).kind === "boundary") c = k;
    if (c < 0) return out;
    const keep = s.metas[path[c]].firstKeptEntryId;
    // A compaction that names no first kept entry kept nothing before it (or re-wrote it after).
    if (keep === undefined) {
      for (let k = 0; k < c; k++) out.set(path[k], "summarized");
      return out;
    }
    let kept = false;
    for (let k = 0; k < c; k++) {
      const i = path[k];
      if (!kept && s.metas[i].id === keep) {
        kept = true;
        out.set(i, "kept-start");
      } else if (!kept) out.set(i, "summarized");
    }
    return out;
  }

  /**
   * What a row says: the format's row text or the index's preview, paths in tool calls
   * made relative to the session's cwd (pi and seed-000 index them as written: their cwd
   * is in the header or first line, which a line's hooks do not see).
   */
  private rowText(i: number, d = this.format.describe(this.session, i)): string {
    const s = this.session;
    const text = d.preview ?? s.metas[i].preview;
    if (!s.table.toolCalls[i]) return text;
    this.cwd ??= this.format.info(s).cwd.replace(/[\\/]+$/, "");
    return this.cwd.length > 1 ? text.split(`${this.cwd}/`).join("").split(`${this.cwd}\\`).join("") : text;
  }

  private row(r: TreeRow): Row {
    const s = this.session;
    const m = s.metas[r.index];
    const d = this.format.describe(s, r.index);
    const row: Row = {
      id: m.id,
      prefix: r.prefix,
      depth: r.depth,
      kind: d.kind,
      // Clipped here, with the length shown: a session's megabyte label is not sent with every page of rows.
      typeLabel: clipField(d.label),
      ...(d.typeName && d.typeName !== d.label ? { typeName: clipField(d.typeName) } : {}),
      ...(d.isError ? { isError: true } : {}),
      preview: this.rowText(r.index, d),
      tokens: m.estimate,
      label: rowLabel(s.tree.labels.get(m.id)),
      onActivePath: r.onActivePath,
      isActiveLeaf: r.isActiveLeaf,
      isDefaultLeaf: r.index === this.leafMark,
      childCount: s.tree.childCount(r.index),
      folded: this.folded.has(m.id),
    };
    const parentId = s.table.parentIdAt(r.index);
    if (parentId !== null && s.tree.parent[r.index] < 0) row.brokenParent = parentId;
    if (d.kind === "boundary") row.compaction = { tokensBefore: m.tokensBefore ?? 0, firstKeptEntryId: m.firstKeptEntryId };
    const b = this.marks.get(r.index);
    if (b) row.boundary = b;
    const subagents = this.nesting?.cue(s, r.index);
    if (subagents) row.subagents = subagents;
    return row;
  }
}

function rowLabel(label: string | undefined): string | undefined {
  return label === undefined ? undefined : clipField(label);
}

/** Actions that write to the session file itself (a fork writes a new file). */
const WRITES_FILE = ["continue", "label", "compact"] as const;

/** Why each action is not offered on this session (the format cannot, the file is too old, the workspace is untrusted). */
export function unavailableActions(s: SessionReader, trusted: boolean): Partial<Record<EntryAction, string>> {
  const f = s.format;
  const out: Partial<Record<EntryAction, string>> = {};
  if (!offers(f, "fork")) out.fork = whyNotOffered(f, "fork");
  const refused = f.writer?.refuses?.(s);
  for (const a of WRITES_FILE) {
    if (!offers(f, a)) out[a] = whyNotOffered(f, a);
    else if (refused) out[a] = refused;
    else if (!trusted) out[a] = "the workspace is not trusted (Restricted Mode): nothing is written";
  }
  return out;
}

/**
 * The session header the panel shows. Its name is the one the panel's tab and the
 * Sessions view show: the agent's own name for it, else the title it is listed under
 * (Codex's session_index.jsonl), else its first prompt; the file name only when none.
 */
export function sessionInfoView(s: SessionReader, trusted: boolean, listedTitle?: string): SessionInfoView {
  const f = s.format;
  const info = f.info(s);
  const unavailable = unavailableActions(s, trusted);
  const leaf = f.defaultLeaf(s);
  return {
    path: s.path,
    agent: f.agent,
    format: f.id,
    name: info.name ?? s.tree.name ?? listedTitle ?? loadedTitleFacts(s).firstMessage,
    cwd: info.cwd,
    ...(info.version !== undefined ? { version: info.version } : {}),
    entryCount: s.metas.length,
    defaultLeafId: leaf >= 0 ? s.metas[leaf].id : null,
    problems: s.problems.map((p) => p.message),
    readOnly: WRITES_FILE.every((a) => unavailable[a] !== undefined),
    unavailable,
    ...(s.complete || !isLiveSession(s) ? {} : { reading: { bytesRead: s.size, totalBytes: s.stamp.size } }),
  };
}
