import type { SessionReader } from "../core/session/session-reader";
import type { EntryTokens } from "../core/tokens/entry-tokens";
import type { LeafTokenOptions } from "../core/tokens/leaf-token-options";
import { type ContextTimeline, contextTimeline, contextTimelineAsync, timelinePosition } from "../core/usage/timeline";
import { CostLedger } from "../core/usage/cost-ledger";
import type { PriceOverrides } from "../core/tokens/prices";
import { pushAll } from "../core/util/push-all";
import { clipText, visibleText } from "../core/util/visible-text";
import type {
  ActionMessage,
  BarsMessage,
  CostMessage,
  CostView,
  InitMessage,
  ReplyResults,
  RequestType,
  RowFilter,
  SessionChangedMessage,
  SessionInfoView,
  TokenBar,
  WebviewToHost,
} from "../protocol";
import { actionRefusal } from "./action-rules";
import { type CountExact, ExactCounting } from "./exact-counting";
import { FileOffers, type FileToOpen } from "./file-offers";
import { RowView, sessionInfoView } from "./row-view";
import { formatBars } from "./format-bars";
import { OvertakenError } from "./overtaken";
import { detailsWithCost, withSubagentFigures } from "./step-details";
import { SubagentNesting } from "./subagent-rows";

/** A request of the webview: it carries a requestId and gets exactly one reply. */
export type ExplorerRequest = Extract<WebviewToHost, { requestId: number }>;

/** View state a reloaded webview hands back: the filter and the folded branch points. */
export interface ViewState {
  filter: RowFilter;
  folded: readonly string[];
}

export interface ExplorerOptions {
  /** Whether writing is allowed (the workspace is trusted); asked each time, as it can change. */
  trusted(): boolean;
  /** Reserve and context windows for the bars; read each time bars are drawn (settings change). */
  tokenOptions?(): LeafTokenOptions;
  /** Exact counts in the background; without it the bars stay on estimates and recorded usage. */
  countExact?: CountExact;
  /** Folders besides the session's cwd where the file list looks for relative paths. */
  folders?(): readonly string[];
  /** Whether a file exists (the file system unless a test says otherwise). */
  fileExists?(path: string): boolean;
  /** Prices for the cost (the validated agentSessions.modelPrices); a new object when they change. */
  prices?(): PriceOverrides;
  /** The title the Sessions view lists a file under (undefined when not listed): the header names the session by it too. */
  titleOf?(path: string): string | undefined;
  /** Messages the controller sends unasked: better bars once exact counts are in. */
  post?(msg: BarsMessage): void;
  log?: { warn(msg: string): void };
}

/**
 * The explorer's host side without VS Code: one loaded session and what the webview
 * sees of it (rows with filter, folds and the selected leaf; the per-entry token table
 * and its exact counting; the files offered for opening), answering every request of
 * the protocol. The panel adapts it to a webview; tests drive it directly.
 */
export class ExplorerController {
  private s: SessionReader;
  private readonly view: RowView;
  /** Per-entry token figures: estimates at once, exact counts filled in when asked. */
  private table: EntryTokens[];
  private readonly counting: ExactCounting | undefined;
  private readonly files: FileOffers;
  /** Entry count the webview was last told (init or sessionChanged); undefined before init. */
  private told: number | undefined;
  /** The entry the webview last selected. */
  private selected: string | undefined;
  /** The timeline being computed; a newer request or dispose stops it. */
  private timelineRun: AbortController | undefined;
  /** The session's running cost: read on as the session grows, made anew for a new load or new prices. */
  private costs: { session: SessionReader; prices: PriceOverrides | undefined; ledger: CostLedger } | undefined;
  /** Sub-agents shown nested under the calls that started them. */
  private readonly nesting = new SubagentNesting();

