import { contextWindowFor } from "../../tokens/model-windows";
import type { SessionReader } from "../../session/session-reader";
import { buildClawdcodeContext, type ClawdcodeContextItem, dropOrphans } from "./context";
import { rankFiles, type RankedFile } from "./file-ranking";
import type { ClawdcodeLine } from "./lines";

/** The design keeps the last 20% of the messages; its fallback (no summary) keeps 30%. */
export const KEEP_PERCENT = 20;
export const FALLBACK_KEEP_PERCENT = 30;
/** The agent compacts on its own at 80% of the model's window. */
export const THRESHOLD_PERCENT = 80;

export interface ClawdcodePlanOptions {
  /** Share of the messages kept, in percent (whole numbers: 20, 30). */
  keepPercent?: number;
  /** The model's window; else looked up from the session's model. */
  contextWindow?: number;
  windowOverrides?: Readonly<Record<string, number>>;
}

/** What a compaction of a leaf would do, computed from the session alone (a dry run shows it). */
export interface ClawdcodeCompactionPlan {
  leaf: number;
  leafUuid: string;
  /** The boundary the current context starts after, if any. */
  boundary: string | null;
  /** The context's messages when planned. */
  messageCount: number;
  keepPercent: number;
  /** ceil(n x share), at least 1 (at most n). */
  keepCount: number;
  toSummarize: ClawdcodeContextItem[];
  /** The last keepCount messages minus the orphans: re-written after the summary. */
  kept: ClawdcodeContextItem[];
  /** Kept tool results whose tool_use is summarized: not re-written. */
  droppedOrphans: string[];
  /** Files of the summarized tool calls, best first (all of them; at most MAX_FILES are read). */
  rankedFiles: RankedFile[];
  /** Context size now: the newest recorded usage plus estimates after it, else estimates. */
  tokensBefore: number;
  tokensBeforeSource: "usage" | "estimate";
  /** chars/4 of the kept messages (the summary comes on top). */
  keptTokens: number;
  model: string | undefined;
  contextWindow: number;
  threshold: number;
  /** tokensBefore >= 80% of the window: the agent would compact on its own. */
  overThreshold: boolean;
  /** The cwd of the session's lines ("" when none says). */
  cwd: string;
}

/** The context size at which the agent compacts on its own: 80% of the window. */
export function clawdcodeCompactThreshold(contextWindow: number): number {
  return Math.floor((contextWindow * THRESHOLD_PERCENT) / 100);
}

/**
 * Messages kept of n at `percent`: ceil(n x percent / 100), at least 1. The share is a
 * whole percentage so that no share worked out in floating point (1 - 0.7 is
 * 0.30000000000000004: ceil(10 x that) is 4) can shift the cut by one.
 */
export function keepCountFor(n: number, percent: number): number {
  if (n <= 0) return 0;
  return Math.min(n, Math.max(1, Math.ceil((n * percent) / 100)));
}

/** The context size the agent would see: recorded usage where it exists, chars/4 for the rest. */
function tokensOf(session: SessionReader, items: readonly ClawdcodeContextItem[]): { tokens: number; source: "usage" | "estimate" } {
  let estimate = 0;
  for (let k = items.length - 1; k >= 0; k--) {
    const u = session.table.getUsage(items[k].index);
    if (u) return { tokens: u.input + u.output + estimate, source: "usage" };
    estimate += session.table.estimates[items[k].index];
  }
  return { tokens: estimate, source: "estimate" };
}

function modelOf(session: SessionReader, items: readonly ClawdcodeContextItem[]): string | undefined {
  for (let k = items.length - 1; k >= 0; k--) {
    const m = session.table.modelAt(items[k].index);
    if (m) return m;
  }
  return undefined;
}

/** The pure plan of a compaction at `leaf` (the default leaf when -1 is not meant: pass it). */
export function planClawdcodeCompaction(session: SessionReader, leaf: number, opts: ClawdcodePlanOptions = {}): ClawdcodeCompactionPlan {
  if (leaf < 0 || leaf >= session.metas.length) throw new Error(`${session.path}: nothing to compact: the session has no line ${leaf < 0 ? "at all" : `at position ${leaf}`}`);
  const percent = opts.keepPercent ?? KEEP_PERCENT;
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new Error(`keep share must be a whole percentage from 1 to 100, got ${percent}`);
  const ctx = buildClawdcodeContext(session, leaf);
  const n = ctx.items.length;
  const keepCount = keepCountFor(n, percent);
  const toSummarize = ctx.items.slice(0, n - keepCount);
  // The kept part alone decides orphans: a result whose call is summarized has no call left.
  const { kept, dropped } = dropOrphans(ctx.items.slice(n - keepCount));
  const before = tokensOf(session, ctx.items);
  const model = modelOf(session, ctx.items);
  const contextWindow = opts.contextWindow ?? contextWindowFor(model, opts.windowOverrides).tokens;
  const threshold = clawdcodeCompactThreshold(contextWindow);
  let cwd = "";
  for (const i of session.tree.path(leaf).reverse()) {
    const c = (session.entryAt(i) as unknown as ClawdcodeLine).cwd;
    if (typeof c === "string" && c) {
      cwd = c;
      break;
    }
  }
  return {
    leaf,
    leafUuid: session.table.idAt(leaf),
    boundary: ctx.boundary,
    messageCount: n,
    keepPercent: percent,
    keepCount,
    toSummarize,
    kept,
    droppedOrphans: dropped.map((d) => d.line.uuid),
    rankedFiles: rankFiles(toSummarize),
    tokensBefore: before.tokens,
    tokensBeforeSource: before.source,
    keptTokens: kept.reduce((s, it) => s + session.table.estimates[it.index], 0),
    model,
    contextWindow,
    threshold,
    overThreshold: before.tokens >= threshold,
    cwd,
  };
}
