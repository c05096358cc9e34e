/**
 * The growth chart's "Composition" view: what each step's context held, by kind, as
 * stacked areas under the size line (system and tools at the bottom, as the bars draw
 * them first). The split is the core's estimate (TimelinePoint.composition); the areas
 * add up to the step's size, so the line stays their outer edge.
 */
import type { TimelinePoint, TokenKind } from "../src/protocol";
import { el } from "./dom";
import { DRAW_ORDER, KIND_LABELS } from "./token-bars";

type Composition = TimelinePoint["composition"];

/** One vertex of an area's run: where it is drawn and what the context held there. */
export interface AreaVertex {
  x: number;
  parts: Composition | undefined;
}

/** Kinds drawn hatched, as the bars draw them: an SVG pattern stands in for their CSS gradient. */
const HATCHED: readonly TokenKind[] = ["toolResult", "system"];

/** The kinds any vertex holds, in drawing order. */
export function kindsIn(runs: ReadonlyArray<readonly AreaVertex[]>): TokenKind[] {
  const seen = new Set<TokenKind>();
  for (const run of runs) for (const v of run) for (const k of DRAW_ORDER) if ((v.parts?.[k] ?? 0) > 0) seen.add(k);
  return DRAW_ORDER.filter((k) => seen.has(k));
}

/**
 * Every n-th vertex of a run (its first and last always) when it has more than `max`:
 * thousands of steps in a few hundred pixels would give each area tens of thousands of
 * points no one can see. The line keeps every step.
 */
export function thinRun(run: readonly AreaVertex[], max: number): AreaVertex[] {
  if (run.length <= max || max < 2) return [...run];
  const every = Math.ceil(run.length / max);
  const out = run.filter((_, k) => k % every === 0);
  if (out[out.length - 1] !== run[run.length - 1]) out.push(run[run.length - 1]);
  return out;
}

/**
 * The `d` of each kind's area over the runs (a run: the vertices between two compactions),
 * stacked in drawing order; `yAt` maps tokens to the plot's y.
 */
export function areaPaths(runs: ReadonlyArray<readonly AreaVertex[]>, kinds: readonly TokenKind[], yAt: (v: number) => number): Map<TokenKind, string> {
  const out = new Map<TokenKind, string[]>(kinds.map((k) => [k, []]));
  for (const run of runs) {
    if (run.length < 2) continue;
    const below = run.map(() => 0);
    for (const k of kinds) {
      const above = run.map((v, j) => below[j] + Math.max(0, v.parts?.[k] ?? 0));
      if (above.some((a, j) => a > below[j])) {
        const top = run.map((v, j) => `${v.x.toFixed(1)},${yAt(above[j]).toFixed(1)}`);
        const bottom = run.map((v, j) => `${v.x.toFixed(1)},${yAt(below[j]).toFixed(1)}`).reverse();
        out.get(k)?.push(`M${top.join("L")}L${bottom.join("L")}Z`);
      }
      for (let j = 0; j < run.length; j++) below[j] = above[j];
    }
  }
  return new Map([...out].filter(([, d]) => d.length).map(([k, d]) => [k, d.join("")]));
}

/** The <defs> patterns the hatched kinds' areas are filled with (ids unique: one chart per page). */
export function hatchPatterns(make: (tag: string, attrs: Record<string, string | number>, children?: Node[]) => SVGElement): SVGElement {
  return make(
    "defs",
    {},
    HATCHED.map((k) =>
      make("pattern", { id: `ase-hatch-${k}`, patternUnits: "userSpaceOnUse", width: 4, height: 4, patternTransform: `rotate(${k === "system" ? 45 : 135})` }, [
        make("rect", { class: "hatch-bg", x: 0, y: 0, width: 4, height: 4 }),
        make("rect", { class: `hatch-fg hatch-${k}`, x: 0, y: 0, width: k === "system" ? 2 : 3, height: 4 }),
      ]),
    ),
  );
}

/** The composition's legend: the bars' swatches and names, and that the split is estimated. */
export function compositionLegend(kinds: readonly TokenKind[]): HTMLElement {
  const items = kinds.map((k) => el("span", { className: "legend-item" }, [el("span", { className: `swatch seg-${k}` }), document.createTextNode(KIND_LABELS[k])]));
  items.push(el("span", { className: "legend-item legend-note", text: "split estimated (chars/4); the line is the step's size" }));
  return el("div", { className: "legend composition-legend", attrs: { "aria-hidden": "true" } }, items);
}
