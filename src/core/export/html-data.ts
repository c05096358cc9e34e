// The data an exported HTML page carries, shared by the writer (src/explorer/page-model.ts, in Node) and
// the page's host (src/explorer/page-host.ts, in the browser and at export). Types only and a few
// constants: the webview imports this file, so it must stay free of Node and DOM imports.
// Every string in it went through the Redactor before it was written.

import type { ContextTimeline, CostView, DetailBlock, EntryDetails, FileActivityView, InitMessage, Row, RowFilter, SubagentView, TokenBar } from "../../protocol";

/** Version of the page data, bumped when its shape changes. */
export const PAGE_DATA_VERSION = 2;

/** id of the small <script type="application/json"> before the page's script holding its PageFirst. */
export const FIRST_SCRIPT_ID = "ase-first";
/** Rows the page draws before its index is parsed (two of the webview's row pages). */
export const FIRST_ROWS = 256;
/** id of the <script type="application/json"> holding the PageIndex. */
export const INDEX_SCRIPT_ID = "ase-index";
/** id prefix of the scripts holding the details, DETAILS_PER_CHUNK entries each: `ase-details-0`, `ase-details-1`... */
export const DETAILS_SCRIPT_PREFIX = "ase-details-";
/** id prefix of the scripts holding the sub-agents of a call (PageSubagents), one per PageIndex.subagentCalls element. */
export const SUBAGENTS_SCRIPT_PREFIX = "ase-subagents-";
/**
 * Entries per details script. The page parses a chunk on the first look at one of its
 * entries, so opening a 100 MB session's page parses only the index.
 */
export const DETAILS_PER_CHUNK = 256;

/** Rows of like objects as one list of keys and one array of values per row: the keys are not repeated. */
export interface PackedRows {
  keys: string[];
  rows: unknown[][];
}

/** Rows packed under `keys`, each row once (by its JSON): add() gives a row's index in the pool. */
export class RowPool {
  readonly packed: PackedRows;
  /**
   * Rows by their first value (the points' entry id; its JSON unless a string): a row is
   * looked for among those alone, by JSON, so no key string is held per row (tens of
   * thousands of timeline points on a large session).
   */
  private readonly byFirst = new Map<string, number[]>();

  constructor(keys: string[]) {
    this.packed = { keys, rows: [] };
  }

  add(o: object): number {
    const row = this.packed.keys.map((k) => (o as Record<string, unknown>)[k] ?? null);
    const first = typeof row[0] === "string" ? row[0] : JSON.stringify(row[0]);
    const same = this.byFirst.get(first);
    if (same) {
      const json = JSON.stringify(row);
      for (const at of same) if (JSON.stringify(this.packed.rows[at]) === json) return at;
    }
    const at = this.packed.rows.push(row) - 1;
    if (same) same.push(at);
    else this.byFirst.set(first, [at]);
    return at;
  }
}

export function unpackRows<T>(p: PackedRows, which: readonly number[]): T[] {
  return which.map((i) => {
    const r = p.rows[i];
    const o: Record<string, unknown> = {};
    p.keys.forEach((k, j) => {
      if (r[j] !== null) o[k] = r[j];
    });
    return o as T;
  });
}

/**
 * A timeline whose points are indexes into the page's pool of points (PageIndex.points):
 * a step per assistant message, tens of thousands on a large session, and the branches
 * share the steps of their common start.
 */
export type PageTimeline = Omit<ContextTimeline, "points"> & { points: number[] };

/** A branch the page can show: its bar, the files of its path and its context growth. */
export interface PageBranch {
  /** Position of the leaf in the entry arrays. */
  leaf: number;
  bar: TokenBar;
  files: FileActivityView[];
  timeline: PageTimeline;
  /**
   * The positions the timeline walks (TimelinePoint.index counts along it), as runs of
   * consecutive positions: start, length, start, length... (a path is mostly one run).
   */
  timelinePath: number[];
}

/** Positions as runs of consecutive ones: [start, length, ...]. */
export function toRuns(positions: readonly number[]): number[] {
  const out: number[] = [];
  for (const p of positions) {
    const n = out.length;
    if (n && out[n - 2] + out[n - 1] === p && p >= 0) out[n - 1]++;
    else out.push(p, 1);
  }
  return out;
}

/** Where `position` is in the positions `runs` stand for, or -1. */
export function indexInRuns(runs: readonly number[], position: number): number {
  let at = 0;
  for (let k = 0; k < runs.length; k += 2) {
    const [start, length] = [runs[k], runs[k + 1]];
    if (start >= 0 && position >= start && position < start + length) return at + position - start;
    at += length;
  }
  return -1;
}

