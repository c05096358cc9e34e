import { buildContext } from "../context/build-context";
import { fileActivity, piFileLists } from "../file-ops";
import type { BranchSummaryEntry, SessionEntry } from "../model/entries";
import type { AgentMessage } from "../model/messages";
import { appendEntry } from "../store/append";
import type { Session } from "../pi-session";
import { estimateMessageTokens } from "../tokens/pi-estimate";
import { assertWritable } from "./compact";
import { CancelledError, SummaryError } from "../../../compaction/llm-errors";
import { piEntryMessage } from "../context/entry-message";
import { piDefaultLeaf } from "../default-leaf";
import { entryAgentMessage, type PlannedMessage } from "./prepare";
import { BRANCH_SUMMARY_INTRO, BRANCH_SUMMARY_PROMPT, conversationBlock, SYSTEM_PROMPT } from "../../../compaction/prompts";
import { formatFileLists, serializeConversation } from "./serialize";
import { contextWindowFor } from "../../../tokens/model-windows";
import { BRANCH_SUMMARY_MAX_TOKENS, DEFAULT_COMPACTION_SETTINGS } from "./settings";
import { resolveSummaryModel, summaryFallbackModel } from "../../../compaction/summary-model";
import { type LlmOptions, requestSummary, type SummaryProgress, type SummaryUsage } from "../../../compaction/summarizer";

/** What moving the leaf to `targetId` would summarize (pi's /tree), computed offline. */
export interface BranchPlan {
  sessionPath: string;
  fromLeafId: string;
  targetId: string;
  commonAncestorId: string | null;
  /** Entries on the branch being left (after the common ancestor up to the old leaf). */
  branchEntryIds: string[];
  /** Messages that fit the budget, oldest first (the walk takes the newest first). */
  messages: PlannedMessage[];
  /** Messages left out because the budget was spent. */
  leftOut: number;
  totalTokens: number;
  budgetTokens: number;
  readFiles: string[];
  modifiedFiles: string[];
  model: string;
  modelSource: "requested" | "session" | "default";
}

export interface BranchPlanOptions {
  targetId: string;
  /** The leaf being left; default the session's leaf (its last entry). */
  fromLeafId?: string;
  model?: string;
  /** Input budget = contextWindow - reserveTokens, as pi sizes it (default: the summary model's window). */
  contextWindow?: number;
  /** Context windows by model id or prefix, beating the built-in table (a setting). */
  windows?: Readonly<Record<string, number>>;
  reserveTokens?: number;
}

/** Like compaction's, plus earlier compactions (their summary is branch context); tool results are skipped (the call says enough). */
function branchMessage(entry: SessionEntry): AgentMessage | undefined {
  if (entry.type === "compaction") return typeof entry.summary === "string" ? piEntryMessage(entry, { compactions: true })?.agent : undefined;
  if (entry.type === "message" && (entry.message as { role?: string }).role === "toolResult") return undefined;
  return entryAgentMessage(entry);
}

export function planBranch(session: Session, opts: BranchPlanOptions): BranchPlan {
  const tree = session.tree;
  const target = session.requireIndex(opts.targetId);
  const from = opts.fromLeafId === undefined ? piDefaultLeaf(session) : session.requireIndex(opts.fromLeafId);
  const ancestor = tree.commonAncestor(from, target);
  const branch: number[] = [];
  // The tree's parents, not the raw parentIds: the reader cut any parent cycle there (a raw walk loops forever).
  for (let cur: number = from; cur >= 0 && cur !== ancestor; cur = tree.parent[cur]) branch.push(cur);
  branch.reverse();
  const { model, source } = resolveSummaryModel(buildContext(session, session.metas[from].id).model, opts.model);
  // The summary model's own window (the known-models table), unless the caller says.
  const window = opts.contextWindow ?? contextWindowFor(model, opts.windows).tokens;
  const budget = window - (opts.reserveTokens ?? DEFAULT_COMPACTION_SETTINGS.reserveTokens);

  // Newest first within the budget; a summary entry that overflows still gets in while
  // under 90% of the budget, because it stands for a lot of history.
  const messages: PlannedMessage[] = [];
  const filePositions = branch.filter((i) => session.metas[i].type === "branch_summary");
  let total = 0;
  let k = branch.length - 1;
  for (; k >= 0; k--) {
    const i = branch[k];
    const m = session.metas[i];
    if (m.type !== "message" && m.type !== "custom_message" && m.type !== "branch_summary" && m.type !== "compaction") continue;
    const agent = branchMessage(session.entryAt(i));
    if (!agent) continue;
    if (m.type === "message" && m.role === "assistant") filePositions.push(i);
    const tokens = estimateMessageTokens(agent);
    if (budget > 0 && total + tokens > budget) {
      if ((m.type === "compaction" || m.type === "branch_summary") && total < budget * 0.9) {
        messages.unshift({ entryId: m.id, agent, tokens });
        total += tokens;
      }
      break;
    }
    messages.unshift({ entryId: m.id, agent, tokens });
    total += tokens;
  }
  // Everything older than where the walk stopped (the entry it stopped at included,
  // unless it got in as a summary) is left out.
  let leftOut = 0;
  for (let j = k; j >= 0; j--) {
    const m = session.metas[branch[j]];
    if (m.type !== "message" && m.type !== "custom_message" && m.type !== "branch_summary" && m.type !== "compaction") continue;
    if (messages.length && messages[0].entryId === m.id) continue;
    if (m.type === "message" && m.role === "toolResult") continue;
    if (m.type === "branch_summary" && m.emptySummary) continue;
    leftOut++;
  }
  const { readFiles, modifiedFiles } = piFileLists(fileActivity(session, filePositions.sort((a, b) => a - b)));
  return {
    sessionPath: session.path,
    fromLeafId: session.metas[from].id,
    targetId: session.metas[target].id,
    commonAncestorId: ancestor >= 0 ? session.metas[ancestor].id : null,
    branchEntryIds: branch.map((i) => session.metas[i].id),
    messages,
    leftOut,
    totalTokens: total,
    budgetTokens: budget,
    readFiles,
    modifiedFiles,
    model,
    modelSource: source,
  };
}

