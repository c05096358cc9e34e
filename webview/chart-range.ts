/**
 * The part of a growth chart shown: a span of its slots (steps and compactions in path
 * order), from..to inclusive. A long session (thousands of steps) is a sawtooth at full
 * width; the user narrows it by dragging on the chart or its overview strip, the wheel, or
 * + and -, and 0 shows all again. Pure: the chart draws what this says.
 */
export interface SlotRange {
  from: number;
  to: number;
}

/** The narrowest span shown: fewer slots would spread a handful of steps over the whole width. */
export const MIN_SPAN = 8;
/** How much one + or one wheel notch narrows the span. */
export const ZOOM_STEP = 1.5;

/** The whole chart: all `count` slots. */
export function fullRange(count: number): SlotRange {
  return { from: 0, to: Math.max(0, count - 1) };
}

export function isFull(r: SlotRange, count: number): boolean {
  return r.from <= 0 && r.to >= count - 1;
}

/** A range made valid for `count` slots: inside them, at least MIN_SPAN wide (or all of them). */
export function clampRange(r: SlotRange, count: number): SlotRange {
  const last = Math.max(0, count - 1);
  let from = Math.round(Math.min(r.from, r.to));
  let to = Math.round(Math.max(r.from, r.to));
  const span = Math.min(last, Math.max(MIN_SPAN - 1, to - from));
  if (to - from < span) {
    const mid = (from + to) / 2;
    from = Math.round(mid - span / 2);
    to = from + span;
  }
  if (from < 0) [from, to] = [0, span];
  if (to > last) [from, to] = [last - span, last];
  return { from: Math.max(0, from), to: Math.min(last, to) };
}

/** The span scaled by `factor` (<1 narrows) around slot `at`, which keeps its place on screen. */
export function zoomAround(r: SlotRange, count: number, factor: number, at = (r.from + r.to) / 2): SlotRange {
  const share = r.to > r.from ? (at - r.from) / (r.to - r.from) : 0.5;
  const span = Math.max(MIN_SPAN - 1, (r.to - r.from) * factor);
  const from = at - share * span;
  return clampRange({ from, to: from + span }, count);
}

/** The same span moved so slot `at` is in it (centred when it was outside; unchanged when inside). */
export function reveal(r: SlotRange, count: number, at: number): SlotRange {
  if (at >= r.from && at <= r.to) return r;
  const span = r.to - r.from;
  return clampRange({ from: at - span / 2, to: at - span / 2 + span }, count);
}

/** The same span moved by `slots` (negative: left). */
export function pan(r: SlotRange, count: number, slots: number): SlotRange {
  const span = r.to - r.from;
  return clampRange({ from: r.from + slots, to: r.from + slots + span }, count);
}
