import type { Row, SubagentView } from "../src/protocol";
import { humanUsd } from "../src/core/util/human";
import { clipText } from "../src/core/util/visible-text";
import { el, formatTokens, TITLE_MAX, visible } from "./dom";

type Cue = NonNullable<Row["subagents"]>;

/** What of a call's sub-agents changes its row's look (for the row painter's cache key). */
export function subagentKey(row: Row): string {
  const c = row.subagents;
  if (!c) return row.nested ? `n${row.nested.indent}` : "";
  return `${c.expanded}|${c.agents.map((a) => (a.figures ? `${a.figures.steps}:${a.figures.usd}:${a.figures.source}` : a.found)).join(",")}`;
}

/** One sub-agent for a person: "Agent (Explore): Survey the test suite". */
export function agentTitle(a: Pick<SubagentView, "agentType" | "description">): string {
  return `Agent${a.agentType ? ` (${a.agentType})` : ""}${a.description ? `: ${a.description}` : ""}`;
}

/** One sub-agent's figures in words, saying where they come from. */
function figuresLine(a: SubagentView): string {
  const f = a.figures;
  if (!f) return a.found ? "not read yet: expand the row to read its transcript" : "its transcript is not beside the session";
  const cost = f.unpricedSteps === f.steps ? "no price for its model" : `${humanUsd(f.usd)}${f.unpricedSteps ? ` (${f.unpricedSteps} steps unpriced)` : ""}`;
  const context = `its context at its end ${f.source === "estimate" ? "~" : ""}${formatTokens(f.contextTokens)} of ${formatTokens(f.contextWindow)} (${f.source === "estimate" ? "estimated: no usage recorded" : "recorded usage"})`;
  return `${f.steps} steps, ${cost}; ${context}`;
}

/**
 * The chip of a call row that started sub-agents: their steps and cost once read ("2 steps ·
 * $0.04", "~" where the context is an estimate), "sub-agent" before; the tooltip names each.
 */
export function subagentChip(cue: Cue): HTMLElement {
  const known = cue.agents.filter((a) => a.figures);
  let text = cue.agents.length > 1 ? `${cue.agents.length} sub-agents` : "sub-agent";
  if (known.length === cue.agents.length) {
    const steps = known.reduce((n, a) => n + (a.figures?.steps ?? 0), 0);
    const usd = known.reduce((n, a) => n + (a.figures?.usd ?? 0), 0);
    const estimate = known.some((a) => a.figures?.source === "estimate");
    text = `${estimate ? "~" : ""}${steps} steps · ${humanUsd(usd)}`;
  }
  const tip = visible(clipText(cue.agents.map((a) => `${agentTitle(a)}\n  ${figuresLine(a)}`).join("\n"), TITLE_MAX));
  return el("span", { className: "chip subagent-chip", text, title: tip });
}
