import { describePlan, listOf } from "../../compaction/describe-plan";
import { type CompactionPlanOptions, STRATEGIES } from "../../compaction/plan";
import { humanTokens } from "../../util/human";
import { visibleText } from "../../util/visible-text";
import type { FormatCompaction, FormatWriter } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { branchSession } from "./compaction/branch-summary";
import { compactSession } from "./compaction/compact";
import { type CompactionPlan, planCompaction } from "./compaction/prepare";
import { piDefaultLeaf } from "./default-leaf";
import { CURRENT_SESSION_VERSION } from "./model/entries";
import { asPi } from "./pi-session";
import { appendEntry } from "./store/append";
import { forkSession } from "./store/fork";

/** The leaf's id for pi's planners; -1 (an empty session) leaves it to them, and they say so. */
function leafIdOf(session: SessionReader, leaf: number): string | undefined {
  return leaf < 0 ? undefined : session.table.idAt(leaf);
}

/** pi's plan at a leaf (-1: the planner says the session is empty); settings and model as asked. */
function planAt(session: SessionReader, leaf: number, opts: CompactionPlanOptions = {}): CompactionPlan {
  return planCompaction(asPi(session), { leafId: leafIdOf(session, leaf), strategy: opts.strategy, settings: opts.settings, model: opts.model });
}

/** pi's /compact: summarize, smart or truncate before a cut point found by keepRecentTokens. */
export const piCompaction: FormatCompaction = {
  fallbackNote: "falling back to truncate",
  strategies: STRATEGIES,
  plan: planAt,
  // An empty plan is refused by the planner (NothingToCompactError), so a dry run always has work.
  dryRun: (session, leaf, opts) => ({ lines: describePlan(planAt(session, leaf, opts)), nothingToDo: false }),
  async run(session, leaf, opts) {
    const out = await compactSession(asPi(session), { ...opts, leafId: leafIdOf(session, leaf) });
    const p = out.plan;
    const lines = [
      `entry: ${visibleText(out.entry.id)} (compaction, parent ${visibleText(p.leafId)}); strategy ${out.strategy}${out.fallbackReason ? " (fallback)" : ""}${out.strategy === "truncate" ? "" : `, model ${visibleText(out.model ?? p.model)}`}`,
      `tokens: ${humanTokens(out.tokensBefore)} -> ~${humanTokens(out.tokensAfter)}`,
      `first kept entry: ${visibleText(p.firstKeptEntryId)}; summarized ${p.toSummarize.length + p.turnPrefix.length} message(s)${p.isSplitTurn ? " (split turn)" : ""}`,
      `read files: ${listOf(p.readFiles)}`,
      `modified files: ${listOf(p.modifiedFiles)}`,
    ];
    return { ...out, entryId: out.entry.id, lines };
  },
};

/** pi writes version 3 files: append (labels, compactions, branch summaries) and fork. */
export const piWriter: FormatWriter = {
  capabilities: { fork: true, label: true, compact: true, continue: true },
  refuses(session) {
    const v = asPi(session).version;
    if (v < CURRENT_SESSION_VERSION) return `a version ${v} session: pi writes version ${CURRENT_SESSION_VERSION} files only (fork it to get one)`;
    if (v > CURRENT_SESSION_VERSION) return `a version ${v} session: newer than this extension knows (it writes version ${CURRENT_SESSION_VERSION})`;
    return undefined;
  },
  fork: (session, entryId, opts) => forkSession(asPi(session), entryId, opts),
  compaction: piCompaction,
  // pi's /label: a label entry on the current leaf (pi's default leaf: the last entry).
  async label(session, entryId, label) {
    const s = asPi(session);
    s.requireIndex(entryId);
    const leaf = s.metas.length ? s.metas[piDefaultLeaf(s)].id : null;
    const e = await appendEntry(s, { type: "label", parentId: leaf, targetId: entryId, label });
    return e.id;
  },
  // pi's /tree: a branch_summary at the entry moves the leaf there, the branch left optionally summarized.
  async continueFrom(session, entryId, opts) {
    const out = await branchSession(asPi(session), { ...opts, targetId: entryId });
    const p = out.plan;
    const lines = [
      `entry: ${visibleText(out.entry.id)} (branch_summary, parent ${visibleText(p.targetId)}, from ${visibleText(String(p.fromLeafId))})`,
      `branch left: ${p.branchEntryIds.length} entr${p.branchEntryIds.length === 1 ? "y" : "ies"} after ${p.commonAncestorId ? visibleText(p.commonAncestorId) : "(no common ancestor)"}`,
    ];
    if (out.summarized) {
      lines.push(
        `summarized ${p.messages.length} message(s), ~${humanTokens(p.totalTokens)} tokens${p.leftOut ? ` (${p.leftOut} older left out: budget)` : ""}; model ${visibleText(p.model)}`,
        `read files: ${listOf(p.readFiles)}`,
        `modified files: ${listOf(p.modifiedFiles)}`,
      );
    } else {
      lines.push(`summary: (empty${opts.summarize ? ": nothing on the branch to summarize" : ""})`);
    }
    return { entryId: out.entry.id, summarized: out.summarized, lines };
  },
};
