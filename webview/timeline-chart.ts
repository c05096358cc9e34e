/**
 * The context size at every assistant step of a branch, drawn as hand-made SVG: no chart
 * library (the webview's CSP forbids inline styles a library would set, and its bundle
 * stays small). Every node is made with createElementNS and every session string goes in
 * through textContent, so an entry id or model name is shown, never parsed.
 *
 * Two views of the same steps: Total (the size line) and Composition (what the context
 * held, stacked, under that line). A long branch is narrowed with a drag on the chart or
 * its overview strip, the wheel, + and - (0 and "Reset zoom" show all again).
 */
import type { ContextTimeline } from "../src/protocol";
import { areaPaths, type AreaVertex, compositionLegend, hatchPatterns, kindsIn, thinRun } from "./chart-areas";
import { brush, overviewStrip, svgNode as svg } from "./chart-overview";
import { clampRange, fullRange, isFull, MIN_SPAN, pan, reveal, type SlotRange, ZOOM_STEP, zoomAround } from "./chart-range";
import { drawLine, label, legend, title, type Mark, markedSlots, markIndex, markNode, MAX_MARKS } from "./chart-marks";
import { clear, custom, el, formatInt, formatTokens, oneLine } from "./dom";

export { markedSlots, MAX_MARKS };

/**
 * The chart is drawn in CSS pixels at the width it is shown at (re-drawn when that
 * changes), so its 11 px text stays 11 px: a fixed viewBox scaled to a split editor's
 * narrow pane made it about 4 px.
 */
const MIN_WIDTH = 200;
const DEFAULT_WIDTH = 320;
const HEIGHT = 180;
const PAD = { left: 44, right: 8, top: 14, bottom: 26 };
/** The labels' size (media/explorer.css .timeline-label), for placing them clear of their lines. */
const LABEL_PX = 11;
const RESIZE_SETTLE_MS = 100;
/** Below this share of its auto-compaction threshold a branch is drawn to its own height. */
const ZOOM_BELOW = 0.3;

export type ChartMode = "total" | "composition";

/** The slots of a timeline: its steps and compactions in path order. */
function slotsOf(t: ContextTimeline): Mark[] {
  const marks: Mark[] = [...t.points.map((p, k): Mark => ({ kind: "point", step: k + 1, p })), ...t.compactions.map((c): Mark => ({ kind: "drop", c }))];
  return marks.sort((a, b) => markIndex(a) - markIndex(b));
}

/**
 * The chart of one branch. Steps and compaction markers are focusable in path order
 * with one tab stop (roving tabindex): arrows, Home and End move, Enter or Space and a
 * click pick the entry; + - 0 zoom.
 */
export class TimelineChart {
  readonly element = el("section", { className: "timeline", attrs: { "aria-label": "Context size per step of the selected branch" } });
  private marks: Array<{ mark: Mark; node: SVGElement; slot: number }> = [];
  private current = 0;
  /** The timeline drawn, its slots, the span of them shown, and the width it was drawn at. */
  private shown: ContextTimeline | undefined;
  private slots: Mark[] = [];
  private range: SlotRange = { from: 0, to: 0 };
  private drawnWidth = 0;
  private mode: ChartMode = "total";
  /** The slot of the entry selected in the tree (or picked here), marked with a cursor. */
  private selectedSlot: number | undefined;
  private frame = 0;
  /** Marks a slot as the selected step on the chart drawn (set by each drawing). */
  private markSelected: (slot: number | undefined) => void = (slot) => {
    this.selectedSlot = slot;
  };
  /** A position asked for before the chart was drawn. */
  private pending: number | undefined;

