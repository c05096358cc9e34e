import type { FormatContext, PartKind, SessionFormat } from "../session/session-format";
import type { SessionReader } from "../session/session-reader";
import { estimateTextTokens, IMAGE_TOKENS } from "../tokens/estimate";
import { compactionThreshold, contextWindowFor, type ContextWindow } from "../tokens/model-windows";

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
  /**
   * What the agent sent that its file does not hold (system prompt, tool definitions,
   * project instructions, environment): the recorded input of the last recorded step
   * minus our estimate of the messages before it. Left out when nothing is recorded.
   */
  overhead?: UnrecordedOverhead;
  /**
   * The compaction written after the last recorded usage on the path: that usage measured
   * the context before it, so the size is an estimate (the messages, plus the overhead the
   * usage showed) until the next response records one.
   */
  staleAfterCompaction?: string;
}

/** The recorded input of one step against our own count of the messages it was sent. */
export interface UnrecordedOverhead {
  /** recordedInput - estimatedMessages: may be negative where chars/4 overcounts. */
  tokens: number;
  /** input + cache writes + cache reads of the step (its output left out). */
  recordedInput: number;
  /** chars/4 of the context's messages before that step. */
  estimatedMessages: number;
  /** The step: the entry holding the usage. */
  at: string;
  /** What the parts are, in the agent's words (SessionFormat.unrecordedParts). */
  parts: string;
}

/** What a file of a format without its own description leaves out of what is sent. */
export const UNRECORDED_PARTS = "system prompt and tool definitions";

type Block = { type?: unknown; content?: unknown } | null;

/** Image blocks in a content array (a tool result's own content included, walked with a stack). */
function countImages(blocks: readonly unknown[]): number {
  let n = 0;
  const todo: Array<readonly unknown[]> = [blocks];
  for (let list = todo.pop(); list; list = todo.pop()) {
    for (const b of list) {
      const x = b as Block;
      if (x?.type === "image") n++;
      else if (Array.isArray(x?.content)) todo.push(x.content);
    }
  }
  return n;
}

/** The blocks without their images (a tool result's own content included, copied with a stack, not recursion). */
function withoutImages(blocks: readonly unknown[]): unknown[] {
  const root: unknown[] = [];
  const todo: Array<{ from: readonly unknown[]; to: unknown[] }> = [{ from: blocks, to: root }];
  for (let job = todo.pop(); job; job = todo.pop()) {
    for (const b of job.from) {
      const x = b as Block;
      if (x?.type === "image") continue;
      if (x && Array.isArray(x.content)) {
        const content: unknown[] = [];
        job.to.push({ ...x, content });
        todo.push({ from: x.content, to: content });
      } else job.to.push(b);
    }
  }
  return root;
}

/**
 * chars/4 of what a message says (its JSON content), CJK counted per character; an
 * image counts as the fixed IMAGE_TOKENS the index gives it, not as its base64 text
 * (a screenshot is about a million characters of it).
 */
export function messageTokens(message: unknown): number {
  const m = message as { content?: unknown } | null;
  const body = m && typeof m === "object" && "content" in m ? m.content : message;
  if (typeof body === "string") return estimateTextTokens(body);
  const images = Array.isArray(body) ? countImages(body) : 0;
  if (!images) return estimateTextTokens(JSON.stringify(body) ?? "");
  return estimateTextTokens(JSON.stringify(withoutImages(body as unknown[]))) + images * IMAGE_TOKENS;
}

/**
 * The id of a compaction written after entry i whose summary the context holds, if any:
 * the context was compacted since i's usage was recorded. (Looked for among the context's
 * messages, not the tree's path: Claude Code moves kept messages under the summary.)
 */
function compactionAfter(session: SessionReader, format: SessionFormat, ctx: FormatContext, i: number): string | undefined {
  for (const m of ctx.messages) {
    const j = session.tree.indexOf(m.entryId);
    if (j === undefined || j <= i) continue;
    const kind = format.describe(session, j).kind;
    if (kind === "boundary" || kind === "summary") return m.entryId;
  }
  return undefined;
}

