import type { SessionFormat } from "../session/session-format";
import type { SessionReader } from "../session/session-reader";
import { leafTokenSummary } from "./format-tokens";
import { KindTally, messageKindTokens, type StepComposition } from "./step-composition";
import type { TokenKind } from "../tokens/token-vocabulary";

/** The context size at one assistant step (one API response) of a path. */
export interface TimelinePoint {
  /** The step's entry: the last line of its response on the path (where the usage sits). */
  entryId: string;
  /** Position on the path root..leaf. */
  index: number;
  /** ISO time of the entry, null when it has none. */
  time: string | null;
  tokens: number;
  /**
   * recorded: input + cache reads + cache writes + output of the step's usage;
   * estimated: the size before it plus chars/4 of the messages added since.
   */
  source: "recorded" | "estimated";
  /**
   * What the context held, by kind, adding up to `tokens`: the messages' chars/4 and
   * "system" the rest (the overhead the file does not hold). Always an estimate, even
   * where `tokens` is recorded: the agent records one figure per step, not its split.
   */
  composition: StepComposition;
}

/** A compaction on the path: the context size just before and right after it. */
export interface TimelineCompaction {
  entryId: string;
  /** Position on the path root..leaf. */
  index: number;
  time: string | null;
  before: number;
  /** recorded: the agent's own figure (pi: tokensBefore; Claude Code: preTokens); estimated: the last point. */
  beforeSource: "recorded" | "estimated";
  after: number;
  /** recorded: postTokens; estimated: chars/4 of the context the compaction left. */
  afterSource: "recorded" | "estimated";
  /** What `after` held, by kind (estimated, as TimelinePoint.composition). */
  afterComposition: StepComposition;
}

/** How the context grew along one path, with the lines it is measured against. */
export interface ContextTimeline {
  leafId: string | null;
  model?: string;
  /** The model's context window. */
  window: number;
  /** Where the agent compacts on its own. */
  threshold: number;
  points: TimelinePoint[];
  compactions: TimelineCompaction[];
}

export interface TimelineOptions {
  /**
   * Stretches already measured, kept across the timelines of one session's branches (an
   * export computes several, and branches share most of their path): a stretch with the
   * same path up to its end is not read again. Held by the caller; none: nothing is kept.
   */
  memo?: TimelineMemo;
  /** Context windows by model id or id prefix (a setting, or --window as { "": n }). */
  windows?: Readonly<Record<string, number>>;
}

/** Stop reasons whose usage the agent itself does not trust (pi: an aborted or failed call). */
const UNTRUSTED_STOP = new Set(["aborted", "error"]);

/**
 * One segment of the path between compactions: the sizes of the messages of the context
 * the agent held at its end, not the messages (a stretch's context is megabytes of parsed
 * text on a large session: each is dropped as soon as it is measured, not held through
 * the next stretch).
 */
export interface Segment {
  /** Path position of the compaction opening it, or -1 for the first. */
  start: number;
  /** Whether each message is a summary (what a compaction left, with those placed before it). */
  summary: boolean[];
  /** Path position each message is placed at (an entry off the path takes the one before it). */
  at: number[];
  /** chars/4 per message. */
  tokens: Float64Array;
  /** The same split by kind. */
  splits: Array<Array<[TokenKind, number]>>;
}

/** Stretches by the path up to their end (timelineWork's key): see TimelineOptions.memo. */
export type TimelineMemo = Map<string, Segment>;

/** An empty memo, for the timelines of one session as it is. */
export function timelineMemo(): TimelineMemo {
  return new Map();
}

/** One API response on the path: its lines in path order. */
interface Step {
  positions: number[];
}

