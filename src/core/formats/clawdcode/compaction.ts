import { randomUUID } from "node:crypto";
import { CancelledError, SummaryError } from "../../compaction/llm-errors";
import { SYSTEM_PROMPT } from "../../compaction/prompts";
import { DEFAULT_SUMMARY_MODEL } from "../../compaction/summary-model";
import { type LlmOptions, requestSummary, type SummaryProgress, type SummaryUsage } from "../../compaction/summarizer";
import { type AppendTarget, appendToSession } from "../../store/append-line";
import { charsToTokens } from "../../tokens/estimate";
import type { SessionReader } from "../../session/session-reader";
import { type ClawdcodeCompactionPlan, type ClawdcodePlanOptions, FALLBACK_KEEP_PERCENT, KEEP_PERCENT, planClawdcodeCompaction } from "./compaction-plan";
import { failureSummary, summaryPrompt } from "./compaction-prompt";
import { type IncludedFile, readRankedFiles } from "./file-ranking";
import { COMPACT_BOUNDARY, type ClawdcodeLine } from "./lines";

/** A session read from a file: the one append road (appendToSession) re-checks its stamp, undoes a short write and reads the lines in. */
export type StampedSession = SessionReader & AppendTarget;

export const DEFAULT_SUMMARY_MAX_TOKENS = 8192;

export type ClawdcodeCompactionProgress = SummaryProgress | { type: "fallback"; reason: string } | { type: "writing" };

export interface ClawdcodeCompactOptions extends ClawdcodePlanOptions {
  /** The leaf to compact; default: the last line (the seed's default leaf). */
  leaf?: number;
  llm?: LlmOptions;
  customInstructions?: string;
  /** Keep 30% with the failure summary when the summary cannot be made. Default true. */
  fallback?: boolean;
  /** Read the ranked files from the session's cwd into the summary prompt. Default true. */
  readFiles?: boolean;
  /** The folders the user opened: files are read only when the session's cwd is inside one (none given, none read). */
  project?: readonly string[];
  maxSummaryTokens?: number;
  trigger?: "manual" | "auto";
  signal?: AbortSignal;
  onProgress?: (p: ClawdcodeCompactionProgress) => void;
  now?: () => Date;
}

export interface ClawdcodeCompactionOutcome {
  /** The plan that was written (the 30% one after a fallback). */
  plan: ClawdcodeCompactionPlan;
  boundaryUuid: string;
  summaryUuid: string;
  /** Uuids of the re-written kept messages, in order. */
  keptUuids: string[];
  /** The new last line: where the session continues. */
  leafUuid: string;
  summary: string;
  filesIncluded: string[];
  tokensBefore: number;
  tokensAfter: number;
  fallbackReason?: string;
  usage?: SummaryUsage;
  model?: string;
}

/** The model the summary is asked of: the caller's, else the session's Claude model, else ours. */
function summaryModel(plan: ClawdcodeCompactionPlan, requested?: string): { model: string; fallbackModel?: string } {
  if (requested) return { model: requested };
  if (plan.model && plan.model.startsWith("claude-")) return { model: plan.model, fallbackModel: DEFAULT_SUMMARY_MODEL };
  return { model: DEFAULT_SUMMARY_MODEL };
}

/** Whether a failed summary may fall back: not when cancelled, nor for a wrong key (the user must fix it). */
function mayFallBack(err: unknown, opts: ClawdcodeCompactOptions): err is SummaryError {
  return err instanceof SummaryError && err.kind !== "cancelled" && err.kind !== "auth" && opts.fallback !== false && !opts.signal?.aborted;
}

/**
 * The lines a compaction appends: the boundary (parent: the last line before it), the
 * summary (parent: the boundary), then each kept message re-written with a new uuid,
 * chained. Copies keep their fields but lose recorded usage (it measured a request made
 * with the context before compaction) and a summary flag (only the new summary is one).
 */