/**
 * The overhead a usage written before a compaction showed: its recorded input against our
 * estimate of the messages sent with it, which are the context at that entry (before the
 * compaction), not the compacted one.
 */
function overheadBefore(session: SessionReader, format: SessionFormat, i: number, recordedInput: number): UnrecordedOverhead {
  const msgs = format.context(session, i).messages;
  let estimatedMessages = 0;
  for (let k = 0; k < msgs.length - 1; k++) estimatedMessages += messageTokens(msgs[k].message);
  return { tokens: recordedInput - estimatedMessages, recordedInput, estimatedMessages, at: session.metas[i].id, parts: format.unrecordedParts ?? UNRECORDED_PARTS };
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
  const table = contextWindowFor(model, opts.windows);
  // A window the file records beats the table, not the user's override.
  const fromFile = table.source === "override" ? undefined : format.recordedWindow?.(session, leaf);
  const win: ContextWindow = fromFile ? { tokens: fromFile, source: "recorded" } : table;
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
  // A response written over several lines is one message (under its first line's id) with the usage on its last line.
  const byResponse = new Map<string, number>();
  if (format.responseId) {
    for (const [id, k] of inContext) {
      const i = session.tree.indexOf(id);
      const r = i === undefined ? undefined : format.responseId(session, i);
      if (r !== undefined && !byResponse.has(r)) byResponse.set(r, k);
    }
  }
  const messageOf = (i: number): number | undefined => {
    const k = inContext.get(session.metas[i].id);
    if (k !== undefined || !format.responseId) return k;
    const r = format.responseId(session, i);
    return r === undefined ? undefined : byResponse.get(r);
  };
  let recordedPart = 0;
  let recordedAt: string | undefined;
  let after = 0;
  let overhead: UnrecordedOverhead | undefined;
  let staleAt: string | undefined;
  for (let k = path.length - 1; k >= 0; k--) {
    const i = path[k];
    const u = session.table.getUsage(i);
    if (!u) continue;
    const total = u.input + u.output + u.cacheRead + u.cacheWrite;
    const at = total > 0 ? messageOf(i) : undefined;
    if (at === undefined) continue;
    const recordedInput = u.input + u.cacheRead + u.cacheWrite;
    const estimatedMessages = perMessage.slice(0, at).reduce((a, b) => a + b, 0);
    if (recordedInput > 0) overhead = { tokens: recordedInput - estimatedMessages, recordedInput, estimatedMessages, at: session.metas[i].id, parts: format.unrecordedParts ?? UNRECORDED_PARTS };
    // A usage written before the latest compaction on the path measured the context as it
    // was before it (pi's rule: the size is unknown until the next response); the messages
    // are estimated, plus the overhead that usage showed (system prompt and tools stay).
    staleAt = compactionAfter(session, format, ctx, i);
    if (staleAt !== undefined) {
      overhead = recordedInput > 0 ? overheadBefore(session, format, i, recordedInput) : undefined;
      break;
    }
    recordedPart = total;
    recordedAt = session.metas[i].id;
    after = at + 1;
    break;
  }
  const estimatedPart = recordedAt === undefined ? estimated : perMessage.slice(after).reduce((a, b) => a + b, 0);
  const carried = staleAt !== undefined && overhead && overhead.tokens > 0 ? overhead.tokens : 0;
  const contextTokens = recordedPart + estimatedPart + carried;
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
    ...(overhead ? { overhead } : {}),
    ...(staleAt !== undefined ? { staleAfterCompaction: staleAt } : {}),
  };
}

/** The overhead as one plain line, for the CLI and the preview: what it is, how big, how it was found. */
export function overheadLine(o: UnrecordedOverhead): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return `Not in the file (${o.parts}), estimated: ${n(o.tokens)} tokens of unrecorded overhead = recorded input ${n(o.recordedInput)} at ${o.at} - our estimate ${n(o.estimatedMessages)} of the messages sent with it.`;
}
