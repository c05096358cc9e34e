/**
 * The context size at every assistant step of a branch, drawn as hand-made SVG: no chart
 * library (the webview's CSP forbids inline styles a library would set, and its bundle
 * stays small). Every node is made with createElementNS and every session string goes in
 * through textContent, so an entry id or model name is shown, never parsed.
 */
import type { ContextTimeline, TimelineCompaction, TimelinePoint } from "../src/protocol";
import { clear, el, formatInt, formatTokens, oneLine } from "./dom";

const NS = "http://www.w3.org/2000/svg";
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
/** Focusable marks at most: past it every n-th step is drawn as a point (the line keeps them all). */
export const MAX_MARKS = 400;
/** Below this share of its auto-compaction threshold a branch is drawn to its own height. */
const ZOOM_BELOW = 0.3;

type Attrs = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, children: Node[] = []): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.appendChild(c);
  return node;
}

/** A <title> (the hover text), its text set as text. */
function title(text: string): SVGTitleElement {
  const t = svg("title");
  t.textContent = text;
  return t;
}

function label(x: number, y: number, text: string, cls: string, anchor: "start" | "middle" | "end" = "start"): SVGTextElement {
  const t = svg("text", { x, y, class: cls, "text-anchor": anchor });
  t.textContent = text;
  return t;
}

/** What one focusable mark stands for, in path order. */
export type Mark = { kind: "point"; step: number; p: TimelinePoint } | { kind: "drop"; c: TimelineCompaction };

function markIndex(m: Mark): number {
  return m.kind === "point" ? m.p.index : m.c.index;
}

/**
 * The slots drawn as focusable marks: all of them up to MAX_MARKS; past it every
 * compaction, the steps on either side of one, the first and last step and every n-th.
 */
export function markedSlots(marks: readonly Mark[]): { slots: Set<number>; every: number } {
  const all = new Set(marks.map((_, k) => k));
  if (marks.length <= MAX_MARKS) return { slots: all, every: 1 };
  const drops = marks.filter((m) => m.kind === "drop").length;
  const every = Math.ceil((marks.length - drops) / Math.max(1, MAX_MARKS - 3 * drops - 2));
  const slots = new Set<number>([0, marks.length - 1]);
  let step = 0;
  marks.forEach((m, k) => {
    if (m.kind === "drop") {
      slots.add(k);
      if (k > 0) slots.add(k - 1);
      if (k + 1 < marks.length) slots.add(k + 1);
    } else if (step++ % every === 0) slots.add(k);
  });
  return { slots, every };
}

function when(time: string | null): string {
  return time ? time.replace("T", " ").replace(/\.\d+Z$/, "Z") : "no time";
}

export function pointText(step: number, p: TimelinePoint): string {
  return `Step ${step} · ${when(p.time)} · ${formatInt(p.tokens)} tokens (${p.source}) · entry ${oneLine(p.entryId, 120)}`;
}

export function compactionText(c: TimelineCompaction): string {
  return `compacted ${formatTokens(c.before)} -> ${formatTokens(c.after)} · ${when(c.time)} · before ${c.beforeSource}, after ${c.afterSource} · entry ${oneLine(c.entryId, 120)}`;
}

/**
 * The chart of one branch. Steps and compaction markers are focusable in path order
 * with one tab stop (roving tabindex): arrows, Home and End move, Enter or Space and a
 * click pick the entry.
 */
export class TimelineChart {
  readonly element = el("section", { className: "timeline", attrs: { "aria-label": "Context size per step of the selected branch" } });
  private marks: Array<{ mark: Mark; node: SVGElement }> = [];
  private current = 0;
  /** The timeline drawn, and the width it was drawn at (a resize draws it again). */
  private shown: ContextTimeline | undefined;
  private drawnWidth = 0;

