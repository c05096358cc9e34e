import { buildContext } from "../context/build-context";
import type { CompactionEntry } from "../model/entries";
import { appendEntry, assertWritableVersion } from "../store/append";
import type { Session } from "../pi-session";
import { estimateMessageTokens } from "../tokens/pi-estimate";
import { CancelledError, SummaryError } from "../../../compaction/llm-errors";
import { type CompactionPlan, type PlanOptions, planCompaction } from "./prepare";
import {
  conversationBlock,
  mergeSplitTurn,
  NEW_SUMMARY_PROMPT,
  NO_EARLIER_HISTORY,
  previousSummaryBlock,
  SMART_NOTE,
  SYSTEM_PROMPT,
  TURN_PREFIX_PROMPT,
  UPDATE_SUMMARY_PROMPT,
  withInstructions,
} from "../../../compaction/prompts";
import { formatFileLists, serializeConversation, stripFileLists } from "./serialize";
import type { CompactionOutcome as NeutralOutcome, CompactionProgress } from "../../../compaction/plan";
import { summaryFallbackModel } from "../../../compaction/summary-model";
import { verbatimBlock } from "./smart-select";
import { type LlmOptions, requestSummary, type SummaryProgress, type SummaryUsage } from "../../../compaction/summarizer";
import { truncationSummary } from "./truncate";

export type { CompactionProgress };

export interface CompactOptions extends PlanOptions {
  /** Needed for summarize and smart (and ignored by truncate). */
  llm?: LlmOptions;
  customInstructions?: string;
  /** After the retries of a transient failure (429/529/5xx/network/timeout), write a truncation instead. */
  allowFallback?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: CompactionProgress) => void;
}

/** What was written: the neutral outcome (src/core/compaction/plan.ts) with pi's entry and plan; front ends get lines from the writer hook. */
export interface CompactionOutcome extends Omit<NeutralOutcome, "entryId" | "lines" | "plan"> {
  entry: CompactionEntry;
  plan: CompactionPlan;
}

/** Refused before any work: old files must be forked first, newer ones are not ours to write. */
export function assertWritable(session: Session): void {
  assertWritableVersion(session);
}

/**
 * Plans, summarizes and appends one compaction entry, as pi's /compact does. Nothing
 * is written unless the summary is complete, the run was not cancelled and the file
 * is unchanged since it was loaded (appendEntry checks); otherwise it throws and the
 * file is byte-identical.
 */
export async function compactSession(session: Session, opts: CompactOptions = {}): Promise<CompactionOutcome> {
  assertWritable(session);
  session.checkUnchanged();
  const plan = planCompaction(session, { ...opts, model: opts.llm?.model ?? opts.model });
  let summary: string;
  let strategy = plan.strategy;
  let fallbackReason: string | undefined;
  let usage: SummaryUsage | undefined;
  let model: string | undefined;
  if (plan.strategy === "truncate") {
    summary = plan.truncateSummary as string;
  } else {
    if (!opts.llm?.apiKey) throw new SummaryError("auth", "no API key given (set ANTHROPIC_API_KEY); nothing written");
    try {
      const res = await summarizePlan(plan, opts.llm, opts);
      summary = res.summary;
      usage = res.usage;
      model = res.model;
    } catch (err) {
      if (!(err instanceof SummaryError) || !err.retryable || !opts.allowFallback || opts.signal?.aborted) throw err;
      fallbackReason = err.message;
      opts.onProgress?.({ type: "fallback", reason: err.message });
      summary = truncationSummary(plan, `the summary could not be made (${err.message})`);
      strategy = "truncate";
    }
  }
  if (opts.signal?.aborted) throw new CancelledError();
  opts.onProgress?.({ type: "writing" });
  // Field order as pi's appendCompaction writes them.
  const entry = (await appendEntry(session, {
    type: "compaction",
    parentId: plan.leafId,
    summary,
    firstKeptEntryId: plan.firstKeptEntryId,
    tokensBefore: plan.tokensBefore,
    details: { readFiles: plan.readFiles, modifiedFiles: plan.modifiedFiles },
  })) as CompactionEntry;
  const after = buildContext(session, entry.id);
  const tokensAfter = after.agent.reduce((n, p) => n + estimateMessageTokens(p.agent), 0);
  return { entry, plan, strategy, fallbackReason, tokensBefore: plan.tokensBefore, tokensAfter, usage, model };
}