  constructor(
    session: SessionReader,
    private readonly opts: ExplorerOptions,
    restore?: ViewState,
  ) {
    this.s = session;
    this.table = tableFor(session);
    this.view = new RowView(session);
    this.view.nesting = this.nesting;
    this.files = new FileOffers({ cwd: () => this.s.format.info(this.s).cwd ?? "", folders: () => opts.folders?.() ?? [], exists: opts.fileExists });
    this.counting = opts.countExact
      ? new ExactCounting(
          opts.countExact,
          (s: SessionReader) => {
            if (s === this.s) this.opts.post?.({ type: "bars", bars: this.bars() });
          },
          (message) => this.opts.log?.warn(message),
        )
      : undefined;
    if (restore) this.restore(restore);
    this.startCounting();
  }

  /** Exact counts run over a format's own per-entry table (pi's); other formats draw estimates and recorded usage. */
  private startCounting(): void {
    const s = this.s;
    if (s.complete && s.format.tokenTable) this.counting?.start(s, this.table);
  }

  get session(): SessionReader {
    return this.s;
  }

  /** Entry count the webview was last told of, or undefined before init. */
  get entriesTold(): number | undefined {
    return this.told;
  }

  get rowCount(): number {
    return this.view.rowCount;
  }

  get filter(): RowFilter {
    return this.view.filter;
  }

  /** Index of the selected branch's leaf; undefined = the default leaf. */
  get selectedLeaf(): number | undefined {
    return this.view.selectedLeaf;
  }

  /** The entry the webview last selected (select or reveal), or undefined before any. */
  get selectedEntry(): string | undefined {
    return this.selected;
  }

  /** Stops the background counting (the panel closed). */
  dispose(): void {
    this.counting?.stop();
    this.timelineRun?.abort(new Error("the panel closed"));
  }

  /**
   * A new load of the same file (it was rewritten): token figures start over; filter,
   * folds and the selected leaf stay where they still make sense.
   */
  setSession(session: SessionReader): void {
    this.counting?.stop();
    this.s = session;
    this.table = tableFor(session);
    this.nesting.reset();
    this.view.setSession(session);
    this.startCounting();
  }

  /** Re-applies view state a reloaded webview saved (ids no longer in the session are ignored). */
  restore(state: ViewState): void {
    this.view.filter = state.filter;
    this.view.folded.clear();
    for (const id of state.folded) this.view.folded.add(id);
    this.view.recompute();
  }

  /** The initial state; from now on the webview knows every entry there is. */
  init(): InitMessage {
    this.told = this.s.metas.length;
    return { type: "init", session: this.info(), rowCount: this.view.rowCount, filter: this.view.filter, bars: this.bars(), cost: this.costView() };
  }

  /** The session's cost by its format's rules (recorded, else priced), up to date with the session. */
  private ledger(): CostLedger {
    const prices = this.opts.prices?.();
    const c = this.costs;
    if (c && c.session === this.s && c.prices === prices) {
      c.ledger.update();
      return c.ledger;
    }
    const ledger = new CostLedger(this.s, this.s.format, { prices });
    this.costs = { session: this.s, prices, ledger };
    return ledger;
  }

  /** The whole session's cost (every branch). */
  costView(): CostView {
    return this.ledger().figures();
  }

  /** The prices changed: the cost and the bars' costs again. */
  costChanged(): CostMessage {
    return { type: "cost", cost: this.costView(), bars: this.bars() };
  }

  /**
   * Entries were added to the session (appended and refreshed, or the rest of a first
   * look read): token figures for them, rows recomputed, and what to tell the webview,
   * if anything. Counted against what the webview was told, not against the refresh: an
   * action may have appended through this very session. `followDefault` (the live
   * tail) makes the default leaf active again, as new entries usually continue it, and
   * ignores a change that added nothing; after a first look the message goes out even
   * with nothing added, as it ends the webview's "reading the rest" state.
   */
  sessionChanged(opts: { followDefault: boolean }): SessionChangedMessage | undefined {
    const s = this.s;
    if (opts.followDefault && s.metas.length <= (this.told ?? 0)) return undefined;
    const known = this.table.length;
    const own = s.format.tokenTable;
    if (own && s.metas.length > known) pushAll(this.table, own.instant(s, known), known);
    if (opts.followDefault) this.view.selectedLeaf = undefined;
    this.view.recompute();
    this.startCounting();
    if (this.told === undefined) return undefined;
    const added = s.metas.length - this.told;
    if (added <= 0 && opts.followDefault) return undefined;
    this.told = s.metas.length;
    return { type: "sessionChanged", session: this.info(), rowCount: this.view.rowCount, added, bars: this.bars(), cost: this.costView() };
  }