  constructor(private readonly onPick: (entryId: string) => void) {
    // Redrawn once a resize settles: dragging the divider would redraw a 20,000-step line every frame.
    let timer = 0;
    new ResizeObserver(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (this.shown && this.element.clientWidth > 0 && Math.abs(this.width() - this.drawnWidth) > 2) this.render(this.shown);
      }, RESIZE_SETTLE_MS);
    }).observe(this.element);
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

  render(t: ContextTimeline): void {
    clear(this.element);
    this.marks = [];
    this.current = 0;
    if (!t.points.length) {
      this.message("No assistant steps on this branch.");
      return;
    }
    this.shown = t;
    const WIDTH = this.width();
    this.drawnWidth = WIDTH;
    const marks: Mark[] = [...t.points.map((p, k): Mark => ({ kind: "point", step: k + 1, p })), ...t.compactions.map((c): Mark => ({ kind: "drop", c }))];
    marks.sort((a, b) => markIndex(a) - markIndex(b));
    const peak = Math.max(1, ...t.points.map((p) => p.tokens), ...t.compactions.map((c) => Math.max(c.before, c.after)));
    // A context far below its limits is drawn to its own height (else it is a flat line at 0); the limits are named above it.
    const zoomed = peak < ZOOM_BELOW * Math.max(1, t.threshold);
    const top = (zoomed ? peak * 1.25 : Math.max(peak, t.window)) * 1.05;
    const plotW = WIDTH - PAD.left - PAD.right;
    const plotH = HEIGHT - PAD.top - PAD.bottom;
    const xAt = (slot: number) => PAD.left + (marks.length > 1 ? (slot / (marks.length - 1)) * plotW : plotW / 2);
    const yAt = (v: number) => PAD.top + plotH - (Math.max(0, v) / top) * plotH;
    const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, class: "timeline-svg", role: "group", "aria-label": `Context size at ${t.points.length} steps${t.model ? ` of ${oneLine(t.model, 100)}` : ""}; window ${formatInt(t.window)}, auto-compaction at ${formatInt(t.threshold)}` });

    // Axes, the window and the threshold.
    root.appendChild(svg("line", { class: "timeline-axis", x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: PAD.top + plotH }));
    root.appendChild(svg("line", { class: "timeline-axis", x1: PAD.left, y1: PAD.top + plotH, x2: PAD.left + plotW, y2: PAD.top + plotH }));
    root.appendChild(label(PAD.left - 3, PAD.top + plotH + 4, "0", "timeline-label", "end"));
    root.appendChild(label(PAD.left, HEIGHT - 4, "step 1", "timeline-label"));
    root.appendChild(label(PAD.left + plotW, HEIGHT - 4, `step ${t.points.length}`, "timeline-label", "end"));
    root.appendChild(label(PAD.left + plotW / 2, HEIGHT - 4, "assistant steps", "timeline-label", "middle"));
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

    // The line: runs of recorded steps solid, any segment touching an estimate dashed.
    const vertices: Array<{ x: number; y: number; estimated: boolean; breakBefore: boolean }> = [];
    marks.forEach((m, slot) => {
      const x = xAt(slot);
      if (m.kind === "point") vertices.push({ x, y: yAt(m.p.tokens), estimated: m.p.source === "estimated", breakBefore: false });
      else {
        vertices.push({ x, y: yAt(m.c.before), estimated: m.c.beforeSource === "estimated", breakBefore: false });
        // The drop itself is the compaction's marker, not part of the line.
        vertices.push({ x, y: yAt(m.c.after), estimated: m.c.afterSource === "estimated", breakBefore: true });
      }
    });
    let run: string[] = [];
    let runEstimated = false;
    const flush = () => {
      if (run.length > 1) root.appendChild(svg("polyline", { class: `timeline-line ${runEstimated ? "estimated" : "recorded"}`, points: run.join(" ") }));
      run = [];
    };
    for (let k = 1; k < vertices.length; k++) {
      const a = vertices[k - 1];
      const b = vertices[k];
      if (b.breakBefore) {
        flush();
        continue;
      }
      const estimated = a.estimated || b.estimated;
      if (run.length && estimated !== runEstimated) flush();
      if (!run.length) run.push(`${a.x.toFixed(1)},${a.y.toFixed(1)}`);
      runEstimated = estimated;
      run.push(`${b.x.toFixed(1)},${b.y.toFixed(1)}`);
    }
    flush();

    // The marks, focusable in path order.
    const { slots, every } = markedSlots(marks);
    marks.forEach((m, slot) => {
      if (!slots.has(slot)) return;
      const x = xAt(slot);
      let node: SVGElement;
      let id: string;
      if (m.kind === "point") {
        const text = pointText(m.step, m.p);
        node = svg("circle", { class: `timeline-point ${m.p.source}`, cx: x.toFixed(1), cy: yAt(m.p.tokens).toFixed(1), r: 3 }, [title(text)]);
        node.setAttribute("aria-label", text);
        id = m.p.entryId;
      } else {
        const text = compactionText(m.c);
        const y1 = yAt(m.c.before);
        const y2 = yAt(m.c.after);
        node = svg("g", { class: "timeline-compaction" }, [
          title(text),
          svg("line", { class: "timeline-drop", x1: x.toFixed(1), y1: y1.toFixed(1), x2: x.toFixed(1), y2: y2.toFixed(1) }),
          svg("path", { class: "timeline-drop-head", d: `M${(x - 3).toFixed(1)},${(y2 - 4).toFixed(1)} L${x.toFixed(1)},${y2.toFixed(1)} L${(x + 3).toFixed(1)},${(y2 - 4).toFixed(1)}` }),
          // A wider invisible target: a one-pixel line is hard to hover or click.
          svg("rect", { class: "timeline-hit", x: (x - 4).toFixed(1), y: Math.min(y1, y2).toFixed(1), width: 8, height: Math.max(4, Math.abs(y2 - y1)).toFixed(1) }),
        ]);
        node.setAttribute("aria-label", text);
        id = m.c.entryId;
      }
      node.setAttribute("role", "button");
      node.setAttribute("tabindex", this.marks.length === 0 ? "0" : "-1");
      node.dataset.entry = id;
      const k = this.marks.length;
      node.addEventListener("click", () => {
        this.focus(k);
        this.onPick(id);
      });
      root.appendChild(node);
      this.marks.push({ mark: m, node });
    });
    root.addEventListener("keydown", (e) => this.key(e));

    const last = t.points[t.points.length - 1];
    const caption = el("div", {
      className: "timeline-caption",
      text: `${formatInt(t.points.length)} steps on this branch · last ${formatTokens(last.tokens)}${last.source === "estimated" ? " (estimated)" : ""} of ${formatTokens(t.window)} · ${t.compactions.length} compaction${t.compactions.length === 1 ? "" : "s"}${every > 1 ? ` · 1 in ${every} steps drawn as a point` : ""}`,
    });
    this.element.append(caption, root, legend());
  }

  /** The focusable marks' entry ids in order (tests, and the keyboard). */
  get markIds(): string[] {
    return this.marks.map((m) => m.node.dataset.entry ?? "");
  }

  private focus(slot: number): void {
    if (!this.marks.length) return;
    const k = Math.max(0, Math.min(this.marks.length - 1, slot));
    this.marks[this.current]?.node.setAttribute("tabindex", "-1");
    this.current = k;
    const node = this.marks[k].node;
    node.setAttribute("tabindex", "0");
    node.focus();
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
      this.onPick(this.marks[from].node.dataset.entry ?? "");
      return;
    }
    if (to === undefined) return;
    e.preventDefault();
    this.focus(to);
  }
}

function legend(): HTMLElement {
  const item = (cls: string, text: string) => el("span", { className: "legend-item" }, [el("span", { className: `timeline-swatch ${cls}` }), document.createTextNode(text)]);
  return el("div", { className: "legend", attrs: { "aria-hidden": "true" } }, [
    item("recorded", "recorded"),
    item("estimated", "estimated"),
    item("drop", "compacted"),
    item("threshold", "auto-compact"),
    item("window", "window"),
  ]);
}
