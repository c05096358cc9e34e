import type { CostView } from "../src/protocol";
import { costBreakdown, costHeadline } from "../src/core/usage/cost-words";
import { humanUsd } from "../src/core/util/human";
import { clipText } from "../src/core/util/visible-text";
import { el, TITLE_MAX, visible } from "./dom";

/** The session's cost in the header ("$1.23 · 45 steps"); its tooltip says where the figures came from. */
export class CostChip {
  readonly element = el("span", { className: "chip cost-chip", attrs: { role: "note" } });

  constructor() {
    this.element.hidden = true;
  }

  /** Hidden when no step has usage (nothing to cost). */
  render(cost: CostView | undefined): void {
    const shown = !!cost && cost.steps > 0;
    this.element.hidden = !shown;
    if (!cost || !shown) return;
    const head = costHeadline(cost);
    // A fork's copied path was paid for once, in its source: said on the chip itself.
    this.element.textContent = cost.inherited ? `${head} · ${humanUsd(cost.inherited.usd)} inherited` : head;
    this.element.classList.toggle("cost-unpriced", cost.unpricedSteps > 0);
    // Model names are session text: shown as text, hidden characters marked, cut like every tooltip.
    const tip = visible(clipText([`Cost of the whole session (every branch): ${head}`, ...costBreakdown(cost)].join("\n"), TITLE_MAX));
    this.element.title = tip;
    this.element.setAttribute("aria-label", tip);
  }
}
