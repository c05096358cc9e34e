import { seconds } from "./budgets";
import type { SummaryProgress } from "./summarizer";

export type SummaryStatusEvent = SummaryProgress | { type: "fallback"; reason: string } | { type: "writing" };

/**
 * The one-line status a progress notification shows while a summary runs: what is
 * happening, then how long it has waited of the overall budget ("waited 12 s of 300 s").
 * Returns undefined for events that change nothing shown (warnings go to the log).
 */
export function summaryStatus(): (p: SummaryStatusEvent) => string | undefined {
  const chars = new Map<string, number>();
  let doing = "waiting for the summary";
  let clock = "";
  const line = () => (clock ? `${doing} · ${clock}` : doing);
  return (p) => {
    switch (p.type) {
      case "request":
        if (p.attempt > 1) doing = `waiting for the summary (attempt ${p.attempt})`;
        return line();
      case "text": {
        chars.set(p.part, p.chars);
        const total = [...chars.values()].reduce((a, b) => a + b, 0);
        doing = `summarizing… ${total.toLocaleString("en-US")} characters`;
        return line();
      }
      case "wait":
        clock = `waited ${seconds(p.waitedMs)} of ${seconds(p.budgetMs)}`;
        return line();
      case "retry":
        clock = `waited ${seconds(p.waitedMs)} of ${seconds(p.budgetMs)}`;
        doing = `retrying in ${seconds(p.delayMs)}: ${p.reason}`;
        return line();
      case "fallback":
        return `falling back to truncation: ${p.reason}`;
      case "writing":
        return "writing the entry";
      default:
        return undefined;
    }
  };
}
