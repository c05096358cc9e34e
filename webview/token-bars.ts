import { TOKEN_KINDS, type TokenBar, type TokenKind, type TokenSource } from "../src/protocol";
import { branchCostLine } from "../src/core/usage/cost-words";
import { clear, el, formatInt, formatTokens, oneLine } from "./dom";

export const KIND_LABELS: Record<TokenKind, string> = {
  summary: "Summary",
  user: "User",
  assistant: "Assistant",
  thinking: "Thinking",
  toolCall: "Tool calls",
  toolResult: "Tool results",
  image: "Images",
  custom: "Custom",
  bash: "Bash",
  system: "System & tools",
};

/** Drawing order: what is sent first comes first (the system prompt and tools, then the messages). */
export const DRAW_ORDER: readonly TokenKind[] = ["system", ...TOKEN_KINDS.filter((k) => k !== "system")];

const SOURCE_TEXT: Record<TokenSource, string> = {
  recorded: "recorded usage",
  exact: "exact count",
  estimate: "estimate",
};

/** "~" marks estimates, as pi does; recorded and exact figures are shown plainly. */
export function figure(n: number, source: TokenSource): string {
  return `${source === "estimate" ? "~" : ""}${formatTokens(n)}`;
}

function pct(n: number, scale: number): string {
  return `${Math.max(0, Math.min(100, (n / scale) * 100)).toFixed(3)}%`;
}

function barView(bar: TokenBar, onPick: (leafId: string) => void): HTMLElement {
  const scale = Math.max(bar.contextWindow, bar.total, 1);
  const track = el("div", { className: "bar-track", attrs: { "aria-hidden": "true" } });
  // The parts are estimates and may add up to more than the recorded total (151k shown
  // of 200k with parts of 260k drew past the card): they are drawn as shares of the total.
  let partsSum = 0;
  for (const kind of DRAW_ORDER) partsSum += Math.max(0, bar.byKind[kind] ?? 0);
  const share = partsSum > bar.total && partsSum > 0 ? bar.total / partsSum : 1;
  for (const kind of DRAW_ORDER) {
    const n = bar.byKind[kind] ?? 0;
    if (n <= 0) continue;
    const seg = el("div", { className: `bar-seg seg-${kind}`, title: `${KIND_LABELS[kind]}: ${formatInt(n)}` });
    seg.style.width = pct(n * share, scale);
    track.appendChild(seg);
  }
  if (bar.threshold > 0) {
    const mark = el("div", { className: "bar-mark threshold", title: `Auto-compaction threshold: ${formatInt(bar.threshold)}` });
    mark.style.left = pct(bar.threshold, scale);
    track.appendChild(mark);
  }
  if (bar.contextWindow > 0) {
    const mark = el("div", { className: "bar-mark window", title: `Context window: ${formatInt(bar.contextWindow)}` });
    mark.style.left = pct(bar.contextWindow, scale);
    track.appendChild(mark);
  }
  const used = bar.contextWindow > 0 ? Math.round((bar.total / bar.contextWindow) * 100) : 0;
  const over = bar.threshold > 0 && bar.total >= bar.threshold;
  const cost = bar.cost ? branchCostLine(bar.cost) : undefined;
  const head = el("div", { className: "bar-head" }, [
    el("span", { className: "bar-title", text: oneLine(bar.title, 200), title: cost ? `${bar.title}\n${cost}` : bar.title }),
    el("span", { className: `bar-figure${over ? " over" : ""}`, text: `${figure(bar.total, bar.source)} / ${formatTokens(bar.contextWindow)} (${used}%)` }),
    el("span", { className: `source-badge source-${bar.source}`, text: SOURCE_TEXT[bar.source] }),
  ]);
  const breakdown = DRAW_ORDER.filter((k) => (bar.byKind[k] ?? 0) > 0)
    .map((k) => `${KIND_LABELS[k]} ${formatInt(bar.byKind[k] ?? 0)}`)
    .join(", ");
  const item = el("button", { className: `token-bar${bar.selected ? " selected" : ""}`, attrs: { type: "button", "data-leaf": bar.leafId, "data-vscode-context": JSON.stringify({ webviewSection: "bar", entryId: bar.leafId, preventDefaultContextMenuItems: true }) }, ...(cost ? { title: cost } : {}) }, [head, track]);
  item.setAttribute(
    "aria-label",
    `${oneLine(bar.title, 200)}: ${formatInt(bar.total)} tokens (${SOURCE_TEXT[bar.source]}) of a ${formatInt(bar.contextWindow)} context window, ${used}%; ` +
      `auto-compaction at ${formatInt(bar.threshold)}. ${breakdown}${cost ? `. ${cost}` : ""}`,
  );
  item.addEventListener("click", () => onPick(bar.leafId));
  return item;
}

function legend(bars: TokenBar[]): HTMLElement {
  const used = new Set<TokenKind>();
  for (const b of bars) for (const k of DRAW_ORDER) if ((b.byKind[k] ?? 0) > 0) used.add(k);
  const items = DRAW_ORDER.filter((k) => used.has(k)).map((k) => el("span", { className: "legend-item" }, [el("span", { className: `swatch seg-${k}` }), document.createTextNode(KIND_LABELS[k])]));
  items.push(el("span", { className: "legend-item" }, [el("span", { className: "swatch mark-threshold" }), document.createTextNode("auto-compact")]));
  items.push(el("span", { className: "legend-item" }, [el("span", { className: "swatch mark-window" }), document.createTextNode("window")]));
  return el("div", { className: "legend", attrs: { "aria-hidden": "true" } }, items);
}

/** Stacked context bars, one per branch (named by its leaf) plus the selected path. */
export class TokenBars {
  readonly element = el("section", { className: "token-bars", attrs: { "aria-label": "Context size per branch" } });

  constructor(private readonly onPick: (leafId: string) => void) {}

  render(bars: TokenBar[]): void {
    clear(this.element);
    if (bars.length === 0) {
      this.element.appendChild(el("div", { className: "empty", text: "No branches." }));
      return;
    }
    for (const bar of bars) this.element.appendChild(barView(bar, this.onPick));
    this.element.appendChild(legend(bars));
  }
}
