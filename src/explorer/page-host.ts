import { DETAILS_PER_CHUNK, DETAILS_SCRIPT_PREFIX, type PageBranch, type PageDetails, type PageIndex, type PageSubagents, SUBAGENTS_SCRIPT_PREFIX, indexInRuns, unpackRows } from "../core/export/html-data";
import type { EntryDetails, HostToWebview, ReplyResults, TimelinePoint, TokenBar, WebviewToHost } from "../protocol";
import { RowView } from "./row-view";
import { StaticNesting } from "./page-nesting";
import { staticSession } from "./page-session";

type Request = Extract<WebviewToHost, { requestId: number }>;

/** A details block the browser has not parsed yet: the request is answered once it has. */
class NotYetParsed extends Error {}

/**
 * The host of an exported page: it answers the webview's protocol from the data embedded
 * in the page, as the extension host answers it from the session file. Rows come from
 * the explorer's own RowView over the page's tree; details, bars, files and timelines
 * were computed by the extension's code at export. The page is read-only: actions and
 * file opening have nothing to do.
 */
export class StaticHost {
  private readonly view: RowView;
  private readonly branches = new Map<number, PageBranch>();
  private readonly chunks = new Map<number, PageDetails[]>();
  private readonly positions = new Map<string, number>();
  private readonly nesting: StaticNesting;

  constructor(
    private readonly idx: PageIndex,
    /** The text of a data script of the page by its id (a details chunk is parsed on the first look at one of its entries). */
    private readonly scriptText: (id: string) => string | undefined,
    private readonly send: (m: HostToWebview) => void,
    /** While the browser still parses the page: when it is done (the details come after the script). */
    private readonly parsed: () => Promise<void> | undefined = () => undefined,
  ) {
    this.view = new RowView(staticSession(idx));
    this.nesting = new StaticNesting(idx, (k) => {
      const text = scriptText(`${SUBAGENTS_SCRIPT_PREFIX}${k}`);
      return text === undefined ? undefined : (JSON.parse(text) as PageSubagents);
    });
    this.view.nesting = this.nesting;
    for (const b of idx.branches) this.branches.set(b.leaf, b);
    idx.ids.forEach((id, i) => this.positions.set(id, i));
  }

  /** The webview's postMessage. */
  receive(m: WebviewToHost): void {
    if (m.type === "ready") {
      this.send({ ...this.idx.init, rowCount: this.view.rowCount, filter: this.view.filter });
      return;
    }
    if (!("requestId" in m)) return;
    try {
      this.send({ type: "reply", requestId: m.requestId, ok: true, result: this.answer(m) });
    } catch (err) {
      const parsed = err instanceof NotYetParsed ? this.parsed() : undefined;
      if (parsed) {
        void parsed.then(() => this.receive(m));
        return;
      }
      this.send({ type: "reply", requestId: m.requestId, ok: false, error: err instanceof Error ? err.message : String(err) });
    }
  }

  answer(m: Request): ReplyResults[Request["type"]] {
    const view = this.view;
    switch (m.type) {
      case "rows":
        return { start: m.start, rows: view.page(m.start, m.count), rowCount: view.rowCount };
      case "details":
        return this.details(m.id, m.fullBlock);
      case "setFilter":
        return { rowCount: view.setFilter(m.filter) };
      case "toggleFold":
        return { rowCount: view.toggleFold(m.id) };
      case "search":
        return { matches: view.search(m.query) };
      case "expandSubagent": {
        if (!this.nesting.expand(this.index(m.id), m.expand)) {
          if (this.parsed()) throw new NotYetParsed();
          throw new Error(`the sub-agents of entry ${JSON.stringify(m.id.slice(0, 80))} are not in this page`);
        }
        view.recompute();
        return { rowCount: view.rowCount };
      }
      case "select": {
        // A sub-agent's row selects the call it hangs under (its branch's bars and files), the row staying selected.
        const call = this.nesting.callOf(m.id);
        if (call !== undefined) return { ...this.answer({ ...m, id: this.idx.ids[call] }), rowIndex: view.indexOfId(m.id) } as ReplyResults["select"];
        const keep = m.keepLeaf === undefined ? undefined : this.index(m.keepLeaf);
        const { leaf, rowIndex } = view.select(m.id, keep);
        return { ...this.branchView(leaf), rowIndex };
      }
      case "reveal": {
        const { rowIndex, unfolded } = view.reveal(m.id);
        const leaf = view.selectedLeaf ?? this.idx.defaultLeaf;
        return { ...this.branchView(leaf), rowIndex, rowCount: view.rowCount, filter: view.filter, unfolded };
      }
      case "timeline": {
        const b = this.branches.get(this.index(m.leafId));
        if (!b) throw new Error("this branch's context growth is not in the page");
        return { ...b.timeline, points: unpackRows<TimelinePoint>(this.idx.points, b.timeline.points) };
      }
      case "timelinePosition": {
        const b = this.branches.get(this.index(m.leafId));
        const i = this.positions.get(m.id);
        return { position: b && i !== undefined ? indexInRuns(b.timelinePath, i) : -1 };
      }
      default: {
        const never: never = m;
        throw new Error(`unknown request ${String((never as { type?: unknown }).type)}`);
      }
    }
  }

  private index(id: string): number {
    const at = this.positions.get(id);
    if (at === undefined) throw new Error(`no entry with id ${JSON.stringify(id.slice(0, 80))} in this page`);
    return at;
  }

  /** The bars with the leaf's selected (its own bar added when the default view has none for it), and its files. */
  private branchView(leaf: number): { bars: TokenBar[]; files: ReplyResults["select"]["files"] } {
    const b = this.branches.get(leaf);
    const id = this.idx.ids[leaf];
    const bars = this.idx.init.bars.map((x) => ({ ...x, selected: x.leafId === id }));
    if (b && !bars.some((x) => x.selected)) bars.push({ ...b.bar, selected: true });
    return { bars, files: b?.files ?? [] };
  }

  private details(id: string, fullBlock?: number): EntryDetails {
    const nested = this.nesting.details(id);
    if (nested) return unpack(nested, fullBlock);
    const i = this.index(id);
    const per = DETAILS_PER_CHUNK;
    const n = Math.floor(i / per);
    let chunk = this.chunks.get(n);
    if (!chunk) {
      const text = this.scriptText(detailsScriptId(n));
      if (text === undefined && this.parsed()) throw new NotYetParsed();
      if (text === undefined) throw new Error(`the details of entry ${JSON.stringify(id.slice(0, 80))} are not in this page`);
      chunk = JSON.parse(text) as PageDetails[];
      this.chunks.set(n, chunk);
    }
    return unpack(chunk[i - n * per], fullBlock);
  }
}

/** An entry's details as the panel gets them, each cut block's shown text cut again from its whole one. */
function unpack(p: PageDetails, fullBlock?: number): EntryDetails {
  const blocks = p.d.blocks.map((b, k) => {
    const whole = p.full?.[k];
    if (whole && k === fullBlock) return whole;
    const shown = p.shown?.[k];
    return shown !== undefined && whole?.text !== undefined ? { ...b, text: whole.text.slice(0, shown) } : b;
  });
  return { ...p.d, blocks };
}

/** The script elements' ids of the page's details, for chunkText. */
export const detailsScriptId = (n: number) => `${DETAILS_SCRIPT_PREFIX}${n}`;

