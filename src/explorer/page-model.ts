// What an exported page holds, computed by the explorer's own host side (the code the
// controller answers the panel with: RowView, the bars, the cost ledger, the details), so
// the page shows what the panel shows. It holds none of the panel's whole-session state
// (the controller's row view and token table): a large session's export runs in a little
// more than the loaded session's memory (docs/benchmarks.md).
// Every string goes through the Redactor on its way into the page; entry ids through one
// memo (an id is redacted the same wherever it is named, and stays unique).

import { DETAILS_PER_CHUNK, PAGE_DATA_VERSION, RowPool, toRuns, type PageBranch, type PageDetails, FIRST_ROWS, type PageFirst, type PageIndex, type PageSource, type PageSubagents, VISIBILITIES } from "../core/export/html-data";
import type { Redactor } from "../core/export/redactor";
import { Scrubber } from "../core/export/scrubber";
import type { HeapTrim } from "../core/util/heap-trim";
import { PathFiles } from "../core/session/path-files";
import type { SessionReader } from "../core/session/session-reader";
import { contextTimelineAsync, type TimelineMemo, type TimelinePoint, timelineMemo, timelinePath } from "../core/usage/timeline";
import type { EntryAction, EntryDetails, HostToWebview, InitMessage, ReplyResults, Row, TokenBar } from "../protocol";
import { CostLedger } from "../core/usage/cost-ledger";
import { FileOffers } from "./file-offers";
import { formatBars } from "./format-bars";
import { packDetails } from "./page-details";
import { StaticHost } from "./page-host";
import { PageSubagentExport } from "./page-subagents";
import { RowView, sessionInfoView } from "./row-view";
import { detailsWithCost, stepCostSnapshot, type StepCosts, withSubagentFigures } from "./step-details";

export interface PageModelOptions {
  /** Export only the branch root..leafId; without it the whole tree. */
  leafId?: string;
  /** The whole tree (the default): says so where a caller chose it; with leafId it is an error. */
  all?: boolean;
  redactor: Redactor;
  /**
   * Full collections as the export's heap grows (heap-trim.ts): for a process of its own, the
   * CLI, where they keep the peak RSS near the live size. The extension host is shared with
   * every other extension; a pause of 60-100 ms a collection there is not ours to take, so
   * Export Session in VS Code passes none.
   */
  heapTrim?: HeapTrim;
}

const READ_ONLY = "an exported page is read-only";
const ACTIONS: EntryAction[] = ["fork", "continue", "label", "previewContext", "compareContext", "compactionChange", "compact"];

/** The positions exported: the whole tree, or the path root..leaf. */
function exportedPositions(s: SessionReader, leafId: string | undefined): number[] | undefined {
  if (leafId === undefined) return undefined;
  const leaf = s.tree.indexOf(leafId);
  if (leaf === undefined) throw new Error(`${s.path}: no entry with id ${JSON.stringify(leafId.slice(0, 80))} to export the branch of`);
  return s.tree.path(leaf);
}

/**
 * Heap growth that calls for a collection while the branches are made (HeapTrim's is 32 MB):
 * their timelines' points and the files' parsed entries come on top of the session's
 * peak live data, so they are kept to less.
 */
const BRANCH_GROWTH = 16 * 1024 * 1024;

/** The fields of a timeline point as PageIndex.points packs them. */
const POINT_KEYS = ["entryId", "index", "time", "tokens", "source", "composition"] as const satisfies ReadonlyArray<keyof TimelinePoint>;

/** The first screen as the page's own host answers it over `index` (the host dropped on return). */
function firstScreen(index: PageIndex): PageFirst {
  let init: HostToWebview | undefined;
  const host = new StaticHost(index, () => undefined, (m) => (init = m));
  host.receive({ type: "ready" });
  if (init?.type !== "init") throw new Error("the page's host gave no init message");
  return { init: init as InitMessage, rows: (host.answer({ type: "rows", requestId: 0, start: 0, count: FIRST_ROWS }) as ReplyResults["rows"]).rows };
}

/** What the branches of one page share as they are made. */
interface BranchWork {
  pool: RowPool;
  offers: FileOffers;
  memo: TimelineMemo;
  files: PathFiles | undefined;
}

