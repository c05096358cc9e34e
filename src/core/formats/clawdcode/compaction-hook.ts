import { humanTokens } from "../../util/human";
import { clipField } from "../../util/visible-text";
import type { FormatCompaction } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { compactClawdcode, type StampedSession } from "./compaction";
import { type ClawdcodeCompactionPlan, FALLBACK_KEEP_PERCENT, keepCountFor, planClawdcodeCompaction, THRESHOLD_PERCENT } from "./compaction-plan";
import { type FileChoice, MAX_FILE_LINES, MAX_FILES, readRankedFiles } from "./file-ranking";

/** The dry run of a clawdcode compaction, in plain lines (what the design would do; nothing written). */
export function describeClawdcodePlan(plan: ClawdcodeCompactionPlan, included: readonly string[], notRead: FileChoice["notRead"] = []): string[] {
  const ranked = plan.rankedFiles.map((f) => `${clipField(f.path)} (${f.modified ? "modified, " : ""}${f.mentions} mention${f.mentions === 1 ? "" : "s"})`);
  return [
    `leaf: ${plan.leafUuid}; context: ${plan.messageCount} message(s)${plan.boundary ? ` after the compact boundary ${plan.boundary}` : ""}`,
    `tokens before: ${humanTokens(plan.tokensBefore)} (${plan.tokensBeforeSource === "usage" ? "recorded usage + estimate after it" : "estimate"}); window ${humanTokens(plan.contextWindow)} (${plan.model ?? "no model recorded"}): the agent compacts at ${THRESHOLD_PERCENT}% = ${humanTokens(plan.threshold)}, ${plan.overThreshold ? "reached" : "not reached"}`,
    `summarize: ${plan.toSummarize.length} message(s); keep the last ${plan.keepCount} (${plan.keepPercent}%, rounded up)${plan.droppedOrphans.length ? `, minus ${plan.droppedOrphans.length} tool result(s) whose call is summarized: ${plan.droppedOrphans.join(", ")}` : ""}`,
    `kept: ${plan.kept.length} message(s), ~${humanTokens(plan.keptTokens)} tokens, re-written after the summary with new uuids`,
    `if the summary fails: keep the last ${keepCountFor(plan.messageCount, FALLBACK_KEEP_PERCENT)} (${FALLBACK_KEEP_PERCENT}%) with a failure summary`,
    `ranked files: ${ranked.length ? ranked.join(", ") : "(none)"}`,
    `files for the summary (up to ${MAX_FILES}, ${MAX_FILE_LINES} lines each, from ${plan.cwd || "no cwd"}): ${included.length ? included.map((p) => clipField(p)).join(", ") : "(none)"}`,
    ...(notRead.length ? [`not read: ${notRead.map((f) => `${clipField(f.path)} (${f.reason})`).join(", ")}`] : []),
  ];
}

function stamped(session: SessionReader): StampedSession {
  if (!("stamp" in session) || !("refresh" in session)) throw new Error(`${session.path}: compaction needs a session read from its file (its size and time are checked before the append)`);
  return session as StampedSession;
}

/** The seed's one way: summarize all but the last 20% (30% with a failure summary if that fails). */
export const clawdcodeCompaction: FormatCompaction = {
  fallbackNote: `keeping the last ${FALLBACK_KEEP_PERCENT}% with a failure summary`,
  dryRun(session, leaf, opts = {}) {
    const plan = planClawdcodeCompaction(session, leaf);
    const files = readRankedFiles(plan.cwd, plan.rankedFiles, opts.project ?? []);
    return { lines: describeClawdcodePlan(plan, files.included.map((f) => f.path), files.notRead), nothingToDo: plan.toSummarize.length === 0 };
  },
  async run(session, leaf, opts) {
    const out = await compactClawdcode(stamped(session), { leaf, customInstructions: opts.customInstructions, llm: opts.llm, signal: opts.signal, onProgress: opts.onProgress, project: opts.project ?? [] });
    const lines = [
      `boundary: ${out.boundaryUuid} (parent ${out.plan.leafUuid}); summary ${out.summaryUuid}${out.fallbackReason ? " (failure summary: the summarizer failed)" : `, model ${out.model ?? "?"}`}`,
      `kept: ${out.keptUuids.length} message(s) re-written; new leaf ${out.leafUuid}; summarized ${out.plan.toSummarize.length}${out.plan.droppedOrphans.length ? `; dropped ${out.plan.droppedOrphans.length} orphan tool result(s)` : ""}`,
      `tokens: ${humanTokens(out.tokensBefore)} -> ~${humanTokens(out.tokensAfter)}`,
      `files included: ${out.filesIncluded.length ? out.filesIncluded.join(", ") : "(none)"}`,
    ];
    // One way only: a failed summary still writes a summarize-shaped compaction (a failure summary).
    return {
      entryId: out.boundaryUuid,
      strategy: "summarize",
      tokensBefore: out.tokensBefore,
      tokensAfter: out.tokensAfter,
      usage: out.usage,
      model: out.model,
      lines,
      ...(out.fallbackReason ? { fallbackReason: out.fallbackReason } : {}),
    };
  },
};
