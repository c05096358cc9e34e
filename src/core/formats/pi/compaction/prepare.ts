import { buildContext } from "../context/build-context";
import { fileActivity, piFileLists } from "../file-ops";
import type { CompactionEntry, SessionEntry } from "../model/entries";
import type { AgentMessage } from "../model/messages";
import { carriesContext, piEntryMessage } from "../context/entry-message";
import type { Session } from "../pi-session";
import { contextTokens } from "../tokens/context-tokens";
import { estimateMessageTokens } from "../tokens/pi-estimate";
import { findCutPoint } from "./cut-point";
import { piDefaultLeaf } from "../default-leaf";
import { type CompactionSettings, type CompactionStrategy, summaryMaxTokens, turnPrefixMaxTokens, withDefaults } from "./settings";
import { resolveSummaryModel } from "../../../compaction/summary-model";
import { type CompactionPlan as NeutralPlan, NothingToCompactError } from "../../../compaction/plan";
import { type SmartSelection, selectSmart } from "./smart-select";
import { truncationSummary } from "./truncate";

/** A message headed for the summarizer, with the entry it came from. */
export interface PlannedMessage {
  entryId: string;
  agent: AgentMessage;
  tokens: number;
}

/**
 * Everything a compaction would do, computed without any network: the dry run. The
 * neutral plan (src/core/compaction/plan.ts) with pi's messages for the summarizer;
 * file lists are cumulative over earlier compactions, pi's rules.
 */
export interface CompactionPlan extends NeutralPlan {
  toSummarize: PlannedMessage[];
  turnPrefix: PlannedMessage[];
  smart?: SmartSelection;
}

export interface PlanOptions {
  leafId?: string;
  strategy?: CompactionStrategy;
  settings?: Partial<CompactionSettings>;
  model?: string;
}

export { NothingToCompactError };

/** pi's getMessageFromEntry for compaction: messages, custom messages, branch summaries. */
export function entryAgentMessage(entry: SessionEntry): AgentMessage | undefined {
  return piEntryMessage(entry)?.agent;
}

/**
 * pi's prepareCompaction over the path root..leaf: after an earlier compaction, the cut
 * is searched from that compaction's first kept entry (what it kept verbatim was never
 * summarized), or from just after it when that entry is not on the path; what lies
 * between there and the cut is summarized, and the previous summary is passed on for a
 * rolling update.
 */
