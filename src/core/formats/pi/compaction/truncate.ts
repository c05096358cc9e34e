import { formatFileLists, stripFileLists } from "./serialize";

/**
 * The `truncate` strategy (and the fallback when the LLM is unavailable): no LLM, the
 * part before the cut is dropped. The kept part starts at pi's cut point, which is never
 * a tool result, so no tool result is left without its call (prepare refuses the one
 * case where pi would do that). The summary text says plainly that nothing was
 * summarized, so neither the agent nor the user mistakes it for a real summary.
 */
export const TRUNCATION_MARKER = "[TRUNCATED - NOT A SUMMARY]";

export interface TruncationInput {
  toSummarize: readonly unknown[];
  turnPrefix: readonly unknown[];
  summarizeTokens: number;
  turnPrefixTokens: number;
  isSplitTurn: boolean;
  previousSummary?: string;
  readFiles: readonly string[];
  modifiedFiles: readonly string[];
}

export function truncationSummary(plan: TruncationInput, reason?: string): string {
  const dropped = plan.toSummarize.length + plan.turnPrefix.length;
  const tokens = plan.summarizeTokens + plan.turnPrefixTokens;
  const lines = [
    TRUNCATION_MARKER,
    `${dropped} earlier message(s) (about ${tokens} tokens) were removed from the context without being summarized${reason ? ` because ${reason}` : ""} (Agent Session Explorer, strategy "truncate").`,
    "Details from that part are not available here; ask the user if they are needed.",
  ];
  if (plan.isSplitTurn) lines.push("The kept messages start in the middle of a turn: the request that began it was removed.");
  let text = lines.join("\n");
  if (plan.previousSummary) {
    text += `\n\nSummary of the conversation before that part, from the previous compaction:\n\n${stripFileLists(plan.previousSummary)}`;
  }
  return text + formatFileLists(plan.readFiles, plan.modifiedFiles);
}
