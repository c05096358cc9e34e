import type { ModelRef, SessionContext, SourceKind } from "../context/build-context";
import type { Session } from "../pi-session";
import { piDefaultLeaf } from "../default-leaf";
import { contextTokens } from "./context-tokens";
import type { EntryTokens } from "../../../tokens/entry-tokens";
import type { LeafTokenOptions } from "../../../tokens/leaf-token-options";
import { compactionThreshold, type ContextWindow, contextWindowFor, DEFAULT_RESERVE_TOKENS } from "../../../tokens/model-windows";
import { figureOf, roundCounts, type TokenMethod } from "../../../tokens/token-method";
import type { KindCounts } from "../../../tokens/kind-counts";

/** Kept for the extension's panel until it takes them from src/core/tokens (issue 26, h-host): the lead removes it at merge. */
export type { LeafTokenOptions };

/** A leaf's context size as pi computes it, and where pi's auto-compaction stands. */
export interface LeafTokens {
  leafId: string | null;
  model: ModelRef | null;
  /** pi's rule: last trusted recorded usage on the context + chars/4 of what follows. */
  contextTokens: number;
  /** The part of contextTokens that is recorded usage, and the part that is estimated. */
  recorded: number;
  estimated: number;
  /** The assistant entry whose usage was used, if any. */
  usageEntryId?: string;
  contextWindow: number;
  windowSource: ContextWindow["source"];
  reserveTokens: number;
  /** contextWindow - reserveTokens. */
  threshold: number;
  /** pi compacts when contextTokens > threshold. */
  wouldCompact: boolean;
}

export function leafTokens(ctx: SessionContext, opts: LeafTokenOptions = {}): LeafTokens {
  const ct = contextTokens(ctx);
  const win = contextWindowFor(ctx.model?.modelId, opts.windows);
  const reserveTokens = opts.reserveTokens ?? DEFAULT_RESERVE_TOKENS;
  const threshold = compactionThreshold(win.tokens, reserveTokens);
  const out: LeafTokens = {
    leafId: ctx.leafId,
    model: ctx.model,
    contextTokens: ct.tokens,
    recorded: ct.recorded,
    estimated: ct.estimated,
    contextWindow: win.tokens,
    windowSource: win.source,
    reserveTokens,
    threshold,
    wouldCompact: ct.tokens > threshold,
  };
  if (ct.usageAt >= 0) out.usageEntryId = ctx.agent[ct.usageAt].entryId;
  return out;
}

/** One entry's slice of a leaf's context bar. */
export interface ContextShare {
  entryId: string;
  /** Position in file order. */
  index: number;
  /** How the entry entered the context (a compaction stands for its summary and retained tail). */
  source: SourceKind;
  tokens: number;
  byKind: KindCounts;
  /** tokens / ContextShares.scale: the fraction of the bar. */
  share: number;
}

/**
 * A leaf's context bar: one slice per entry in context order, plus `overhead`, what pi's
 * context size holds beyond the entries' own figures (system prompt, tool definitions,
 * per-message framing). Shares are of `scale` = max(contextTokens, sum of slices), so
 * they never exceed 1 even when the chosen figures overshoot the recorded size.
 */
export interface ContextShares {
  contextTokens: number;
  method: TokenMethod;
  parts: ContextShare[];
  overhead: number;
  overheadShare: number;
  scale: number;
}

export function contextShares(session: Session, table: readonly EntryTokens[], ctx: SessionContext, ctxTokens: number, method: TokenMethod = "best"): ContextShares {
  const seen = new Set<string>();
  const parts: ContextShare[] = [];
  let sum = 0;
  for (const p of ctx.agent) {
    if (seen.has(p.entryId)) continue;
    seen.add(p.entryId);
    const index = session.requireIndex(p.entryId);
    const f = roundCounts(figureOf(table[index], method).byKind);
    parts.push({ entryId: p.entryId, index, source: p.kind === "retained-tail" ? "compaction-summary" : p.kind, tokens: f.tokens, byKind: f.byKind, share: 0 });
    sum += f.tokens;
  }
  const scale = Math.max(ctxTokens, sum, 1);
  for (const part of parts) part.share = part.tokens / scale;
  const overhead = Math.max(0, ctxTokens - sum);
  return { contextTokens: ctxTokens, method, parts, overhead, overheadShare: overhead / scale, scale };
}

/**
 * The first paint of a leaf's bar, from the index alone (no entry body is read, so it is
 * instant even on a 100 MB session): the entries pi's buildContext would select, with
 * pi's chars/4 figures, and pi's context size from the recorded usage in the index.
 * Exact for every session except a compaction with a `retainedTail` (its messages are
 * inside the compaction entry; `approximate` is then true). buildContext + contextShares
 * replace it once bodies are read.
 */
export interface InstantLeafBar {
  leafId: string;
  /** Positions of the entries in the context, in context order. */
  entries: number[];
  contextTokens: number;
  approximate: boolean;
}

const CARRIES = new Set(["message", "custom_message", "branch_summary"]);

export function instantLeafBar(session: Session, leaf = piDefaultLeaf(session)): InstantLeafBar {
  const metas = session.metas;
  const path = session.tree.path(leaf);
  let compactionAt = -1;
  for (let k = 0; k < path.length; k++) if (metas[path[k]].type === "compaction") compactionAt = k;
  const carries = (i: number) => CARRIES.has(metas[i].type) && !(metas[i].type === "branch_summary" && metas[i].emptySummary);
  const entries: number[] = [];
  let approximate = false;
  if (compactionAt < 0) {
    for (const i of path) if (carries(i)) entries.push(i);
  } else {
    const c = metas[path[compactionAt]];
    entries.push(path[compactionAt]);
    approximate = !!c.hasRetainedTail;
    if (!c.hasRetainedTail) {
      const from = path.findIndex((i, k) => k < compactionAt && metas[i].id === c.firstKeptEntryId);
      if (from >= 0) for (let k = from; k < compactionAt; k++) if (carries(path[k])) entries.push(path[k]);
    }
    for (let k = compactionAt + 1; k < path.length; k++) if (carries(path[k])) entries.push(path[k]);
  }
  let tokens = 0;
  let k = entries.length - 1;
  for (; k >= 0; k--) {
    const m = metas[entries[k]];
    if (m.role === "assistant" && m.usage && m.stopReason !== "aborted" && m.stopReason !== "error") {
      const u = m.usage;
      tokens = u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
      break;
    }
  }
  for (let j = k + 1; j < entries.length; j++) tokens += metas[entries[j]].estimate;
  return { leafId: metas[leaf].id, entries, contextTokens: tokens, approximate };
}