export function planCompaction(session: Session, opts: PlanOptions = {}): CompactionPlan {
  const settings = withDefaults(opts.settings);
  const strategy = opts.strategy ?? "summarize";
  const tree = session.tree;
  if (tree.size === 0) throw new NothingToCompactError(`${session.path}: the session has no entries`);
  const leaf = opts.leafId === undefined ? piDefaultLeaf(session) : session.requireIndex(opts.leafId);
  const path = tree.path(leaf);
  const metas = path.map((i) => session.metas[i]);
  if (metas[metas.length - 1].type === "compaction") throw new NothingToCompactError("the leaf is a compaction already; nothing new to compact");

  let prev = -1;
  for (let k = metas.length - 1; k >= 0; k--) if (metas[k].type === "compaction") { prev = k; break; }
  const previous = prev >= 0 ? (session.entryAt(path[prev]) as CompactionEntry) : undefined;
  const keptBefore = previous ? metas.findIndex((m) => m.id === previous.firstKeptEntryId) : -1;
  const start = keptBefore >= 0 ? keptBefore : prev + 1;
  const end = metas.length;
  const cut = findCutPoint(metas, start, end, settings.keepRecentTokens);
  const notes: string[] = [];

  // With no valid cut point pi would keep from `start`, which may be a tool result cut
  // off from its call. We never write that: move on to the next message that may lead.
  const firstKept = cut.firstKept;
  const firstMsg = metas.findIndex((m, k) => k >= firstKept && m.type === "message");
  if (firstMsg >= 0 && metas[firstMsg].role === "toolResult") {
    throw new NothingToCompactError("no valid cut point since the last compaction (only tool results): the first kept message would be a tool result cut off from its call; nothing to compact");
  }
  const historyEnd = cut.isSplitTurn ? cut.turnStart : firstKept;
  const read = (from: number, to: number): PlannedMessage[] => {
    const out: PlannedMessage[] = [];
    for (let k = from; k < to; k++) {
      if (!carriesContext(metas[k].type)) continue;
      const agent = entryAgentMessage(session.entryAt(path[k]));
      if (agent) out.push({ entryId: metas[k].id, agent, tokens: estimateMessageTokens(agent) });
    }
    return out;
  };
  const toSummarize = read(start, historyEnd);
  const turnPrefix = cut.isSplitTurn ? read(cut.turnStart, firstKept) : [];
  if (!toSummarize.length && !turnPrefix.length) {
    throw new NothingToCompactError(
      `nothing to compact: everything since ${prev < 0 ? "the start" : keptBefore >= 0 ? "what the last compaction kept" : "the last compaction"} fits in keepRecentTokens (${settings.keepRecentTokens})`,
    );
  }

  let keptTokens = 0;
  let keptMessages = 0;
  for (let k = firstKept; k < end; k++) {
    const m = metas[k];
    if (!carriesContext(m.type) || m.excluded || m.emptySummary) continue;
    keptTokens += m.estimate;
    keptMessages++;
  }

  // File lists: tool calls in everything summarized, plus the previous compaction's details.
  const filePositions = [...(prev >= 0 ? [path[prev]] : [])];
  for (let k = start; k < firstKept; k++) if (metas[k].type === "message" && metas[k].role === "assistant") filePositions.push(path[k]);
  const { readFiles, modifiedFiles } = piFileLists(fileActivity(session, filePositions));

  const ctx = buildContext(session, metas[end - 1].id);
  const { model, source } = resolveSummaryModel(ctx.model, opts.model);
  if (previous?.fromHook) notes.push("the previous compaction was written by an extension (fromHook); its file lists are not carried over");
  if (cut.isSplitTurn) notes.push(`the cut splits a turn: its first ${turnPrefix.length} message(s) get their own summary`);
  if (metas[firstKept].type !== "message") notes.push(`${metas[firstKept].type} entries just before the cut are kept with the recent part`);

  const plan: CompactionPlan = {
    sessionPath: session.path,
    leafId: metas[end - 1].id,
    strategy,
    settings,
    tokensBefore: contextTokens(ctx).tokens,
    firstKeptEntryId: metas[firstKept].id,
    cutAt: metas[firstKept].type === "message" ? String(metas[firstKept].role) : metas[firstKept].type,
    isSplitTurn: cut.isSplitTurn,
    turnStartEntryId: cut.isSplitTurn ? metas[cut.turnStart].id : undefined,
    previousCompactionId: previous?.id,
    previousSummary: previous?.summary,
    toSummarize,
    turnPrefix,
    summarizeTokens: sum(toSummarize),
    turnPrefixTokens: sum(turnPrefix),
    keptTokens,
    keptMessages,
    readFiles,
    modifiedFiles,
    model,
    modelSource: source,
    maxSummaryTokens: summaryMaxTokens(settings),
    maxTurnPrefixTokens: turnPrefixMaxTokens(settings),
    tokensAfterEstimate: 0,
    notes,
  };
  if (strategy === "truncate") {
    plan.truncateSummary = truncationSummary(plan);
    plan.tokensAfterEstimate = keptTokens + Math.ceil(plan.truncateSummary.length / 4);
  } else {
    if (strategy === "smart") plan.smart = selectSmart(plan);
    const verbatim = plan.smart ? plan.smart.tokens : 0;
    plan.tokensAfterEstimate = keptTokens + plan.maxSummaryTokens + (cut.isSplitTurn ? plan.maxTurnPrefixTokens : 0) + verbatim;
  }
  return plan;
}

function sum(list: PlannedMessage[]): number {
  return list.reduce((n, m) => n + m.tokens, 0);
}