function isoTime(session: SessionReader, i: number): string | null {
  const t = session.table.times[i];
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

function recordedTokens(session: SessionReader, i: number): number | undefined {
  const u = session.table.getUsage(i);
  if (!u) return undefined;
  const stop = session.table.stopReasonAt(i);
  if (stop !== undefined && UNTRUSTED_STOP.has(stop)) return undefined;
  const total = u.input + u.cacheRead + u.cacheWrite + u.output;
  return total > 0 ? total : undefined;
}

/** The assistant steps on a path: one per response (the format's responseId), else one per entry. */
function stepsOn(session: SessionReader, format: SessionFormat, path: readonly number[]): Step[] {
  const steps: Step[] = [];
  const byResponse = new Map<string, Step>();
  path.forEach((i, k) => {
    if (session.table.roleAt(i) !== "assistant") return;
    const rid = format.responseId?.(session, i);
    const seen = rid === undefined ? undefined : byResponse.get(rid);
    if (seen) {
      seen.positions.push(k);
      return;
    }
    const step = { positions: [k] };
    steps.push(step);
    if (rid !== undefined) byResponse.set(rid, step);
  });
  return steps;
}

/**
 * The entries the timeline walks: the tree's path root..leaf (the whole history), plus
 * the lines the agent's own chain loads that the tree path misses (Claude Code: the
 * boundary and summary of a compaction that kept messages, which the tree leaves as a
 * separate root; tool results on side branches), each put in file order, where it was
 * written.
 */
export function timelinePath(session: SessionReader, format: SessionFormat, leaf: number): number[] {
  const path = session.tree.path(leaf);
  if (!format.chain) return path;
  const on = new Set(path);
  const extra = format.chain(session, leaf).filter((i) => !on.has(i)).sort((a, b) => a - b);
  if (!extra.length) return path;
  const out: number[] = [];
  let e = 0;
  for (const i of path) {
    while (e < extra.length && extra[e] < i) out.push(extra[e++]);
    out.push(i);
  }
  while (e < extra.length) out.push(extra[e++]);
  return out;
}

function segmentOf(session: SessionReader, format: SessionFormat, path: readonly number[], start: number, end: number, posOf: ReadonlyMap<number, number>): Segment {
  const messages = end >= 0 && end >= start ? format.context(session, path[end]).messages : [];
  const seg: Segment = { start, summary: [], at: [], tokens: new Float64Array(messages.length), splits: [] };
  let last = Math.max(start, 0);
  messages.forEach((m, k) => {
    const i = session.tree.indexOf(m.entryId);
    const p = i === undefined ? undefined : posOf.get(i);
    if (p !== undefined) last = p;
    seg.at.push(p ?? last);
    seg.summary.push(m.kind === "summary");
    const { total, parts } = messageKindTokens(m);
    seg.tokens[k] = total;
    seg.splits.push(parts);
  });
  return seg;
}

/**
 * The messages a compaction left (what `after` measures): the segment's messages placed
 * at or before it (pi: its summary and the kept messages) and the summaries that follow
 * it directly (Claude Code writes its summary as the line under the boundary).
 */
function leftByCompaction(seg: Segment): Set<number> {
  const left = new Set<number>();
  for (let m = 0; m < seg.at.length; m++) {
    if (seg.at[m] <= seg.start || seg.summary[m]) left.add(m);
    else break;
  }
  return left;
}

/**
 * The context size at every assistant step of the path root..leaf (timelinePath), for any format:
 * recorded where the step's usage is (input + cache reads + cache writes + output, as
 * leafTokenSummary counts it), else the size before it plus chars/4 of the messages added
 * since (the whole context's estimate where nothing earlier is known). Compactions
 * (describe kind "boundary") drop the size: before is the agent's own figure or the last
 * point, after its recorded postTokens or the estimate of what it left. The messages are
 * the agent's own context (format.context) at the end of each stretch between compactions.
 */
export function contextTimeline(session: SessionReader, leaf: number, opts: TimelineOptions = {}): ContextTimeline {
  const work = timelineWork(session, leaf, opts);
  for (;;) {
    const r = work.next();
    if (r.done) return r.value;
  }
}

/**
 * The same, giving the event loop a turn between stretches once `sliceMs` (default 15)
 * has been used, and stopping with the signal's reason when aborted: every stretch reads
 * its entries' bodies, seconds on a 100 MB session, which a host must not spend at once.
 */
export async function contextTimelineAsync(
  session: SessionReader,
  leaf: number,
  opts: TimelineOptions & { signal?: AbortSignal; sliceMs?: number; afterStretch?: () => void } = {},
): Promise<ContextTimeline> {
  const work = timelineWork(session, leaf, opts);
  const sliceMs = opts.sliceMs ?? 15;
  let slice = performance.now();
  for (;;) {
    opts.signal?.throwIfAborted();
    const r = work.next();
    if (r.done) return r.value;
    // A stretch was read (its context dropped) or found: an export trims the heap here.
    opts.afterStretch?.();
    if (performance.now() - slice > sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      slice = performance.now();
    }
  }
}

/** The work of a timeline, pausing (yield) as each stretch's context is read or found in the memo. */
function* timelineWork(session: SessionReader, leaf: number, opts: TimelineOptions): Generator<void, ContextTimeline> {
  const format = session.format;
  const valid = leaf >= 0 && leaf < session.metas.length;
  const limits = leafTokenSummary(session, format, valid ? leaf : -1, { windows: opts.windows, ctx: { leafId: null, messages: [] } });
  const head = { ...(limits.model ? { model: limits.model } : {}), window: limits.contextWindow, threshold: limits.threshold };
  if (!valid) return { leafId: null, ...head, points: [], compactions: [] };
  const path = timelinePath(session, format, leaf);
  // Made only when a stretch is read (a branch whose stretches are all in the memo needs none: a large session's path is tens of thousands long).
  let posOf: Map<number, number> | undefined;
  const cuts: number[] = [];
  path.forEach((i, k) => {
    if (format.describe(session, i).kind === "boundary") cuts.push(k);
  });
  // Stretches between compactions, each read as the context at its last entry.
  const bounds = [-1, ...cuts];
  // A stretch is named by its start and a hash of the path up to its end (the positions its messages are placed at).
  const prefix = opts.memo ? pathHashes(path, bounds.map((_, s) => (s + 1 < bounds.length ? bounds[s + 1] : path.length) - 1)) : undefined;
  const steps = stepsOn(session, format, path);
  const points: TimelinePoint[] = [];
  const compactions: TimelineCompaction[] = [];
  let next = 0;
  let prev: Segment | undefined;
  const tally = new KindTally();
  for (let s = 0; s < bounds.length; s++) {
    const end = s + 1 < bounds.length ? bounds[s + 1] : path.length;
    const key = prefix && `${bounds[s]}:${end}:${prefix.get(end - 1) ?? ""}`;
    let seg = key === undefined ? undefined : opts.memo?.get(key);
    if (!seg) {
      posOf ??= new Map(path.map((i, k) => [i, k]));
      seg = segmentOf(session, format, path, bounds[s], end - 1, posOf);
      if (key !== undefined) opts.memo?.set(key, seg);
    }
    // After each stretch, read or found in the memo: its points are made below, tens of thousands on a long path.
    yield;
    const counted = new Uint8Array(seg.at.length);
    let running = 0;
    // A compaction starts the context's composition again from what it left.
    tally.reset();
    if (seg.start >= 0) {
      const i = path[seg.start];
      const left = leftByCompaction(seg);
      const pre = session.metas[i].tokensBefore;
      const post = session.metas[i].tokensAfter;
      let estimate = 0;
      for (const m of left) {
        counted[m] = 1;
        tally.add(splitOf(seg, m));
        if (post === undefined || post <= 0) estimate += tokenOf(seg, m);
      }
      const lastPoint = points.length ? points[points.length - 1].tokens : undefined;
      const before = pre !== undefined && pre > 0 ? pre : (lastPoint ?? wholeEstimate(prev));
      const after = post !== undefined && post > 0 ? post : estimate;
      compactions.push({
        entryId: session.metas[i].id,
        index: seg.start,
        time: isoTime(session, i),
        before,
        beforeSource: pre !== undefined && pre > 0 ? "recorded" : "estimated",
        after,
        afterSource: post !== undefined && post > 0 ? "recorded" : "estimated",
        afterComposition: tally.composition(after),
      });
      running = after;
    }
    // Messages in path order, so each step adds those placed up to it once.
    const order = seg.at.map((_, m) => m).sort((a, b) => seg.at[a] - seg.at[b] || a - b);
    let cursor = 0;
    for (; next < steps.length; next++) {
      const pos = steps[next].positions;
      const last = pos[pos.length - 1];
      if (last >= end) break;
      let recorded: number | undefined;
      for (let k = pos.length - 1; k >= 0 && recorded === undefined; k--) recorded = recordedTokens(session, path[pos[k]]);
      // Every added message's size goes into the composition; an estimate adds it to the size too.
      let added = 0;
      for (; cursor < order.length && seg.at[order[cursor]] <= last; cursor++) {
        const m = order[cursor];
        if (counted[m]) continue;
        counted[m] = 1;
        tally.add(splitOf(seg, m));
        if (recorded === undefined) added += tokenOf(seg, m);
      }
      const tokens = recorded ?? running + added;
      running = tokens;
      const i = path[last];
      points.push({ entryId: session.metas[i].id, index: last, time: isoTime(session, i), tokens, source: recorded !== undefined ? "recorded" : "estimated", composition: tally.composition(tokens) });
    }
    prev = seg;
  }
  return { leafId: session.metas[leaf].id, ...head, points, compactions };
}

/** Running hashes of the path's positions (two 32-bit ones) at the places asked: the one at k names path[0..k]. */
function pathHashes(path: readonly number[], at: readonly number[]): Map<number, string> {
  const want = new Set(at);
  const out = new Map<number, string>();
  let a = 0x811c9dc5;
  let b = 7;
  path.forEach((i, k) => {
    a = Math.imul(a ^ i, 0x01000193) >>> 0;
    b = (Math.imul(b, 31) + i + 1) >>> 0;
    if (want.has(k)) out.set(k, `${a.toString(36)}.${b.toString(36)}`);
  });
  return out;
}

/** chars/4 of message m of a stretch. */
function tokenOf(seg: Segment, m: number): number {
  return seg.tokens[m];
}

/** The same split by kind (messageKindTokens). */
function splitOf(seg: Segment, m: number): Array<[TokenKind, number]> {
  return seg.splits[m];
}

function wholeEstimate(seg: Segment | undefined): number {
  let n = 0;
  if (seg) for (let m = 0; m < seg.tokens.length; m++) n += seg.tokens[m];
  return n;
}

/**
 * Where an entry sits on the path the timeline of `leaf` walks (timelinePath): its
 * position, comparable with the points' and compactions' `index`; -1 when it is not on
 * it. The chart asks it to show the step a row selected in the tree belongs to.
 */
export function timelinePosition(session: SessionReader, leaf: number, entryId: string): number {
  const i = session.tree.indexOf(entryId);
  if (i === undefined || leaf < 0 || leaf >= session.metas.length) return -1;
  return timelinePath(session, session.format, leaf).indexOf(i);
}