export function compactionLines(
  session: SessionReader,
  plan: ClawdcodeCompactionPlan,
  summary: string,
  meta: { trigger: "manual" | "auto"; filesIncluded: string[]; now: Date },
): { lines: ClawdcodeLine[]; tokensAfter: number } {
  const last = session.entryAt(plan.leaf) as unknown as ClawdcodeLine;
  const timestamp = meta.now.toISOString();
  const envelope = (uuid: string, parentUuid: string, type: string): ClawdcodeLine => {
    const l: ClawdcodeLine = { uuid, parentUuid, sessionId: last.sessionId, timestamp, type };
    if (last.cwd !== undefined) l.cwd = last.cwd;
    if (last.gitBranch !== undefined) l.gitBranch = last.gitBranch;
    if (last.version !== undefined) l.version = last.version;
    return l;
  };
  const tokensAfter = charsToTokens(summary.length) + plan.keptTokens;
  const boundary: ClawdcodeLine = {
    ...envelope(randomUUID(), plan.leafUuid, "system"),
    message: { role: "system", content: "Conversation compacted" },
    subtype: COMPACT_BOUNDARY,
    compactMetadata: { trigger: meta.trigger, preTokens: plan.tokensBefore, postTokens: tokensAfter, filesIncluded: meta.filesIncluded },
  };
  const summaryLine: ClawdcodeLine = { ...envelope(randomUUID(), boundary.uuid, "user"), message: { role: "user", content: summary }, isCompactSummary: true };
  const lines = [boundary, summaryLine];
  let parent = summaryLine.uuid;
  for (const it of plan.kept) {
    const { isCompactSummary: _flag, ...rest } = it.line;
    const copy: ClawdcodeLine = { ...rest, uuid: randomUUID(), parentUuid: parent, timestamp };
    if (copy.message?.usage) {
      const { usage: _u, ...m } = copy.message;
      copy.message = m;
    }
    lines.push(copy);
    parent = copy.uuid;
  }
  return { lines, tokensAfter };
}

/**
 * Compacts a clawdcode session as the seed's agent does: summarize all but the last 20%
 * of the leaf's messages (the ranked files read into the prompt), drop kept tool results
 * whose call was summarized, and append boundary + summary + re-written kept messages in
 * one write under the session lock, only if the file is unchanged since it was read.
 * When the summary fails (not cancelled, not a bad key) it keeps 30% with the failure
 * summary instead. On any error nothing is written and the file is byte-identical.
 */
export async function compactClawdcode(session: StampedSession, opts: ClawdcodeCompactOptions = {}): Promise<ClawdcodeCompactionOutcome> {
  // A first look at a large file ends early: its last line is not the file's, nor is its tree whole.
  if (!session.complete) throw new Error(`${session.path}: only the first part of the file is read; read all of it before compacting; nothing written`);
  session.checkUnchanged();
  const leaf = opts.leaf ?? session.metas.length - 1;
  let plan = planClawdcodeCompaction(session, leaf, { ...opts, keepPercent: opts.keepPercent ?? KEEP_PERCENT });
  if (!plan.toSummarize.length) {
    throw new Error(`${session.path}: nothing to compact: the context has ${plan.messageCount} message(s) and all are kept; nothing written`);
  }
  if (!opts.llm?.apiKey) throw new SummaryError("auth", "no API key given (set ANTHROPIC_API_KEY); nothing written");
  const files: IncludedFile[] = opts.readFiles === false ? [] : readRankedFiles(plan.cwd, plan.rankedFiles, opts.project ?? []).included;
  const { model, fallbackModel } = summaryModel(plan, opts.llm.model);
  let summary: string;
  let filesIncluded = files.map((f) => f.path);
  let usage: SummaryUsage | undefined;
  let usedModel: string | undefined;
  let fallbackReason: string | undefined;
  try {
    const res = await requestSummary(
      { part: "history", system: SYSTEM_PROMPT, prompt: summaryPrompt(plan.toSummarize, files, opts.customInstructions), maxTokens: opts.maxSummaryTokens ?? DEFAULT_SUMMARY_MAX_TOKENS },
      { ...opts.llm, model, fallbackModel, signal: opts.signal, onProgress: opts.onProgress },
    );
    summary = res.text;
    usage = res.usage;
    usedModel = res.model;
  } catch (err) {
    if (opts.signal?.aborted) throw new CancelledError();
    if (!mayFallBack(err, opts)) throw err;
    fallbackReason = err.message;
    opts.onProgress?.({ type: "fallback", reason: err.message });
    plan = planClawdcodeCompaction(session, leaf, { ...opts, keepPercent: FALLBACK_KEEP_PERCENT });
    summary = failureSummary(plan.toSummarize.length, err.message);
    filesIncluded = [];
  }
  if (opts.signal?.aborted) throw new CancelledError();
  opts.onProgress?.({ type: "writing" });
  const { lines, tokensAfter } = compactionLines(session, plan, summary, { trigger: opts.trigger ?? "manual", filesIncluded, now: (opts.now ?? (() => new Date()))() });
  // All lines in one write, or none; a torn last line gets its newline first.
  await appendToSession(session, lines);
  return {
    plan,
    boundaryUuid: lines[0].uuid,
    summaryUuid: lines[1].uuid,
    keptUuids: lines.slice(2).map((l) => l.uuid),
    leafUuid: lines[lines.length - 1].uuid,
    summary,
    filesIncluded,
    tokensBefore: plan.tokensBefore,
    tokensAfter,
    fallbackReason,
    usage,
    model: usedModel,
  };
}