/**
 * The tree, columnar (one array per field, one element per entry in file order): what
 * RowView needs to draw, filter, fold and search the rows as the explorer does.
 */
export interface PageIndex {
  v: number;
  /** The init message as the panel's host sends it (session, cost, bars of the default view). */
  init: InitMessage;
  ids: string[];
  /** Parent position, -1 for a root. */
  parent: number[];
  /** The format's description of each entry, as indexes into the dictionaries below. */
  kind: number[];
  label: number[];
  /** -1: the format has no name of its own for it. */
  typeName: number[];
  /** 0: user (every filter), 1: conversation, 2: all only. */
  visibility: number[];
  kinds: string[];
  labels: string[];
  typeNames: string[];
  /** The row's text (paths inside the session's cwd already made relative). */
  text: string[];
  /** The index's own preview where it differs from the row's text (search looks at both). */
  preview: Array<string | 0>;
  estimate: number[];
  /** Positions of entries that carry an error. */
  errors: number[];
  /** Compactions: position, tokens before, first kept entry id. */
  compactions: Array<[number, number, string | null]>;
  /** Parents named by an entry but missing from the file: position, parent id. */
  brokenParents: Array<[number, string]>;
  /** Children of branch points: position, time (ms); the tree orders siblings by it. */
  branchTimes: Array<[number, number]>;
  /** User labels: position, label. */
  tags: Array<[number, string]>;
  /** Sub-agents written inline in the file: their first line, the call that started them (not roots of their own). */
  inlineRoots: Array<[number, number]>;
  /**
   * Calls that started sub-agents: position, and the sub-agents as the row's cue names
   * them. The k-th call's rows and details are in the script SUBAGENTS_SCRIPT_PREFIX + k.
   */
  subagentCalls: Array<[number, SubagentView[]]>;
  name: string | null;
  defaultLeaf: number;
  branches: PageBranch[];
  /** The timelines' points, each once, packed. */
  points: PackedRows;
  /** How many details scripts follow. */
  detailChunks: number;
}

/** One entry's details as the panel shows them, with the whole text of each block it cut. */
export interface PageDetails {
  d: EntryDetails;
  /** Block number -> the block with its whole text (only blocks the display cut). */
  full?: Record<number, DetailBlock>;
  /**
   * Block number -> how much of the whole text the display shows: such a block's own
   * text is left out, as it is the start of the whole one (the page cuts it again).
   */
  shown?: Record<number, number>;
}

/**
 * The sub-agents one call started, as the explorer shows them expanded under it: their rows
 * (built for a call at depth 0: the page adds the call's depth) for each filter, and the
 * details of each of those rows by its id.
 */
export interface PageSubagents {
  /** The cue once the transcripts were read (with their figures). */
  agents: SubagentView[];
  rows: Record<RowFilter, Row[]>;
  details: Record<string, PageDetails>;
}

export type { CostView };

/**
 * What the page writer (html.ts) reads the page's data from, piece by piece: the tree
 * first, its branches once the tree is written, then the details a chunk at a time, each
 * dropped once written. The explorer's host side builds it (src/explorer/page-model.ts): core does not know the explorer.
 */
export interface PageSource {
  /** The index but its branches and points (empty, in their place). */
  tree(): Promise<PageIndex>;
  /** The first screen of the page whose tree() was just made. */
  first(index: PageIndex): PageFirst;
  /**
   * The branches of the bars of tree()'s init and their points, asked once the tree's
   * members before them are written and dropped (a branch's timeline is megabytes).
   */
  branches(bars: readonly TokenBar[]): Promise<Pick<PageIndex, "branches" | "points">>;
  readonly detailChunks: number;
  detailsChunk(c: number): Promise<PageDetails[]>;
  /** The sub-agents of the k-th call of PageIndex.subagentCalls (asked after tree()). */
  subagents(k: number): Promise<PageSubagents>;
}

/**
 * What a page draws before its index is parsed (a 100 MB session's index is megabytes of
 * JSON the browser must read, then parse): the init message and the first FIRST_ROWS rows,
 * as the page's own host answers them once it has the index (computed by that very host
 * at export), so the first screen shows at once and nothing changes under the reader.
 */
export interface PageFirst {
  init: InitMessage;
  rows: Row[];
}

/** Visibility names in the order the index numbers them. */
export const VISIBILITIES = ["user", "conversation", "all"] as const;