export class PageModel implements PageSource {
  /** The session's cost, for the header (dropped once it is made, see stepCosts). */
  private ledger: CostLedger | undefined;
  /** Each step's cost, for the details. */
  private steps: StepCosts | undefined;
  /** The default view's row count, as the panel's init message says it (index() sets it). */
  private rowCount = 0;
  readonly scrub: Scrubber;
  /** Position in the session -> position in the page (identity for the whole tree). */
  private readonly at: (i: number) => number;
  /** Session positions exported, in file order. */
  readonly positions: number[];
  /** The sub-agents' rows and details, a call at a time. */
  private readonly nested: PageSubagentExport;
  /** Session positions of the calls that started sub-agents (PageIndex.subagentCalls, in order). */
  private subagentCalls: number[] = [];
  /** The heap kept near its live size when the caller asks (PageModelOptions.heapTrim): each entry's body read is garbage once written. */
  private readonly trim: HeapTrim | undefined;

  constructor(
    readonly session: SessionReader,
    private readonly opts: PageModelOptions,
  ) {
    if (opts.all && opts.leafId !== undefined) throw new Error(`${session.path}: export either the whole tree or the branch of ${JSON.stringify(opts.leafId.slice(0, 80))}, not both`);
    this.scrub = new Scrubber(opts.redactor);
    this.trim = opts.heapTrim;
    this.nested = new PageSubagentExport(session, this.scrub);
    const subset = exportedPositions(session, opts.leafId);
    this.positions = subset ?? Array.from({ length: session.metas.length }, (_, i) => i);
    if (subset) {
      const map = new Map(subset.map((p, k) => [p, k]));
      this.at = (i) => map.get(i) ?? -1;
    } else this.at = (i) => i;
  }

  get detailChunks(): number {
    return Math.ceil(this.positions.length / DETAILS_PER_CHUNK);
  }

  /** The tree, the header and the branches (the page writer asks tree() and branches() in turn). */
  async index(): Promise<PageIndex> {
    const idx = await this.tree();
    Object.assign(idx, await this.branches(idx.init.bars));
    return idx;
  }

  /** The index but its branches and points (left empty, in their place): the tree, the header, the entries. */
  async tree(): Promise<PageIndex> {
    const s = this.session;
    const f = s.format;
    const scrub = this.scrub;
    const n = this.positions.length;
    const idOf = (i: number) => scrub.id(s.metas[i].id);
    // The row texts as the explorer words them (RowView: paths relative to the cwd).
    const rowText = this.rowTexts();
    // The row view is garbage now (a row per entry): collected before the index's arrays grow over it.
    this.trim?.now();

    const dict = () => {
      const list: string[] = [];
      const seen = new Map<string, number>();
      return { list, of: (v: string) => seen.get(v) ?? (seen.set(v, list.length), list.push(v), list.length - 1) };
    };
    const kinds = dict();
    const labels = dict();
    const typeNames = dict();
    const idx: PageIndex = {
      v: PAGE_DATA_VERSION,
      init: this.init(this.rowCount),
      ids: [],
      parent: [],
      kind: [],
      label: [],
      typeName: [],
      visibility: [],
      kinds: kinds.list,
      labels: labels.list,
      typeNames: typeNames.list,
      text: [],
      preview: [],
      estimate: [],
      errors: [],
      compactions: [],
      brokenParents: [],
      tags: [],
      branchTimes: [],
      inlineRoots: [],
      subagentCalls: [],
      name: s.tree.name === undefined ? null : scrub.text(s.tree.name, { field: "session name" }),
      defaultLeaf: this.at(f.defaultLeaf(s)),
      branches: [],
      points: { keys: [...POINT_KEYS], rows: [] },
      detailChunks: this.detailChunks,
    };
    for (let k = 0; k < n; k++) {
      if (k % 4096 === 0) this.trim?.maybe();
      const i = this.positions[k];
      const m = s.metas[i];
      const d = f.describe(s, i);
      const entryId = m.id;
      idx.ids.push(idOf(i));
      idx.parent.push(s.tree.parent[i] < 0 ? -1 : this.at(s.tree.parent[i]));
      idx.kind.push(kinds.of(d.kind));
      idx.label.push(labels.of(scrub.text(d.label, { entryId, field: "type" })));
      idx.typeName.push(d.typeName === undefined ? -1 : typeNames.of(scrub.text(d.typeName, { entryId, field: "type" })));
      idx.visibility.push(VISIBILITIES.indexOf(d.visibility));
      const text = rowText.get(m.id) ?? d.preview ?? m.preview;
      idx.text.push(scrub.cutText(text, { entryId, field: "preview" }));
      idx.preview.push(m.preview === text ? 0 : scrub.cutText(m.preview, { entryId, field: "preview" }));
      idx.estimate.push(m.estimate);
      if (d.isError) idx.errors.push(k);
      if (d.kind === "boundary") idx.compactions.push([k, m.tokensBefore ?? 0, m.firstKeptEntryId === undefined ? null : scrub.id(m.firstKeptEntryId)]);
      const parentId = s.table.parentIdAt(i);
      if (parentId !== null && s.tree.parent[i] < 0) idx.brokenParents.push([k, scrub.id(parentId)]);
      const parent = s.tree.parent[i];
      if (parent >= 0 && s.tree.childCount(parent) > 1 && !Number.isNaN(m.time)) idx.branchTimes.push([k, m.time]);
      const agents = this.nested.cue(i);
      if (agents) {
        idx.subagentCalls.push([k, agents]);
        this.subagentCalls.push(i);
      }
      const tag = s.tree.labels.get(m.id);
      if (tag !== undefined) idx.tags.push([k, scrub.text(tag, { entryId, field: "label" })]);
    }
    for (const [root, call] of f.subagents?.inlineRoots(s) ?? []) {
      if (this.at(root) >= 0 && this.at(call) >= 0) idx.inlineRoots.push([this.at(root), this.at(call)]);
    }
    // The texts are in the index now: not held through the timelines.
    rowText.clear();
    this.trim?.now();
    return idx;
  }