  /** Token bars: the default leaf, the selected branch and the most recent others, each with its branch's cost. */
  bars(): TokenBar[] {
    const opts = this.opts.tokenOptions?.() ?? {};
    const bars = formatBars(this.s, this.view.selectedLeaf, opts, this.table);
    const ledger = this.ledger();
    for (const bar of bars) {
      const leaf = this.s.tree.indexOf(bar.leafId);
      if (leaf !== undefined) bar.cost = ledger.branch(leaf);
    }
    return bars;
  }

  info(): SessionInfoView {
    return sessionInfoView(this.s, this.opts.trusted(), this.opts.titleOf?.(this.s.path));
  }

  /**
   * What a request of the webview gets back. Ids are checked against the session
   * first; throws what the webview shows as an error notice.
   */
  answer<T extends RequestType>(msg: Extract<ExplorerRequest, { type: T }>): ReplyResults[T];
  answer(msg: ExplorerRequest): ReplyResults[RequestType] {
    const view = this.view;
    switch (msg.type) {
      case "rows":
        return { start: msg.start, rows: view.page(msg.start, msg.count), rowCount: view.rowCount };
      case "details": {
        const nested = this.nesting.details(msg.id, msg.fullBlock);
        if (nested) return nested;
        return detailsWithCost(this.s, this.ledger(), this.entryIndex(msg.id), msg.fullBlock);
      }
      case "setFilter":
        return { rowCount: view.setFilter(msg.filter) };
      case "toggleFold":
        this.entryIndex(msg.id);
        return { rowCount: view.toggleFold(msg.id) };
      case "search":
        return { matches: view.search(msg.query) };
      case "select": {
        // A sub-agent's row selects the call it hangs under (its branch's bars and files), the row staying selected.
        const call = this.nesting.callOf(msg.id);
        if (call !== undefined) return { ...this.answer({ ...msg, id: call }), rowIndex: view.indexOfId(msg.id) };
        this.entryIndex(msg.id);
        const keep = msg.keepLeaf === undefined ? undefined : this.s.tree.indexOf(msg.keepLeaf);
        const { entry, rowIndex } = view.select(msg.id, keep);
        this.selected = msg.id;
        const format = this.s.format;
        const files = this.files.offer(format.files ? format.files(this.s, this.s.tree.path(entry)) : []);
        return { bars: this.bars(), files, rowIndex };
      }
      case "reveal": {
        const at = this.entryIndex(msg.id);
        // A line of an inline sub-agent shows nested under its call: its call is revealed, the filter kept.
        const inline = this.nesting.expandInlineAround(this.s, at, this.opts.prices?.());
        const { entry, rowIndex: own, unfolded } = view.reveal(inline ? this.s.metas[inline.call].id : msg.id);
        const rowIndex = inline ? Math.max(own, view.indexOfId(inline.id)) : own;
        this.selected = msg.id;
        const format = this.s.format;
        const files = this.files.offer(format.files ? format.files(this.s, this.s.tree.path(entry)) : []);
        return { bars: this.bars(), files, rowIndex, rowCount: view.rowCount, filter: view.filter, unfolded };
      }
      case "expandSubagent":
        throw new Error("expandSubagent reads the sub-agent's transcript: it is answered by answerAsync");
      case "timeline":
        return contextTimeline(this.s, this.entryIndex(msg.leafId), { windows: this.opts.tokenOptions?.().windows });
      case "timelinePosition":
        return { position: timelinePosition(this.s, this.entryIndex(msg.leafId), msg.id) };
      default:
        return unknownRequest(msg);
    }
  }

