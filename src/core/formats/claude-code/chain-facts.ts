import type { SessionReader } from "../../session/session-reader";
import { answeredToolIds, asLine, blocksOf, calledToolIds, type ClaudeLine, isCompactBoundary, responseId, str } from "./lines";

/** Flags of a line that decide whether it may end or join the main chain. */
export const SIDECHAIN = 1;
export const TEAM = 2;
export const FORK_BRIEFING = 4;
export const META = 8;
/** Flags rows read (describe.ts), kept here so a row needs no read of its line. */
export const TOOL_RESULT = 16;
export const RESULT_ERROR = 32;
export const COMPACT_SUMMARY = 64;

/**
 * What the chain builder needs of every entry, read once per session (and again after
 * the session grows): parents as Claude Code's loader sees them (a compact boundary is a
 * root, the compaction relinks of section 9 applied), flags, and what ties a line to an
 * API response (its message.id, the tool calls it makes or answers).
 */
export interface ChainFacts {
  readonly count: number;
  /** A sub-agent's own transcript: its first line is already a sidechain line (agent-*.jsonl). */
  readonly sidechainFile: boolean;
  /** Relinked parent position; -1 at a root or a broken link. */
  readonly parent: Int32Array;
  readonly flags: Uint8Array;
  /** message.id of assistant lines. */
  readonly response: ReadonlyArray<string | undefined>;
  /** tool_use ids each assistant line calls / each user line answers. */
  readonly calls: ReadonlyArray<readonly string[] | undefined>;
  readonly answers: ReadonlyArray<readonly string[] | undefined>;
  /** sourceToolAssistantUUID of tool-result lines, as a position. */
  readonly source: Int32Array;
  /** subtype of system lines. */
  readonly subtype: ReadonlyArray<string | undefined>;
  /** Positions of each response's fragments, in file order. */
  readonly fragments: ReadonlyMap<string, readonly number[]>;
  /** Tool-result lines by what ties them to a call: the tool_use id, the fragment (parent or source). */
  readonly resultsByCall: ReadonlyMap<string, readonly number[]>;
  readonly resultsByFragment: ReadonlyMap<number, readonly number[]>;
}

function push<K>(m: Map<K, number[]>, k: K, v: number): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

const cache = new WeakMap<SessionReader, ChainFacts>();

function flagsOf(l: ClaudeLine): number {
  let f = 0;
  if (l.isSidechain === true) f |= SIDECHAIN;
  if (str(l.teamName)) f |= TEAM;
  if (l.type === "attachment" && l.attachment?.type === "fork_briefing") f |= FORK_BRIEFING;
  if (l.isMeta === true) f |= META;
  if (l.isCompactSummary === true) f |= COMPACT_SUMMARY;
  const results = l.type === "user" ? blocksOf(l.message?.content).filter((b) => b.type === "tool_result") : [];
  if (results.length) f |= TOOL_RESULT;
  if (results.some((b) => b.is_error === true)) f |= RESULT_ERROR;
  return f;
}

/** What one line gives the chain facts, read off it once while it is indexed (index-hooks.ts). */
export interface LineFacts {
  flags: number;
  /** parentUuid as written (a boundary's is null). */
  parent: string | null;
  response?: string;
  calls?: string[];
  answers?: string[];
  source?: string;
  subtype?: string;
  /** A compact boundary's compactMetadata, for the relinks. */
  boundary?: NonNullable<ClaudeLine["compactMetadata"]>;
}

export function lineFacts(l: ClaudeLine): LineFacts {
  const out: LineFacts = { flags: flagsOf(l), parent: typeof l.parentUuid === "string" ? l.parentUuid : null };
  const r = responseId(l);
  if (r) out.response = r;
  const c = calledToolIds(l);
  if (c.length) out.calls = c;
  const a = answeredToolIds(l);
  if (a.length) {
    out.answers = a;
    const s = str(l.sourceToolAssistantUUID);
    if (s) out.source = s;
  }
  if (l.type === "system") {
    const st = str(l.subtype);
    if (st) out.subtype = st;
  }
  if (isCompactBoundary(l) && l.compactMetadata) out.boundary = l.compactMetadata;
  return out;
}

/** Line i's facts: kept by the index where it read them, else read off the line now. */
export function factsAt(session: SessionReader, i: number): LineFacts {
  const kept = session.table.rare.get(i)?.lineFacts as LineFacts | undefined;
  return kept ?? lineFacts(asLine(session.entryAt(i)));
}