  /**
   * The row texts as the explorer words them (RowView: paths relative to the cwd) by entry
   * id, and the default view's row count. The view is dropped on return: it holds a row
   * for every entry.
   */
  private rowTexts(): Map<string, string> {
    const view = new RowView(this.session);
    this.rowCount = view.rowCount;
    view.setFilter("all");
    const rowText = new Map<string, string>();
    for (let start = 0; start < view.rowCount; start += 4096) {
      for (const r of view.page(start, 4096) as Row[]) rowText.set(r.id, r.preview);
      this.trim?.maybe();
    }
    return rowText;
  }

  /** The session's cost as the controller reads it (its prices: none). */
  private openLedger(): CostLedger {
    return (this.ledger ??= new CostLedger(this.session, this.session.format, { prices: undefined }));
  }

  /** Each step's cost, the ledger dropped once they are copied. */
  private stepCosts(): StepCosts {
    if (!this.steps) {
      this.steps = stepCostSnapshot(this.openLedger(), this.session.metas.length);
      this.ledger = undefined;
    }
    return this.steps;
  }

  /** The first screen: what the page's own host answers over this index (the webview's ready, then its first rows). */
  first(index: PageIndex): PageFirst {
    // The host builds a row view over the whole index: from a heap at its live size, and collected once it is dropped.
    this.trim?.now();
    const screen = firstScreen(index);
    this.trim?.now();
    return screen;
  }

  /** The init message the panel would get, read-only, its bars those of the exported tree. */
  private init(rowCount: number): PageIndex["init"] {
    const s = this.session;
    const info = sessionInfoView(s, false);
    const unavailable = { ...info.unavailable };
    for (const a of ACTIONS) unavailable[a] = READ_ONLY;
    // The bars the panel draws (the controller's: its token table, each bar's branch cost); with a leaf, that
    // branch's bar as selecting it shows it (the selection runs on to the last child, as RowView.select does).
    const table = s.format.tokenTable?.instant(s) ?? [];
    let selected: number | undefined;
    if (this.opts.leafId !== undefined) {
      selected = s.requireIndex(this.opts.leafId);
      while (s.tree.childCount(selected) > 0) {
        const kids = s.tree.children(selected);
        selected = kids[kids.length - 1];
      }
    }
    const ledger = this.openLedger();
    let bars = formatBars(s, selected, {}, table);
    for (const bar of bars) {
      const leaf = s.tree.indexOf(bar.leafId);
      if (leaf !== undefined) bar.cost = ledger.branch(leaf);
    }
    if (this.opts.leafId !== undefined) bars = bars.filter((b) => b.leafId === this.opts.leafId);
    const init: InitMessage = { type: "init", session: info, rowCount, filter: "default", bars, cost: ledger.figures() };
    this.stepCosts();
    const out = { ...init, session: { ...init.session, unavailable, readOnly: true }, bars };
    delete (out.session as Partial<typeof out.session>).reading;
    return this.scrub.deep(out, undefined, "header");
  }