export interface BranchOptions extends BranchPlanOptions {
  /** Summarize the branch being left; without it an empty summary just moves the leaf. */
  summarize?: boolean;
  llm?: LlmOptions;
  customInstructions?: string;
  signal?: AbortSignal;
  onProgress?: (p: SummaryProgress | { type: "writing" }) => void;
}

export interface BranchOutcome {
  entry: BranchSummaryEntry;
  plan: BranchPlan;
  summarized: boolean;
  usage?: SummaryUsage;
}

/**
 * The `fromId` pi's branchWithSummary writes: the navigation target itself (the entry's
 * parent), `"root"` when there is none. Not the leaf being left, whatever pi's docs say.
 */
export function branchSummaryFromId(parentId: string | null): string {
  return parentId ?? "root";
}

/**
 * pi's /tree move: a branch_summary entry whose parent is the target, fromId as pi
 * writes it (see branchSummaryFromId). The new entry becomes the last line, so the move
 * lasts when pi opens the file. Same safety as compaction: one line, only when complete.
 */
export async function branchSession(session: Session, opts: BranchOptions): Promise<BranchOutcome> {
  assertWritable(session);
  session.checkUnchanged();
  const plan = planBranch(session, { ...opts, model: opts.llm?.model ?? opts.model });
  if (plan.fromLeafId === plan.targetId) throw new Error(`the leaf is ${plan.targetId} already; nothing to do`);
  let summary = "";
  let details: { readFiles: string[]; modifiedFiles: string[] } | undefined;
  let usage: SummaryUsage | undefined;
  if (opts.summarize && plan.messages.length) {
    if (!opts.llm?.apiKey) throw new SummaryError("auth", "no API key given (set ANTHROPIC_API_KEY); nothing written");
    const custom = opts.customInstructions?.trim();
    const prompt = conversationBlock(serializeConversation(plan.messages.map((m) => m.agent))) + (custom || BRANCH_SUMMARY_PROMPT);
    const res = await requestSummary(
      { part: "branch", system: SYSTEM_PROMPT, prompt, maxTokens: BRANCH_SUMMARY_MAX_TOKENS },
      { ...opts.llm, model: plan.model, fallbackModel: summaryFallbackModel(plan.modelSource), signal: opts.signal, onProgress: opts.onProgress },
    );
    summary = BRANCH_SUMMARY_INTRO + res.text + formatFileLists(plan.readFiles, plan.modifiedFiles);
    details = { readFiles: plan.readFiles, modifiedFiles: plan.modifiedFiles };
    usage = res.usage;
  }
  if (opts.signal?.aborted) throw new CancelledError("branch summary");
  opts.onProgress?.({ type: "writing" });
  const entry = (await appendEntry(session, {
    type: "branch_summary",
    parentId: plan.targetId,
    fromId: branchSummaryFromId(plan.targetId),
    summary,
    ...(details ? { details } : {}),
  })) as BranchSummaryEntry;
  return { entry, plan, summarized: summary !== "", usage };
}
