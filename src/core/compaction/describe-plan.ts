import { humanTokens } from "../util/human";
import { visibleText } from "../util/visible-text";
import type { CompactionPlan } from "./plan";

const shown = (s: string): string => visibleText(s);

/** What every front end shows before compacting by a cut point: the dry run, in plain lines. */
export function describePlan(plan: CompactionPlan): string[] {
  const lines = [
    `strategy: ${plan.strategy}${plan.strategy === "truncate" ? " (no LLM)" : `, model ${shown(plan.model)} (${plan.modelSource})`}`,
    `leaf: ${shown(plan.leafId)}; tokens before: ${humanTokens(plan.tokensBefore)}`,
    `cut: first kept entry ${shown(plan.firstKeptEntryId)} (${plan.cutAt}); keeps ${plan.keptMessages} message(s), ~${humanTokens(plan.keptTokens)} tokens (keepRecentTokens ${plan.settings.keepRecentTokens})`,
    `summarize: ${plan.toSummarize.length} message(s), ~${humanTokens(plan.summarizeTokens)} tokens${plan.previousSummary ? `, updating the summary of compaction ${shown(String(plan.previousCompactionId))}` : ""}`,
  ];
  if (plan.isSplitTurn) lines.push(`split turn: starts at ${shown(String(plan.turnStartEntryId))}; ${plan.turnPrefix.length} prefix message(s), ~${humanTokens(plan.turnPrefixTokens)} tokens, summarized separately`);
  if (plan.strategy !== "truncate") lines.push(`max summary tokens: ${plan.maxSummaryTokens}${plan.isSplitTurn ? `, turn prefix ${plan.maxTurnPrefixTokens}` : ""}`);
  if (plan.smart) {
    const counts = { "tool-call": 0, error: 0, long: 0 };
    for (const i of plan.smart.items) counts[i.reason]++;
    lines.push(
      `kept verbatim: ${plan.smart.items.length} item(s) (${counts["tool-call"]} tool calls, ${counts.error} errors, ${counts.long} long), ~${humanTokens(plan.smart.tokens)} of ${humanTokens(plan.smart.budget)} tokens${plan.smart.overBudget ? `; ${plan.smart.overBudget} more left to the summary` : ""}`,
    );
  }
  lines.push(`tokens after: ~${humanTokens(plan.tokensAfterEstimate)}${plan.strategy === "truncate" ? "" : " at most"}`);
  lines.push(`read files: ${listOf(plan.readFiles)}`);
  lines.push(`modified files: ${listOf(plan.modifiedFiles)}`);
  for (const n of plan.notes) lines.push(`note: ${shown(n)}`);
  return lines;
}

/** Paths for one line, each made visible; "(none)" for none. */
export function listOf(paths: readonly string[]): string {
  return paths.length ? paths.map(shown).join(", ") : "(none)";
}
