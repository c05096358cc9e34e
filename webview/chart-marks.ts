/**
 * What the growth chart draws for each step: its focusable marks (a step's point, a
 * compaction's drop), their hover text, the size line and its legend. Every session string
 * goes in through textContent (see timeline-chart.ts).
 */
import type { TimelineCompaction, TimelinePoint } from "../src/protocol";
import { svgNode as svg } from "./chart-overview";
import { el, formatInt, formatTokens, oneLine } from "./dom";

/** Focusable marks at most: past it every n-th step is drawn as a point (the line keeps them all). */
export const MAX_MARKS = 400;

/** A <title> (the hover text), its text set as text. */
export function title(text: string): SVGTitleElement {
  const t = svg("title");
  t.textContent = text;
  return t;
}

export function label(x: number, y: number, text: string, cls: string, anchor: "start" | "middle" | "end" = "start"): SVGTextElement {
  const t = svg("text", { x, y, class: cls, "text-anchor": anchor });
  t.textContent = text;
  return t;
}

/** What one focusable mark stands for, in path order. */
export type Mark = { kind: "point"; step: number; p: TimelinePoint } | { kind: "drop"; c: TimelineCompaction };

export function markIndex(m: Mark): number {
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

/** A step's point or a compaction's drop, titled, naming its entry. */
export function markNode(m: Mark, x: number, yAt: (v: number) => number): SVGElement {
  let node: SVGElement;
  if (m.kind === "point") {
    const text = pointText(m.step, m.p);
    node = svg("circle", { class: `timeline-point ${m.p.source}`, cx: x.toFixed(1), cy: yAt(m.p.tokens).toFixed(1), r: 3 }, [title(text)]);
    node.setAttribute("aria-label", text);
    node.dataset.entry = m.p.entryId;
    return node;
  }
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
  node.dataset.entry = m.c.entryId;
  return node;
}

/** The size line: runs of recorded steps solid, any segment touching an estimate dashed. */
export function drawLine(root: SVGSVGElement, marks: readonly Mark[], from: number, xAt: (slot: number) => number, yAt: (v: number) => number): void {
  const vertices: Array<{ x: number; y: number; estimated: boolean; breakBefore: boolean }> = [];
  marks.forEach((m, k) => {
    const x = xAt(from + k);
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
}

export function legend(): HTMLElement {
  const item = (cls: string, text: string) => el("span", { className: "legend-item" }, [el("span", { className: `timeline-swatch ${cls}` }), document.createTextNode(text)]);
  return el("div", { className: "legend", attrs: { "aria-hidden": "true" } }, [
    item("recorded", "recorded"),
    item("estimated", "estimated"),
    item("drop", "compacted"),
    item("threshold", "auto-compact"),
    item("window", "window"),
  ]);
}
