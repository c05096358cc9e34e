import type { FormatContext, PartKind, SessionFormat } from "../formats/session-format";
import type { SessionReader } from "../formats/session-reader";
import { estimateTextTokens } from "./estimate";
import { compactionThreshold, contextWindowFor, type ContextWindow } from "./model-windows";

/** The context size of one leaf for any format: recorded where the agent recorded it, estimated elsewhere. */
export interface LeafTokenSummary {
  leafId: string | null;
  model?: string;
  contextWindow: number;
  windowSource: ContextWindow["source"];
  threshold: number;
  /** What the context is believed to hold: the last recorded step still in it plus estimates after it. */
  contextTokens: number;
  /** The recorded part: input + cache writes + cache reads + output of the last step with usage still in the context. */
  recordedPart: number;
  /** Entry whose usage was used, if any. */
  recordedAt?: string;
  /** Estimated tokens of the messages after the recorded step (all of them when nothing is recorded). */
  estimatedPart: number;
  /** Estimated tokens of every message, by what it counts as. */
  byKind: Partial<Record<PartKind, number>>;
  /** Estimated tokens of every message. */
  estimated: number;
  wouldCompact: boolean;
  source: "recorded" | "estimate";
}

/** chars/4 of what a message says (its JSON content), CJK counted per character. */
export function messageTokens(message: unknown): number {
  const m = message as { content?: unknown } | null;
  const body = m && typeof m === "object" && "content" in m ? m.content : message;
  return estimateTextTokens(typeof body === "string" ? body : (JSON.stringify(body) ?? ""));
}

/** The model of a path: the last entry on it that names one. */
function modelOn(session: SessionReader, path: readonly number[]): string | undefined {
  for (let k = path.length - 1; k >= 0; k--) {
    const m = session.table.modelAt(path[k]);
    if (m) return m;
  }
  return undefined;
}

/**
 * Tokens of a leaf's context from the format's own message list: every message
 * estimated by kind; the total is the last recorded usage whose entry is still in the
 * context, plus estimates of what came after it (as pi counts its own).
 */
export function leafTokenSummary(session: SessionReader, format: SessionFormat, leaf: number, opts: { windows?: Readonly<Record<string, number>>; ctx?: FormatContext } = {}): LeafTokenSummary {
  const ctx = opts.ctx ?? format.context(session, leaf);
  const path = leaf >= 0 ? session.tree.path(leaf) : [];
  const model = modelOn(session, path);
  const win = contextWindowFor(model, opts.windows);
  const threshold = format.compactThreshold ? format.compactThreshold(win.tokens) : compactionThreshold(win.tokens);
  const byKind: Partial<Record<PartKind, number>> = {};
  const perMessage = ctx.messages.map((m) => messageTokens(m.message));
  let estimated = 0;
  ctx.messages.forEach((m, k) => {
    byKind[m.kind] = (byKind[m.kind] ?? 0) + perMessage[k];
    estimated += perMessage[k];
  });
  // The last entry with usage whose message is still in the context.
  const inContext = new Map<string, number>();
  ctx.messages.forEach((m, k) => inContext.set(m.entryId, k));
  let recordedPart = 0;
  let recordedAt: string | undefined;
  let after = 0;
  for (let k = path.length - 1; k >= 0; k--) {
    const i = path[k];
    const id = session.metas[i].id;
    const u = session.table.getUsage(i);
    if (!u || !inContext.has(id)) continue;
    const total = u.input + u.output + u.cacheRead + u.cacheWrite;
    if (total <= 0) continue;
    recordedPart = total;
    recordedAt = id;
    after = (inContext.get(id) as number) + 1;
    break;
  }
  const estimatedPart = recordedAt === undefined ? estimated : perMessage.slice(after).reduce((a, b) => a + b, 0);
  const contextTokens = recordedPart + estimatedPart;
  return {
    leafId: ctx.leafId,
    ...(model ? { model } : {}),
    contextWindow: win.tokens,
    windowSource: win.source,
    threshold,
    contextTokens,
    recordedPart,
    ...(recordedAt !== undefined ? { recordedAt } : {}),
    estimatedPart,
    byKind,
    estimated,
    wouldCompact: contextTokens > threshold,
    source: recordedAt !== undefined ? "recorded" : "estimate",
  };
}
