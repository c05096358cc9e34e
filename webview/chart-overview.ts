/**
 * The growth chart's overview strip and the drag that picks a range ("brush"): the whole
 * branch drawn small under the chart, the shown span framed on it. Dragging on the strip
 * or across the chart chooses the span shown; a click on the strip moves the span there.
 */
import type { SlotRange } from "./chart-range";

const NS = "http://www.w3.org/2000/svg";
export const OVERVIEW_HEIGHT = 30;
/** A drag shorter than this is a click (a step picked, or the span moved), not a range. */
const DRAG_PX = 4;

type Attrs = Record<string, string | number>;

export function svgNode<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, children: Node[] = []): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.appendChild(c);
  return node;
}

/** Where a drag on an SVG drawn at its CSS size is, in its own x (the chart is drawn 1:1 in CSS pixels). */
function svgX(target: SVGSVGElement, e: PointerEvent): number {
  return e.clientX - target.getBoundingClientRect().left;
}

export interface BrushOptions {
  /** Whether a drag may start here (not on a step's mark, which a click picks). */
  startsOn(e: PointerEvent): boolean;
  /** The band drawn while dragging: its top and height. */
  band: { y: number; height: number };
  /** x from..to (in the SVG's pixels) chosen. */
  onRange(x1: number, x2: number): void;
  /** A press and release in place. */
  onClick?(x: number): void;
}

/** Drag across `target` to choose a range; the band shows it meanwhile. */
export function brush(target: SVGSVGElement, o: BrushOptions): void {
  let start: number | undefined;
  let band: SVGRectElement | undefined;
  target.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !o.startsOn(e)) return;
    start = svgX(target, e);
    target.setPointerCapture(e.pointerId);
  });
  target.addEventListener("pointermove", (e) => {
    if (start === undefined) return;
    const x = svgX(target, e);
    if (!band && Math.abs(x - start) < DRAG_PX) return;
    if (!band) band = target.appendChild(svgNode("rect", { class: "timeline-brush", y: o.band.y, height: o.band.height }));
    band.setAttribute("x", Math.min(start, x).toFixed(1));
    band.setAttribute("width", Math.abs(x - start).toFixed(1));
  });
  const end = (e: PointerEvent, cancelled: boolean) => {
    if (start === undefined) return;
    const x = svgX(target, e);
    const from = start;
    start = undefined;
    band?.remove();
    const dragged = band !== undefined;
    band = undefined;
    if (cancelled) return;
    if (dragged && Math.abs(x - from) >= DRAG_PX) o.onRange(Math.min(from, x), Math.max(from, x));
    else o.onClick?.(x);
  };
  target.addEventListener("pointerup", (e) => end(e, false));
  target.addEventListener("pointercancel", (e) => end(e, true));
}

/** The highest size per pixel column: a 20,000-step branch in 300 px keeps its peaks. */
function columns(sizes: readonly number[], width: number): number[] {
  if (sizes.length <= width) return [...sizes];
  const out = new Array<number>(width).fill(0);
  sizes.forEach((v, k) => {
    const c = Math.min(width - 1, Math.floor((k / sizes.length) * width));
    out[c] = Math.max(out[c], v);
  });
  return out;
}

/**
 * The strip: the size at every slot, small, and the shown span framed. `onRange` gets
 * the slots chosen by a drag (or a click, centring the span there).
 */
export function overviewStrip(sizes: readonly number[], range: SlotRange, width: number, left: number, onRange: (from: number, to: number, click: boolean) => void): SVGSVGElement {
  const count = sizes.length;
  const plotW = Math.max(1, width - left);
  const h = OVERVIEW_HEIGHT;
  const peak = Math.max(1, ...sizes);
  const cols = columns(sizes, Math.floor(plotW));
  const xOf = (slot: number) => left + (count > 1 ? (slot / (count - 1)) * plotW : plotW / 2);
  const slotAt = (x: number) => Math.max(0, Math.min(count - 1, Math.round(((x - left) / plotW) * Math.max(0, count - 1))));
  const line = cols.map((v, c) => `${(left + (cols.length > 1 ? (c / (cols.length - 1)) * plotW : 0)).toFixed(1)},${(h - 3 - (v / peak) * (h - 6)).toFixed(1)}`).join(" ");
  const x1 = xOf(range.from);
  const x2 = xOf(range.to);
  const root = svgNode("svg", { class: "timeline-overview", width, height: h, viewBox: `0 0 ${width} ${h}`, role: "img", "aria-label": `Overview: steps ${range.from + 1} to ${range.to + 1} of ${count} slots shown; drag to choose` }, [
    svgNode("rect", { class: "overview-track", x: left, y: 0.5, width: plotW, height: h - 1 }),
    svgNode("polyline", { class: "overview-line", points: line }),
    svgNode("rect", { class: "overview-window", x: x1.toFixed(1), y: 1, width: Math.max(2, x2 - x1).toFixed(1), height: h - 2 }),
  ]);
  brush(root, {
    startsOn: () => true,
    band: { y: 1, height: h - 2 },
    onRange: (a, b) => onRange(slotAt(a), slotAt(b), false),
    onClick: (x) => onRange(slotAt(x), slotAt(x), true),
  });
  return root;
}
