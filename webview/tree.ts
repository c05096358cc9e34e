import type { Row } from "../src/protocol";
import { RowCache } from "./row-cache";
import { isFoldable, paintRow } from "./row-view";
import type { RpcClient } from "./rpc";
import { VirtualList } from "./virtual-list";

export const ROW_HEIGHT = 22;
/** Rows fetched beyond the visible ones, above and below. */
const MARGIN = 40;

export interface TreeCallbacks {
  /** Selection moved (keyboard or mouse); the row is loaded. */
  onSelect(row: Row, index: number): void;
  /** Enter or click: show the entry's details now (a keyboard move shows them after a pause). */
  onOpen(row: Row, index: number): void;
  /** A branch point was folded or unfolded; the rows changed shape. */
  onFolded(id: string, folded: boolean): void;
  onScroll(scrollTop: number): void;
  onError(err: unknown): void;
}

/**
 * The entry tree: a virtual list over a paged row cache, with selection, folding,
 * search highlights and the keyboard model of a WAI-ARIA tree (aria-activedescendant).
 */
export class EntryTree {
  readonly list: VirtualList;
  readonly cache: RowCache;
  selected = -1;
  private matchSet = new Set<number>();
  private currentMatch = -1;
  private query = "";

  constructor(
    private readonly rpc: RpcClient,
    private readonly cb: TreeCallbacks,
  ) {
    this.cache = new RowCache(
      (start, count) => rpc.request<"rows">({ type: "rows", start, count }),
      () => this.list.invalidate(),
      (err) => cb.onError(err),
    );
    this.list = new VirtualList({
      rowHeight: ROW_HEIGHT,
      renderRow: (node, i) =>
        paintRow(node, i, this.cache.get(i), {
          selected: i === this.selected,
          match: this.matchSet.has(i),
          currentMatch: i === this.currentMatch,
          setSize: this.cache.rowCount,
          query: this.query,
          summaryStart: this.cache.get(i - 1)?.boundary !== "summarized",
        }),
      onRange: (first, last) => this.onRange(first, last),
      onScroll: (top) => cb.onScroll(top),
    });
    const vp = this.list.viewport;
    vp.setAttribute("role", "tree");
    vp.setAttribute("aria-label", "Session entries");
    vp.tabIndex = 0;
    vp.addEventListener("keydown", (e) => this.onKey(e));
    vp.addEventListener("click", (e) => this.onClick(e));
  }

  get element(): HTMLElement {
    return this.list.viewport;
  }

  /** The view has a new shape (init, filter, fold, append): drop cached rows. */
  setRowCount(count: number): void {
    this.cache.reset(count);
    this.list.setCount(count);
    if (this.selected >= count) this.selected = count - 1;
  }

  /** Rows matching `query` (the term is marked in their text); `current` is the one gone to. */
  setMatches(matches: number[], current: number, query: string): void {
    this.matchSet = new Set(matches);
    this.currentMatch = current;
    this.query = query;
    this.list.invalidate();
  }

  /** Moves the selection to row `index`, scrolls it into view and reports it once loaded. */
  async select(index: number, opts: { open?: boolean; center?: boolean; silent?: boolean } = {}): Promise<void> {
    const count = this.cache.rowCount;
    if (count === 0) return;
    const i = Math.min(count - 1, Math.max(0, index));
    this.selected = i;
    this.list.reveal(i, opts.center ? "center" : "nearest");
    this.list.invalidate();
    await this.cache.ensure(i, i);
    const row = this.cache.get(i);
    if (!row || this.selected !== i || opts.silent) return;
    this.cb.onSelect(row, i);
    if (opts.open) this.cb.onOpen(row, i);
  }

  selectedRow(): Row | undefined {
    return this.selected >= 0 ? this.cache.get(this.selected) : undefined;
  }

  async toggleFold(row: Row): Promise<void> {
    try {
      const { rowCount } = await this.rpc.request<"toggleFold">({ type: "toggleFold", id: row.id });
      this.setRowCount(rowCount);
      this.cb.onFolded(row.id, !row.folded);
    } catch (err) {
      this.cb.onError(err);
    }
  }

  /** Shows or hides the rows of the sub-agents a call started (the host reads them on first show). */
  async toggleSubagents(row: Row): Promise<void> {
    if (!row.subagents) return;
    try {
      const { rowCount } = await this.rpc.request<"expandSubagent">({ type: "expandSubagent", id: row.id, expand: !row.subagents.expanded });
      this.setRowCount(rowCount);
    } catch (err) {
      this.cb.onError(err);
    }
  }

  /** The row of the call a nested sub-agent row hangs under (the nearest row above that is not nested). */
  private callAbove(index: number): number {
    let k = index;
    while (k > 0 && this.cache.get(k)?.nested) k--;
    return k;
  }

  private onRange(first: number, last: number): void {
    const vp = this.list.viewport;
    if (this.selected >= first && this.selected <= last) vp.setAttribute("aria-activedescendant", `row-${this.selected}`);
    else vp.removeAttribute("aria-activedescendant");
    void this.cache.ensure(Math.max(0, first - MARGIN), last + MARGIN);
  }

  private onClick(e: MouseEvent): void {
    const target = e.target as HTMLElement;
    const node = target.closest<HTMLElement>(".row");
    if (!node || node.dataset.index === undefined) return;
    const index = Number(node.dataset.index);
    const row = this.cache.get(index);
    this.list.viewport.focus();
    if (row && target.dataset.action === "subagent") {
      this.selected = index;
      void this.toggleSubagents(row);
      return;
    }
    if (row && target.dataset.action === "fold") {
      this.selected = index;
      void this.toggleFold(row);
      return;
    }
    void this.select(index, { open: true });
  }

  private onKey(e: KeyboardEvent): void {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const page = Math.max(1, this.list.visibleRows - 1);
    const cur = this.selected < 0 ? -1 : this.selected;
    const row = this.selectedRow();
    let handled = true;
    switch (e.key) {
      case "ArrowDown":
        void this.select(cur + 1);
        break;
      case "ArrowUp":
        void this.select(Math.max(0, cur - 1));
        break;
      case "PageDown":
        void this.select(cur + page);
        break;
      case "PageUp":
        void this.select(Math.max(0, cur - page));
        break;
      case "Home":
        void this.select(0);
        break;
      case "End":
        void this.select(this.cache.rowCount - 1);
        break;
      case "Enter":
      case " ":
        if (row) this.cb.onOpen(row, this.selected);
        break;
      case "ArrowLeft":
        if (row?.subagents?.expanded) void this.toggleSubagents(row);
        else if (row?.nested) void this.select(this.callAbove(this.selected));
        else if (row && isFoldable(row) && !row.folded) void this.toggleFold(row);
        break;
      case "ArrowRight":
        if (row?.subagents && !row.subagents.expanded) void this.toggleSubagents(row);
        else if (row && row.folded) void this.toggleFold(row);
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }
}
