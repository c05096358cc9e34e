/**
 * The panel's shape follows its width. Side by side, a split editor left the tree a
 * sliver (5 characters a row at 333 px) and the side pane too narrow for bar names;
 * below NARROW_BELOW the panes stack instead: the tree on top, the side pane (details
 * first) under it, both the panel's full width, the divider still draggable.
 */

/** Below this width (CSS px) the panes stack. */
export const NARROW_BELOW = 700;

interface SplitLayout extends HTMLElement {
  split: "vertical" | "horizontal";
}

/** Keeps `split` (a vscode-split-layout) side by side when wide, stacked when narrow; body.narrow says which. */
export function followWidth(split: HTMLElement): void {
  const layout = split as SplitLayout;
  let narrow: boolean | undefined;
  const apply = (width: number) => {
    const now = width < NARROW_BELOW;
    if (now === narrow) return;
    narrow = now;
    document.body.classList.toggle("narrow", now);
    // The element resets its divider to the initial position when the direction changes.
    layout.setAttribute("initial-handle-position", now ? "45%" : "58%");
    layout.split = now ? "horizontal" : "vertical";
  };
  apply(document.documentElement.clientWidth);
  new ResizeObserver(() => apply(document.documentElement.clientWidth)).observe(document.documentElement);
}