/** The LLM part: history and (for a split turn) turn prefix in parallel, then merged. */
export async function summarizePlan(
  plan: CompactionPlan,
  llm: LlmOptions,
  opts: { customInstructions?: string; signal?: AbortSignal; onProgress?: (p: SummaryProgress) => void },
): Promise<{ summary: string; usage: SummaryUsage; model: string }> {
  // If one request fails the other is stopped: a half summary is never written anyway.
  const ctl = new AbortController();
  const onAbort = () => ctl.abort();
  opts.signal?.addEventListener("abort", onAbort, { once: true });
  if (opts.signal?.aborted) ctl.abort();
  const call = { ...llm, model: plan.model, fallbackModel: summaryFallbackModel(plan.modelSource), signal: ctl.signal, onProgress: opts.onProgress };
  const smart = plan.smart;
  const historyText = smart ? smart.historyText : serializeConversation(plan.toSummarize.map((m) => m.agent));
  const prefixText = smart ? smart.turnPrefixText : serializeConversation(plan.turnPrefix.map((m) => m.agent));
  const note = smart?.items.length ? `\n\n${SMART_NOTE}` : "";

  const history = async (): Promise<{ text: string; usage?: SummaryUsage; model?: string }> => {
    if (!plan.toSummarize.length) {
      // Nothing new before the split turn: keep the previous summary as it was.
      return { text: plan.previousSummary ? stripFileLists(plan.previousSummary) : NO_EARLIER_HISTORY };
    }
    const base = plan.previousSummary ? UPDATE_SUMMARY_PROMPT : NEW_SUMMARY_PROMPT;
    const prompt =
      conversationBlock(historyText) +
      (plan.previousSummary ? previousSummaryBlock(stripFileLists(plan.previousSummary)) : "") +
      withInstructions(base, opts.customInstructions) +
      note;
    const r = await requestSummary({ part: "history", system: SYSTEM_PROMPT, prompt, maxTokens: plan.maxSummaryTokens }, call);
    return { text: r.text, usage: r.usage, model: r.model };
  };
  const prefix = async (): Promise<{ text: string; usage?: SummaryUsage; model?: string } | undefined> => {
    if (!plan.isSplitTurn || !plan.turnPrefix.length) return undefined;
    const prompt = conversationBlock(prefixText) + TURN_PREFIX_PROMPT + note;
    const r = await requestSummary({ part: "turn-prefix", system: SYSTEM_PROMPT, prompt, maxTokens: plan.maxTurnPrefixTokens }, call);
    return { text: r.text, usage: r.usage, model: r.model };
  };
  const guard = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      ctl.abort();
      throw err;
    });
  try {
    const [h, p] = await Promise.all([guard(history()), guard(prefix())]);
    let summary = p ? mergeSplitTurn(h.text, p.text) : h.text;
    if (smart) summary += verbatimBlock(smart.items);
    summary += formatFileLists(plan.readFiles, plan.modifiedFiles);
    return { summary, usage: addUsage(h.usage, p?.usage), model: h.model ?? p?.model ?? plan.model };
  } catch (err) {
    // The first failure wins; the sibling's "cancelled" is only its echo.
    if (opts.signal?.aborted) throw new CancelledError();
    throw err;
  } finally {
    opts.signal?.removeEventListener("abort", onAbort);
  }
}

function addUsage(a?: SummaryUsage, b?: SummaryUsage): SummaryUsage {
  const z = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const x = a ?? z;
  const y = b ?? z;
  return { input: x.input + y.input, output: x.output + y.output, cacheRead: x.cacheRead + y.cacheRead, cacheWrite: x.cacheWrite + y.cacheWrite };
}
