import { humanTokens } from "../util/human";
import { visibleText } from "../util/visible-text";
import { isZeroDifference, type Reconciliation } from "./reconcile";

const money = (n: number | null) => (n === null ? "-" : `$${n.toFixed(4)}`);

function signed(d: number | null, recorded: number): string {
  if (d === null) return "-";
  if (isZeroDifference(d, recorded)) return "0";
  return `${d > 0 ? "+" : "-"}$${Math.abs(d).toFixed(6)}`;
}

/**
 * A reconciliation as plain text: per model, the agent's recorded cost beside our price
 * for the same tokens and the difference; then what only we priced and what nobody did.
 * Model names are session text: hidden characters marked, long names cut with their length.
 */
export function reconcileText(r: Reconciliation): string {
  const name = (m: string) => {
    const v = visibleText(m);
    return v.length > 60 ? `${v.slice(0, 48)}…(${v.length} chars)` : v;
  };
  const head = ["model", "steps", "tokens", "agent recorded", "our price", "difference", "priced by us only", "unpriced"];
  const rows = r.rows.map((x) => [
    `${name(x.model)}${x.priceKey !== null ? ` [${x.priceSource === "override" ? "setting" : "table"}: ${name(x.priceKey)}]` : " [no price]"}`,
    String(x.steps),
    humanTokens(x.tokens.input + x.tokens.output + x.tokens.cacheRead + x.tokens.cacheWrite),
    x.recordedSteps ? `${money(x.recordedUsd)} (${x.recordedSteps})` : "-",
    money(x.pricedRecordedUsd),
    signed(x.difference, x.recordedUsd),
    x.pricedOnlySteps ? `${money(x.pricedOnlyUsd)} (${x.pricedOnlySteps})` : "-",
    x.unpricedSteps ? String(x.unpricedSteps) : "-",
  ]);
  const t = r.total;
  rows.push(["all models", String(t.steps), humanTokens(t.tokens.input + t.tokens.output + t.tokens.cacheRead + t.tokens.cacheWrite), t.recordedSteps ? `${money(t.recordedUsd)} (${t.recordedSteps})` : "-", money(t.pricedRecordedUsd), signed(t.difference, t.recordedUsd), t.pricedOnlySteps ? `${money(t.pricedOnlyUsd)} (${t.pricedOnlySteps})` : "-", t.unpricedSteps ? String(t.unpricedSteps) : "-"]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c].length)));
  const line = (cells: string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join("  ").trimEnd();
  const out = [
    "reconciliation: the agent's own recorded cost beside our price for the same tokens (steps in brackets)",
    line(head),
    ...rows.slice(0, -1).map(line),
    line(rows[rows.length - 1]),
  ];
  if (t.recordedSteps === 0) out.push("the agent recorded no cost for these steps: the total is our price alone");
  else if (t.difference !== null && isZeroDifference(t.difference, t.recordedUsd)) out.push("where the agent recorded a cost, our price for the same tokens is the same");
  return `${out.join("\n")}\n`;
}