/** The facts of a session's entries (cached until the session holds more entries). */
export function chainFacts(session: SessionReader): ChainFacts {
  const n = session.metas.length;
  const known = cache.get(session);
  if (known && known.count === n) return known;
  const pos = (id: unknown) => (typeof id === "string" ? (session.tree.indexOf(id) ?? -1) : -1);
  const parent = new Int32Array(n);
  const flags = new Uint8Array(n);
  const source = new Int32Array(n).fill(-1);
  const response: Array<string | undefined> = new Array(n);
  const calls: Array<string[] | undefined> = new Array(n);
  const answers: Array<string[] | undefined> = new Array(n);
  const subtype: Array<string | undefined> = new Array(n);
  const boundaries: ClaudeLine[] = [];
  for (let i = 0; i < n; i++) {
    const f = factsAt(session, i);
    // On disk a boundary is a root; the tree hangs it under its logical parent for display only.
    parent[i] = pos(f.parent);
    flags[i] = f.flags;
    response[i] = f.response;
    if (f.calls) calls[i] = f.calls;
    if (f.answers) {
      answers[i] = f.answers;
      source[i] = pos(f.source);
    }
    subtype[i] = f.subtype;
    if (f.boundary) boundaries.push({ compactMetadata: f.boundary });
  }
  const onDisk = parent.slice();
  if (boundaries.length) {
    const links = new Relinker(parent);
    for (const b of boundaries) relink(b, links, pos);
  }
  const fragments = new Map<string, number[]>();
  const resultsByCall = new Map<string, number[]>();
  const resultsByFragment = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const r = response[i];
    if (r) push(fragments, r, i);
    const a = answers[i];
    if (!a) continue;
    for (const id of a) push(resultsByCall, id, i);
    // The parent on disk, before any relink: the fragment the result was written under.
    const p = onDisk[i];
    if (p >= 0 && response[p]) push(resultsByFragment, p, i);
    if (source[i] >= 0 && source[i] !== p) push(resultsByFragment, source[i], i);
  }
  const facts: ChainFacts = { count: n, sidechainFile: n > 0 && (flags[0] & SIDECHAIN) !== 0, parent, flags, response, calls, answers, source, subtype, fragments, resultsByCall, resultsByFragment };
  cache.set(session, facts);
  return facts;
}

/**
 * Parents that the relinks change, with each line's children at hand: a relink moves the
 * children of one line, and scanning every line for them made n compactions cost n
 * passes over the file. A child list may still hold lines moved away since (checked on use).
 */
class Relinker {
  private readonly children = new Map<number, number[]>();

  constructor(readonly parent: Int32Array) {
    for (let i = 0; i < parent.length; i++) if (parent[i] >= 0) this.listOf(parent[i]).push(i);
  }

  private listOf(p: number): number[] {
    let list = this.children.get(p);
    if (!list) this.children.set(p, (list = []));
    return list;
  }

  setParent(i: number, p: number): void {
    this.parent[i] = p;
    if (p >= 0) this.listOf(p).push(i);
  }

  /** Moves every line whose parent is `from` (but `except`) under `to`. */
  moveChildren(from: number, to: number, except: ReadonlySet<number>): void {
    const stay: number[] = [];
    for (const c of this.children.get(from) ?? []) {
      if (this.parent[c] !== from) continue;
      if (except.has(c)) stay.push(c);
      else this.setParent(c, to);
    }
    this.children.set(from, stay);
  }
}

/**
 * Section 9's relinks for a partial compaction, skipped when a listed uuid is missing:
 * preservedMessages (which supersedes the segment) chains its uuids under the anchor;
 * preservedSegment puts its head under the anchor; either way the anchor's other children
 * move under the last kept line.
 */
function relink(b: ClaudeLine, links: Relinker, pos: (id: unknown) => number): void {
  const meta = b.compactMetadata;
  const kept = meta?.preservedMessages;
  if (kept && Array.isArray(kept.uuids) && kept.uuids.length) {
    const anchor = pos(kept.anchorUuid);
    const ids = kept.uuids.map(pos);
    if (anchor < 0 || ids.some((x) => x < 0)) return;
    ids.forEach((x, k) => links.setParent(x, k === 0 ? anchor : ids[k - 1]));
    links.moveChildren(anchor, ids[ids.length - 1], new Set(ids));
    return;
  }
  const seg = meta?.preservedSegment;
  if (!seg) return;
  const [head, anchor, tail] = [pos(seg.headUuid), pos(seg.anchorUuid), pos(seg.tailUuid)];
  if (head < 0 || anchor < 0 || tail < 0) return;
  links.setParent(head, anchor);
  links.moveChildren(anchor, tail, new Set([head]));
}
