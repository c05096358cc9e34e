import { el } from "./dom";

export interface VirtualListOptions {
  rowHeight: number;
  /** Fills `node` for row `index` (reused elements: set everything every time). */
  renderRow(node: HTMLElement, index: number): void;
  /** Called after each render with the visible index range, inclusive. */
  onRange(first: number, last: number): void;
  onScroll?(scrollTop: number): void;
}

const MIN_THUMB = 24;

/**
 * A virtual scroll container that keeps its own scroll offset (a JS number) instead of
 * a tall spacer element, so it is not bound by the browser's maximum element height;
 * rows are a small pool of absolutely positioned elements, and the scrollbar is drawn
 * by us (the approach of vscode-hexeditor's virtual scroll container).
 */
export class VirtualList {
  readonly viewport: HTMLDivElement;
  private readonly layer: HTMLDivElement;
  private readonly track: HTMLDivElement;
  private readonly thumb: HTMLDivElement;
  private readonly pool: HTMLDivElement[] = [];
  private count = 0;
  private top = 0;
  private height = 0;
  private frame = 0;
  private drag?: { pointerId: number; startY: number; startTop: number };

  constructor(private readonly opts: VirtualListOptions) {
    this.layer = el("div", { className: "vlist-rows" });
    this.thumb = el("div", { className: "vlist-thumb" });
    this.track = el("div", { className: "vlist-track", attrs: { "aria-hidden": "true" } }, [this.thumb]);
    this.viewport = el("div", { className: "vlist" }, [this.layer, this.track]);
    this.viewport.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    this.track.addEventListener("pointerdown", (e) => this.onTrackDown(e));
    this.thumb.addEventListener("pointerdown", (e) => this.onThumbDown(e));
    this.thumb.addEventListener("pointermove", (e) => this.onThumbMove(e));
    this.thumb.addEventListener("pointerup", (e) => this.onThumbUp(e));
    this.thumb.addEventListener("pointercancel", (e) => this.onThumbUp(e));
    new ResizeObserver(() => this.measure()).observe(this.viewport);
  }

  get rowHeight(): number {
    return this.opts.rowHeight;
  }
  get rowCount(): number {
    return this.count;
  }
  get scrollTop(): number {
    return this.top;
  }
  get visibleRows(): number {
    return Math.max(1, Math.floor(this.height / this.opts.rowHeight));
  }
  private get maxTop(): number {
    return Math.max(0, this.count * this.opts.rowHeight - this.height);
  }

  setCount(count: number): void {
    this.count = count;
    this.setScrollTop(this.top);
    this.invalidate();
  }

  setScrollTop(px: number): void {
    const next = Math.min(this.maxTop, Math.max(0, Math.round(px)));
    if (next !== this.top) {
      this.top = next;
      this.opts.onScroll?.(next);
    }
    this.invalidate();
  }

  /** Scrolls the least needed to show row `index` (or centres it). */
  reveal(index: number, mode: "nearest" | "center" = "nearest"): void {
    const h = this.opts.rowHeight;
    const rowTop = index * h;
    if (mode === "center") this.setScrollTop(rowTop - (this.height - h) / 2);
    else if (rowTop < this.top) this.setScrollTop(rowTop);
    else if (rowTop + h > this.top + this.height) this.setScrollTop(rowTop + h - this.height);
  }

  /** Schedules a repaint on the next animation frame (coalesced). */
  invalidate(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Paints now (tests and first paint use this to avoid waiting a frame). */
  render(): void {
    const h = this.opts.rowHeight;
    const first = Math.floor(this.top / h);
    const want = this.count === 0 ? 0 : Math.min(this.count - first, Math.ceil(this.height / h) + 1);
    while (this.pool.length < want) {
      const node = el("div");
      this.pool.push(node);
      this.layer.appendChild(node);
    }
    while (this.pool.length > want) this.pool.pop()!.remove();
    const offset = first * h - this.top;
    for (let k = 0; k < want; k++) {
      const node = this.pool[k];
      node.style.transform = `translateY(${offset + k * h}px)`;
      this.opts.renderRow(node, first + k);
    }
    this.paintScrollbar();
    this.opts.onRange(first, first + Math.max(0, want - 1));
  }

  private measure(): void {
    const height = this.viewport.clientHeight;
    if (height === this.height) return;
    this.height = height;
    this.setScrollTop(this.top);
    this.invalidate();
  }

  private thumbGeometry(): { size: number; travel: number } {
    const total = this.count * this.opts.rowHeight;
    if (total <= this.height || this.height === 0) return { size: 0, travel: 0 };
    const size = Math.max(MIN_THUMB, (this.height * this.height) / total);
    return { size, travel: this.height - size };
  }

  private paintScrollbar(): void {
    const { size, travel } = this.thumbGeometry();
    this.track.classList.toggle("hidden", size === 0);
    if (size === 0) return;
    this.thumb.style.height = `${size}px`;
    this.thumb.style.transform = `translateY(${(this.top / this.maxTop) * travel}px)`;
  }

  private onWheel(e: WheelEvent): void {
    if (e.ctrlKey) return;
    e.preventDefault();
    const unit = e.deltaMode === 1 ? this.opts.rowHeight : e.deltaMode === 2 ? this.height : 1;
    this.setScrollTop(this.top + e.deltaY * unit);
  }

  private onTrackDown(e: PointerEvent): void {
    if (e.target !== this.track) return;
    const thumbTop = this.thumb.getBoundingClientRect().top;
    const page = Math.max(this.opts.rowHeight, this.height - this.opts.rowHeight);
    this.setScrollTop(this.top + (e.clientY < thumbTop ? -page : page));
  }

  private onThumbDown(e: PointerEvent): void {
    e.preventDefault();
    this.thumb.setPointerCapture(e.pointerId);
    this.drag = { pointerId: e.pointerId, startY: e.clientY, startTop: this.top };
    this.thumb.classList.add("active");
  }

  private onThumbMove(e: PointerEvent): void {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    const { travel } = this.thumbGeometry();
    if (travel <= 0) return;
    this.setScrollTop(this.drag.startTop + ((e.clientY - this.drag.startY) / travel) * this.maxTop);
  }

  private onThumbUp(e: PointerEvent): void {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    this.drag = undefined;
    this.thumb.classList.remove("active");
  }
}