  constructor(private readonly onPick: (entryId: string) => void) {
    // Redrawn once a resize settles: dragging the divider would redraw a 20,000-step line every frame.
    let timer = 0;
    new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (this.shown && this.element.clientWidth > 0 && Math.abs(this.width() - this.drawnWidth) > 2) this.draw();
      }, RESIZE_SETTLE_MS);
    }).observe(this.element);
    this.element.addEventListener("keydown", (e) => this.zoomKey(e));
  }

  /** The plot's width in CSS pixels: the section's, less its padding. */
  private width(): number {
    const cs = getComputedStyle(this.element);
    const inner = this.element.clientWidth - parseFloat(cs.paddingLeft || "0") - parseFloat(cs.paddingRight || "0");
    return inner > 0 ? Math.max(MIN_WIDTH, Math.floor(inner)) : DEFAULT_WIDTH;
  }

  /** Shown while nothing is drawn yet (or the host failed). */
  message(text: string): void {
    this.shown = undefined;
    clear(this.element);
    this.marks = [];
    this.element.appendChild(el("div", { className: "empty", text }));
  }

  /** Draws a timeline; the same branch again (a live update) keeps its zoom and cursor. */
  render(t: ContextTimeline): void {
    const same = this.shown !== undefined && this.shown.leafId === t.leafId;
    if (!t.points.length) {
      this.message("No assistant steps on this branch.");
      return;
    }
    const wasFull = isFull(this.range, this.slots.length);
    this.shown = t;
    this.slots = slotsOf(t);
    this.range = same && !wasFull ? clampRange(this.range, this.slots.length) : fullRange(this.slots.length);
    if (!same) this.selectedSlot = undefined;
    this.draw();
    const pending = this.pending;
    this.pending = undefined;
    if (pending !== undefined) this.showPosition(pending);
  }

  /** The span shown, as slots (tests, and the caption). */
  get shownRange(): SlotRange {
    return { ...this.range };
  }

  /** Shows the step an entry at path position `position` belongs to (the first step at or after it): moved into view, marked. */
  showPosition(position: number): void {
    if (!this.shown) {
      // The chart is still being computed: shown once it is drawn.
      this.pending = position;
      return;
    }
    if (position < 0) return;
    let slot = this.slots.findIndex((m) => markIndex(m) >= position);
    if (slot < 0) slot = this.slots.length - 1;
    this.selectedSlot = slot;
    this.range = reveal(this.range, this.slots.length, slot);
    this.draw();
    const k = this.marks.findIndex((m) => m.slot === slot);
    if (k >= 0) this.setCurrent(k);
  }

  setMode(mode: ChartMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    if (this.shown) this.draw();
  }

  /** Narrows (factor < 1) or widens the span around a slot; 0 for all. */
  zoom(factor: number, at?: number): void {
    if (!this.shown) return;
    this.range = factor === 0 ? fullRange(this.slots.length) : zoomAround(this.range, this.slots.length, factor, at);
    this.draw();
  }

  private setRange(r: SlotRange): void {
    this.range = clampRange(r, this.slots.length);
    this.draw();
  }

  /** Draws the shown timeline at the span and mode chosen, keeping the keyboard's place. */
  private draw(): void {
    const t = this.shown;
    if (!t) return;
    const focusedSlot = this.marks.find((m) => m.node === document.activeElement)?.slot;
    clear(this.element);
    this.marks = [];
    this.current = 0;
    const WIDTH = this.width();
    this.drawnWidth = WIDTH;
    const { from, to } = this.range;
    const full = isFull(this.range, this.slots.length);
    const marks = this.slots.slice(from, to + 1);
    const points = marks.filter((m): m is Extract<Mark, { kind: "point" }> => m.kind === "point").map((m) => m.p);
    const drops = marks.filter((m): m is Extract<Mark, { kind: "drop" }> => m.kind === "drop").map((m) => m.c);
    const peak = Math.max(1, ...points.map((p) => p.tokens), ...drops.map((c) => Math.max(c.before, c.after)));
    // A context far below its limits is drawn to its own height (else it is a flat line at 0); the limits are named above it.
    const zoomed = peak < ZOOM_BELOW * Math.max(1, t.threshold);
    const top = (zoomed ? peak * 1.25 : Math.max(peak, t.window)) * 1.05;
    const plotW = WIDTH - PAD.left - PAD.right;
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const xAt = (slot: number) => PAD.left + (marks.length > 1 ? ((slot - from) / (marks.length - 1)) * plotW : plotW / 2);
    const yAt = (v: number) => PAD.top + plotH - (Math.max(0, v) / top) * plotH;
    const stepOf = (m: Mark | undefined) => (m?.kind === "point" ? m.step : undefined);
    const firstStep = stepOf(marks.find((m) => m.kind === "point")) ?? 1;
    const lastStep = stepOf([...marks].reverse().find((m) => m.kind === "point")) ?? t.points.length;
    const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, class: `timeline-svg mode-${this.mode}`, role: "group", "aria-label": `Context size at ${full ? t.points.length : `steps ${firstStep} to ${lastStep} of ${t.points.length}`} steps${t.model ? ` of ${oneLine(t.model, 100)}` : ""}; window ${formatInt(t.window)}, auto-compaction at ${formatInt(t.threshold)}` });

    // Axes, the window and the threshold.
    root.appendChild(svg("line", { class: "timeline-axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: PAD.top + plotH }));
    root.appendChild(svg("line", { class: "timeline-axis", x1: PAD.left, y1: PAD.top + plotH, x2: PAD.left + plotW, y2: PAD.top + plotH }));
    root.appendChild(label(PAD.left - 3, PAD.top + plotH + 4, "0", "timeline-label", "end"));
    root.appendChild(label(PAD.left, HEIGHT - 4, `step ${firstStep}`, "timeline-label"));
    root.appendChild(label(PAD.left + plotW, HEIGHT - 4, `step ${lastStep}`, "timeline-label", "end"));
    root.appendChild(label(PAD.left + plotW / 2, HEIGHT - 4, full ? "assistant steps" : "zoomed", "timeline-label", "middle"));

    if (this.mode === "composition") this.drawAreas(root, marks, xAt, yAt, from);

    // The window's names go above its line, the threshold's below its own: the two
    // lines are often a few pixels apart and 11 px text would overlap.
    for (const [value, cls, name, below] of [
      [t.window, "timeline-window", "window", false],
      [t.threshold, "timeline-threshold", "auto-compact", true],
    ] as Array<[number, string, string, boolean]>) {
      if (value <= 0 || value > top) continue;
      const y = yAt(value);
      const textY = below ? y + LABEL_PX : y - 2;
      root.appendChild(svg("line", { class: `timeline-limit ${cls}`, x1: PAD.left, y1: y, x2: PAD.left + plotW, y2: y }, [title(`${name === "window" ? "Context window" : "Auto-compaction threshold"}: ${formatInt(value)}`)]));
      root.appendChild(label(PAD.left - 3, textY, formatTokens(value), "timeline-label", "end"));
      root.appendChild(label(PAD.left + plotW, textY, name, `timeline-label ${cls}-label`, "end"));
    }

    if (zoomed) {
      root.appendChild(label(PAD.left - 3, PAD.top + 3, formatTokens(Math.round(top / 1.05)), "timeline-label", "end"));
      const above = `↑ auto-compact ${formatTokens(t.threshold)} · window ${formatTokens(t.window)}`;
      root.appendChild(label(PAD.left + plotW, PAD.top - 2, above, "timeline-label timeline-above-label", "end"));
    }

    drawLine(root, marks, from, xAt, yAt);
    const cursor = root.appendChild(svg("line", { class: "timeline-cursor", y1: PAD.top, y2: PAD.top + plotH, visibility: "hidden" }));
    // The cursor and the marked step follow a pick here at once (a pick selects its row silently: no redraw comes).
    this.markSelected = (slot) => {
      this.selectedSlot = slot;
      const inView = slot !== undefined && slot >= from && slot <= to;
      if (inView) for (const a of ["x1", "x2"]) cursor.setAttribute(a, xAt(slot).toFixed(1));
      cursor.setAttribute("visibility", inView ? "visible" : "hidden");
      for (const m of this.marks) m.node.classList.toggle("selected", m.slot === slot);
    };

    // The marks of the span shown, focusable in path order: at most MAX_MARKS however long the branch.
    const { slots, every } = markedSlots(marks);
    marks.forEach((m, k) => {
      if (!slots.has(k)) return;
      const slot = from + k;
      const node = markNode(m, xAt(slot), yAt);
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", this.marks.length === 0 ? "0" : "-1");
      const id = node.dataset.entry ?? "";
      const n = this.marks.length;
      node.addEventListener("click", () => {
        this.markSelected(slot);
        this.focus(n);
        this.onPick(id);
      });
      root.appendChild(node);
      this.marks.push({ mark: m, node, slot });
    });
    this.markSelected(this.selectedSlot);
    // The selected step drawn over its neighbours (a zoomed-out view puts marks a pixel apart): it is seen and can be clicked.
    const chosen = this.marks.find((m) => m.slot === this.selectedSlot);
    if (chosen) root.appendChild(chosen.node);
    root.addEventListener("keydown", (e) => this.key(e));
    this.pointerZoom(root, plotW, marks.length);

    const last = t.points[t.points.length - 1];
    const shownText = full ? "" : ` · showing steps ${formatInt(firstStep)}–${formatInt(lastStep)}`;
    const caption = el("div", {
      className: "timeline-caption",
      text: `${formatInt(t.points.length)} steps on this branch · last ${formatTokens(last.tokens)}${last.source === "estimated" ? " (estimated)" : ""} of ${formatTokens(t.window)} · ${t.compactions.length} compaction${t.compactions.length === 1 ? "" : "s"}${shownText}${every > 1 ? ` · 1 in ${every} steps drawn as a point` : ""}`,
    });
    const sizes = this.slots.map((m) => (m.kind === "point" ? m.p.tokens : m.c.before));
    const strip = overviewStrip(sizes, this.range, WIDTH, PAD.left, (a, b, click) => this.setRange(click ? reveal({ from: this.range.from, to: this.range.to }, this.slots.length, a) : { from: a, to: b }));
    const compositionKinds = this.mode === "composition" ? kindsIn([t.points.map((p) => ({ x: 0, parts: p.composition }))]) : [];
    this.element.append(caption, this.tools(full), root, strip, ...(this.mode === "composition" ? [compositionLegend(compositionKinds)] : []), legend());
    if (this.marks.length) {
      const k = focusedSlot === undefined ? -1 : nearest(this.marks.map((m) => m.slot), focusedSlot);
      const sel = this.marks.findIndex((m) => m.slot === this.selectedSlot);
      if (k >= 0) this.focus(k);
      else if (sel >= 0) this.setCurrent(sel);
    }
  }

  /** The composition's stacked areas, one run per stretch between compactions. */
  private drawAreas(root: SVGSVGElement, marks: readonly Mark[], xAt: (slot: number) => number, yAt: (v: number) => number, from: number): void {
    const runs: AreaVertex[][] = [[]];
    marks.forEach((m, k) => {
      const x = xAt(from + k);
      if (m.kind === "point") runs[runs.length - 1].push({ x, parts: m.p.composition });
      else runs.push([{ x, parts: m.c.afterComposition }]);
    });
    const maxVertices = Math.max(2, Math.floor((this.drawnWidth - PAD.left - PAD.right) / 2));
    const thin = runs.map((r) => thinRun(r, maxVertices));
    const kinds = kindsIn(thin);
    root.appendChild(hatchPatterns((tag, attrs, children) => svg(tag as keyof SVGElementTagNameMap, attrs, children)));
    for (const [kind, d] of areaPaths(thin, kinds, yAt)) root.appendChild(svg("path", { class: `timeline-area area-${kind}`, d }));
  }

  /** The controls above the chart: the view (Total or Composition) and the zoom. */
  private tools(full: boolean): HTMLElement {
    const button = (text: string, cls: string, attrs: Record<string, string>, act: () => void, primary = false) => {
      const b = custom("vscode-button", { ...(primary ? {} : { secondary: "" }), class: cls, ...attrs });
      b.textContent = text;
      b.addEventListener("click", () => {
        if (!b.hasAttribute("disabled")) act();
      });
      return b;
    };
    // The view shown reads as pressed (a primary button), not as unavailable.
    const modeButton = (mode: ChartMode, text: string, tip: string) => button(text, `chart-mode mode-${mode}`, { "aria-pressed": String(this.mode === mode), title: tip }, () => this.setMode(mode), this.mode === mode);
    const narrowest = this.range.to - this.range.from + 1 <= MIN_SPAN;
    const zoomIn = button("", "chart-zoom-in", { icon: "zoom-in", "icon-only": "", "aria-label": "Zoom in (+)", title: "Zoom in (+, the wheel, or drag across the chart)", ...(narrowest ? { disabled: "" } : {}) }, () => this.zoom(1 / ZOOM_STEP));
    const zoomOut = button("", "chart-zoom-out", { icon: "zoom-out", "icon-only": "", "aria-label": "Zoom out (-)", title: "Zoom out (-)", ...(full ? { disabled: "" } : {}) }, () => this.zoom(ZOOM_STEP));
    const reset = button("Reset zoom", "chart-reset-zoom", { title: "Show every step (0)", ...(full ? { disabled: "" } : {}) }, () => this.zoom(0));
    return el("div", { className: "timeline-tools", attrs: { role: "toolbar", "aria-label": "Chart view and zoom" } }, [
      el("span", { className: "chart-modes", attrs: { role: "group", "aria-label": "Show" } }, [
        modeButton("total", "Total", "The context size at each step"),
        modeButton("composition", "Composition", "What the context held at each step, by kind (estimated split of the size)"),
      ]),
      el("span", { className: "chart-zoom" }, [zoomIn, zoomOut, reset]),
    ]);
  }

  /** The wheel zooms around the step under the pointer; a drag across the plot zooms to it. */
  private pointerZoom(root: SVGSVGElement, plotW: number, shown: number): void {
    const slotAt = (x: number) => this.range.from + Math.max(0, Math.min(shown - 1, Math.round(((x - PAD.left) / plotW) * Math.max(0, shown - 1))));
    root.addEventListener(
      "wheel",
      (e) => {
        if (e.ctrlKey || Math.abs(e.deltaY) < Math.abs(e.deltaX)) return;
        const widen = e.deltaY > 0;
        if (widen && isFull(this.range, this.slots.length)) return;
        e.preventDefault();
        const at = slotAt(e.clientX - root.getBoundingClientRect().left);
        window.cancelAnimationFrame(this.frame);
        this.frame = window.requestAnimationFrame(() => this.zoom(widen ? ZOOM_STEP : 1 / ZOOM_STEP, at));
      },
      { passive: false },
    );
    brush(root, {
      startsOn: (e) => !(e.target as Element).closest("[role=button]"),
      band: { y: PAD.top, height: HEIGHT - PAD.top - PAD.bottom },
      onRange: (a, b) => this.setRange({ from: slotAt(a), to: slotAt(b) }),
    });
  }

  /** The focusable marks' entry ids in order (tests, and the keyboard). */
  get markIds(): string[] {
    return this.marks.map((m) => m.node.dataset.entry ?? "");
  }

  /** Makes mark k the tab stop without moving the focus (a tree selection must not take it). */
  private setCurrent(k: number): void {
    this.marks[this.current]?.node.setAttribute("tabindex", "-1");
    this.current = k;
    this.marks[k].node.setAttribute("tabindex", "0");
  }

  private focus(slot: number): void {
    if (!this.marks.length) return;
    const k = Math.max(0, Math.min(this.marks.length - 1, slot));
    this.setCurrent(k);
    this.marks[k].node.focus();
  }

  /** + and = narrow around the focused step, - widens, 0 shows all; anywhere in the chart section. */
  private zoomKey(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey || !this.shown) return;
    const at = this.marks.find((m) => m.node === document.activeElement)?.slot;
    if (e.key === "+" || e.key === "=") this.zoom(1 / ZOOM_STEP, at);
    else if (e.key === "-" || e.key === "_") this.zoom(ZOOM_STEP, at);
    else if (e.key === "0") this.zoom(0);
    else return;
    e.preventDefault();
  }

  private key(e: KeyboardEvent): void {
    const from = this.marks.findIndex((m) => m.node === e.target);
    if (from < 0) return;
    let to: number | undefined;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") to = from + 1;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") to = from - 1;
    else if (e.key === "Home") to = 0;
    else if (e.key === "End") to = this.marks.length - 1;
    else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.current = from;
      this.markSelected(this.marks[from].slot);
      this.onPick(this.marks[from].node.dataset.entry ?? "");
      return;
    }
    if (to === undefined) return;
    e.preventDefault();
    // Past either end of a zoomed span the span moves on by half its width.
    const edge = to < 0 ? -1 : to >= this.marks.length ? 1 : 0;
    if (edge !== 0 && (e.key.startsWith("Arrow"))) {
      const slot = this.marks[from].slot;
      const next = pan(this.range, this.slots.length, (edge * (this.range.to - this.range.from + 1)) / 2);
      if (next.from === this.range.from) return;
      this.range = next;
      this.draw();
      const k = edge > 0 ? this.marks.findIndex((m) => m.slot > slot) : findLastIndex(this.marks.map((m) => m.slot), (s) => s < slot);
      this.focus(k >= 0 ? k : 0);
      return;
    }
    this.focus(to);
  }
}

/** The index in `slots` (ascending) nearest to `slot`. */
function nearest(slots: readonly number[], slot: number): number {
  let best = -1;
  slots.forEach((s, k) => {
    if (best < 0 || Math.abs(s - slot) < Math.abs(slots[best] - slot)) best = k;
  });
  return best;
}

function findLastIndex(list: readonly number[], test: (n: number) => boolean): number {
  for (let k = list.length - 1; k >= 0; k--) if (test(list[k])) return k;
  return -1;
}