  /**
   * The branches the page can show: those the bars show (the default leaf and the most
   * recent others, redacted already). Each carries its context growth, which walks its
   * whole path and takes megabytes on a large session: other leaves get none. Its bar is
   * the one the bars show, selected; its files those the panel offers for its path (as a
   * select would give, without rebuilding every row and bar of the session per branch).
   * With them the timelines' points, each once (the branches share their common start).
   */
  async branches(bars: readonly TokenBar[]): Promise<Pick<PageIndex, "branches" | "points">> {
    const s = this.session;
    const pool = new RowPool([...POINT_KEYS]);
    // The bars' leaves by their redacted ids (a map of every entry's would be megabytes held through the timelines).
    const wanted = new Set(bars.map((b) => b.leafId));
    const byRedacted = new Map<string, number>();
    for (const i of this.positions) {
      const id = this.scrub.id(s.metas[i].id);
      if (wanted.has(id) && !byRedacted.has(id)) byRedacted.set(id, i);
    }
    const out: PageBranch[] = [];
    const done = new Set<number>();
    const work: BranchWork = {
      pool,
      offers: new FileOffers({ cwd: () => s.format.info(s).cwd ?? "", folders: () => [], exists: () => false }),
      memo: timelineMemo(),
      // The files of a path read every entry with a tool call on it: each stretch the branches share once, a chunk at a time.
      files: s.format.files && new PathFiles(s, s.format.files, { afterChunk: () => this.trim?.maybe(BRANCH_GROWTH) }),
    };
    for (const bar of bars) {
      const leaf = byRedacted.get(bar.leafId);
      if (leaf === undefined || done.has(leaf)) continue;
      done.add(leaf);
      out.push(await this.branch(leaf, bar, work));
      // The branch's timeline (tens of thousands of points) is garbage now: collected before the next one is made.
      this.trim?.now();
    }
    return { branches: out, points: pool.packed };
  }

  /** One branch of the page; its timeline dropped on return (an async loop's frame would hold it through the next). */
  private async branch(leaf: number, bar: TokenBar, work: BranchWork): Promise<PageBranch> {
    const s = this.session;
    const id = s.metas[leaf].id;
    // The timeline the panel would get (the controller's, with no windows set), its stretches shared between the branches.
    const timeline = await contextTimelineAsync(s, leaf, { memo: work.memo, afterStretch: () => this.trim?.maybe(BRANCH_GROWTH) });
    const path = toRuns(timelinePath(s, s.format, leaf).map(this.at));
    const files = this.scrub.deep(work.offers.offer(work.files ? work.files.of(s.tree.path(leaf)) : []), id, "path");
    const head = this.scrub.deep({ ...timeline, points: [] }, id, "timeline");
    // Each point redacted and pooled in turn: no redacted copy of the whole path's points (tens of thousands).
    const points = timeline.points.map((p, k) => {
      if (k % 4096 === 0) this.trim?.maybe(BRANCH_GROWTH);
      return work.pool.add(this.scrub.deep(p, id, "timeline"));
    });
    return { leaf: this.at(leaf), bar: { ...bar, selected: true }, files, timeline: { ...head, points }, timelinePath: path };
  }

  /** The details of the entries of chunk c, each with the whole text of what the display cut. */
  async detailsChunk(c: number): Promise<PageDetails[]> {
    // The first chunk follows the index's pieces (garbage once written): from a heap at its live size.
    if (c === 0) this.trim?.now();
    else this.trim?.maybe();
    const out: PageDetails[] = [];
    const end = Math.min(this.positions.length, (c + 1) * DETAILS_PER_CHUNK);
    for (let k = c * DETAILS_PER_CHUNK; k < end; k++) out.push(await this.details(this.positions[k]));
    return out;
  }

  private async details(i: number): Promise<PageDetails> {
    const id = this.session.metas[i].id;
    const s = this.session;
    const d: EntryDetails = await withSubagentFigures(s, detailsWithCost(s, this.stepCosts(), i), undefined);
    return packDetails(d, id, this.scrub, (k) => detailsWithCost(s, this.stepCosts(), i, k).blocks[k]);
  }

  /** The sub-agents of the k-th call that started some (index().subagentCalls). */
  async subagents(k: number): Promise<PageSubagents> {
    this.trim?.maybe();
    return this.nested.call(this.subagentCalls[k]);
  }
}