  /**
   * What a request gets back, with the long ones computed in slices: the timeline reads
   * every entry of its path (seconds on a 100 MB session), so it yields to the event loop
   * and a newer timeline request stops the older one. The rest as answer() does.
   */
  async answerAsync<T extends RequestType>(msg: Extract<ExplorerRequest, { type: T }>): Promise<ReplyResults[T]>;
  async answerAsync(msg: ExplorerRequest): Promise<ReplyResults[RequestType]> {
    if (msg.type === "timeline") return this.timeline(msg.leafId);
    if (msg.type === "details") return this.detailsWithSubagents(msg);
    if (msg.type === "expandSubagent") {
      await this.nesting.expand(this.s, this.entryIndex(msg.id), msg.expand, this.opts.prices?.());
      this.view.recompute();
      return { rowCount: this.view.rowCount };
    }
    return this.answer(msg);
  }

  /** An entry's details, each sub-agent it started given its own context size and cost (read from its transcript). */
  private async detailsWithSubagents(msg: Extract<ExplorerRequest, { type: "details" }>): Promise<ReplyResults["details"]> {
    return withSubagentFigures(this.s, this.answer(msg), this.opts.prices?.());
  }

  private async timeline(leafId: string): Promise<ContextTimeline> {
    const leaf = this.entryIndex(leafId);
    this.timelineRun?.abort(new OvertakenError("a newer timeline was asked for"));
    const run = (this.timelineRun = new AbortController());
    try {
      return await contextTimelineAsync(this.s, leaf, { windows: this.opts.tokenOptions?.().windows, signal: run.signal });
    } finally {
      if (this.timelineRun === run) this.timelineRun = undefined;
    }
  }

  /** Why an action the webview asked for may not run (undefined: it may). */
  actionRefusal(msg: Pick<ActionMessage, "action" | "id">): string | undefined {
    const nested = this.nesting.refusal(msg.action, msg.id);
    if (nested) return `${msg.action} on entry ${quoteId(msg.id)} of ${this.s.path}: ${nested}`;
    const why = actionRefusal(msg.action, this.s.tree.indexOf(msg.id) !== undefined, this.info().unavailable);
    return why && `${msg.action} on entry ${quoteId(msg.id)} of ${this.s.path}: ${why}`;
  }

  /** Whether the webview may open a path, and where it is. */
  fileToOpen(path: string): FileToOpen {
    return this.files.toOpen(path);
  }

  /** The transcript of sub-agent `agentId` that entry `id` started, when the format links it and the file is there. */
  subagentToOpen(id: string, agentId: string): string | undefined {
    return this.subagentRef(id, agentId)?.path;
  }

  /** The first line of sub-agent `agentId` that entry `id` started, when it was written inline in this file. */
  inlineSubagentEntry(id: string, agentId: string): string | undefined {
    return this.subagentRef(id, agentId)?.inlineEntryId;
  }

  private subagentRef(id: string, agentId: string) {
    const i = this.s.tree.indexOf(id);
    if (i === undefined) return undefined;
    return this.s.format.details?.(this.s, i).subagents?.find((a) => a.agentId === agentId);
  }

  private entryIndex(id: string): number {
    const i = this.s.tree.indexOf(id);
    if (i === undefined) throw new Error(`${this.s.path}: no entry with id ${quoteId(id)}`);
    return i;
  }
}

/** The format's own per-entry token table (estimates now, exact counts later); formats without one need none. */
function tableFor(session: SessionReader): EntryTokens[] {
  return session.format.tokenTable?.instant(session) ?? [];
}

/** An id the webview sent, quoted for a message: one line, cut, hidden characters marked. */
export function quoteId(id: string): string {
  return visibleText(JSON.stringify(clipText(id, 80)));
}

function unknownRequest(msg: never): never {
  throw new Error(`unknown request ${quoteId(String((msg as { type?: unknown }).type))}`);
}
