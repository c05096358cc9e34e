import { seconds } from "../../core/compaction/budgets";
import { compactClawdcode, type StampedSession } from "../../core/formats/clawdcode/compaction";
import { type ClawdcodeCompactionPlan, FALLBACK_KEEP_PERCENT, keepCountFor, planClawdcodeCompaction, THRESHOLD_PERCENT } from "../../core/formats/clawdcode/compaction-plan";
import { MAX_FILE_LINES, MAX_FILES, readRankedFiles } from "../../core/formats/clawdcode/file-ranking";
import { type CliIO, CliError } from "../cli-error";
import { humanTokens, safeText } from "../format";
import { requireEntry } from "../load";
import { cliLlmOptions, summaryProgressPrinter } from "../summary-flags";

/** The flags `ase compact` takes; only some mean something for a clawdcode session. */
export interface ClawdcodeCompactFlags {
  leaf?: string;
  "dry-run"?: boolean;
  strategy?: string;
  instructions?: string;
  model?: string;
  "keep-recent"?: string;
  reserve?: string;
}

/** The dry run of a clawdcode compaction, in plain lines (what the design would do, nothing written). */
export function describeClawdcodePlan(plan: ClawdcodeCompactionPlan, included: readonly string[]): string[] {
  const ranked = plan.rankedFiles.map((f) => `${safeText(f.path)} (${f.modified ? "modified, " : ""}${f.mentions} mention${f.mentions === 1 ? "" : "s"})`);
  return [
    `leaf: ${safeText(plan.leafUuid)}; context: ${plan.messageCount} message(s)${plan.boundary ? ` after the compact boundary ${safeText(plan.boundary)}` : ""}`,
    `tokens before: ${humanTokens(plan.tokensBefore)} (${plan.tokensBeforeSource === "usage" ? "recorded usage + estimate after it" : "estimate"}); window ${humanTokens(plan.contextWindow)} (${safeText(plan.model ?? "no model recorded")}): the agent compacts at ${THRESHOLD_PERCENT}% = ${humanTokens(plan.threshold)}, ${plan.overThreshold ? "reached" : "not reached"}`,
    `summarize: ${plan.toSummarize.length} message(s); keep the last ${plan.keepCount} (${plan.keepPercent}%, rounded up)${plan.droppedOrphans.length ? `, minus ${plan.droppedOrphans.length} tool result(s) whose call is summarized: ${plan.droppedOrphans.map(safeText).join(", ")}` : ""}`,
    `kept: ${plan.kept.length} message(s), ~${humanTokens(plan.keptTokens)} tokens, re-written after the summary with new uuids`,
    `if the summary fails: keep the last ${keepCountFor(plan.messageCount, FALLBACK_KEEP_PERCENT)} (${FALLBACK_KEEP_PERCENT}%) with a failure summary`,
    `ranked files: ${ranked.length ? ranked.join(", ") : "(none)"}`,
    `files for the summary (up to ${MAX_FILES}, ${MAX_FILE_LINES} lines each, from ${plan.cwd ? safeText(plan.cwd) : "no cwd"}): ${included.length ? included.map(safeText).join(", ") : "(none)"}`,
  ];
}

/** `ase compact` on a clawdcode session: the seed's one strategy, a dry run first. */
export async function compactClawdcodeCli(session: StampedSession, values: ClawdcodeCompactFlags, io: CliIO, totalMs: number | undefined): Promise<void> {
  if (values.strategy !== undefined && values.strategy !== "summarize") {
    throw new CliError(`${session.path}: a clawdcode session is compacted one way (summarize the oldest 80%, keep 30% with a failure summary if that fails); --strategy ${safeText(values.strategy)} is for pi sessions`);
  }
  for (const flag of ["keep-recent", "reserve"] as const) {
    if (values[flag] !== undefined) throw new CliError(`${session.path}: --${flag} is for pi sessions; a clawdcode session keeps the last 20% of its messages`);
  }
  const leaf = requireEntry(session, values.leaf, "leaf");
  if (leaf < 0) throw new CliError(`${session.path}: the session has no entries; nothing written`);
  if (values["dry-run"]) {
    let plan: ClawdcodeCompactionPlan;
    try {
      plan = planClawdcodeCompaction(session, leaf);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    const included = readRankedFiles(plan.cwd, plan.rankedFiles).map((f) => f.path);
    io.out(`dry run for ${safeText(session.path)} (clawdcode; nothing written)\n`);
    for (const l of describeClawdcodePlan(plan, included)) io.out(`  ${l}\n`);
    if (!plan.toSummarize.length) io.out("  note: nothing to compact: every message would be kept\n");
    return;
  }
  const apiKey = io.env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new CliError("nothing written: ANTHROPIC_API_KEY is not set");
  const started = Date.now();
  const print = summaryProgressPrinter(io, "compact");
  const out = await compactClawdcode(session, {
    leaf,
    customInstructions: values.instructions,
    llm: cliLlmOptions(io, apiKey, values.model, totalMs),
    onProgress: (p) => {
      if (p.type === "fallback") io.err(`ase compact: note: the summary failed (${safeText(p.reason)}); keeping the last ${FALLBACK_KEEP_PERCENT}% with a failure summary\n`);
      else print(p);
    },
  });
  io.out(`compacted ${safeText(session.path)} (clawdcode) in ${seconds(Date.now() - started)}\n`);
  io.out(`  boundary: ${safeText(out.boundaryUuid)} (parent ${safeText(out.plan.leafUuid)}); summary ${safeText(out.summaryUuid)}${out.fallbackReason ? " (failure summary: the summarizer failed)" : `, model ${safeText(out.model ?? "?")}`}\n`);
  io.out(`  kept: ${out.keptUuids.length} message(s) re-written; new leaf ${safeText(out.leafUuid)}; summarized ${out.plan.toSummarize.length}${out.plan.droppedOrphans.length ? `; dropped ${out.plan.droppedOrphans.length} orphan tool result(s)` : ""}\n`);
  io.out(`  tokens: ${humanTokens(out.tokensBefore)} -> ~${humanTokens(out.tokensAfter)}\n`);
  io.out(`  files included: ${out.filesIncluded.length ? out.filesIncluded.map(safeText).join(", ") : "(none)"}\n`);
}
