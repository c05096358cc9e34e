import { DETAILS_PER_CHUNK, DETAILS_SCRIPT_PREFIX, type PageBranch, type PageDetails, type PageIndex, indexInRuns, unpackRows } from "../src/core/export/html-data";
import type { EntryDetails, HostToWebview, ReplyResults, TimelinePoint, TokenBar, WebviewToHost } from "../src/protocol";
import { RowView } from "../src/explorer/row-view";
import { staticSession } from "./static-session";
import type { VsCodeApi } from "./vscode-api";

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

  constructor(
    private readonly idx: PageIndex,
    /** The text of the page's details script n (parsed on the first look at one of its entries). */
    private readonly chunkText: (n: number) => string | undefined,
    private readonly send: (m: HostToWebview) => void,
    /** While the browser still parses the page: when it is done (the details come after the script). */
    private readonly parsed: () => Promise<void> | undefined = () => undefined,
  ) {
    this.view = new RowView(staticSession(idx));
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
      case "expandSubagent":
        return { rowCount: view.rowCount };
      case "select": {
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
    const i = this.index(id);
    const per = DETAILS_PER_CHUNK;
    const n = Math.floor(i / per);
    let chunk = this.chunks.get(n);
    if (!chunk) {
      const text = this.chunkText(n);
      if (text === undefined && this.parsed()) throw new NotYetParsed();
      if (text === undefined) throw new Error(`the details of entry ${JSON.stringify(id.slice(0, 80))} are not in this page`);
      chunk = JSON.parse(text) as PageDetails[];
      this.chunks.set(n, chunk);
    }
    const p = chunk[i - n * per];
    const blocks = p.d.blocks.map((b, k) => {
      const whole = p.full?.[k];
      if (whole && k === fullBlock) return whole;
      const shown = p.shown?.[k];
      return shown !== undefined && whole?.text !== undefined ? { ...b, text: whole.text.slice(0, shown) } : b;
    });
    return { ...p.d, blocks };
  }
}

/** The script elements' ids of the page's details, for chunkText. */
export const detailsScriptId = (n: number) => `${DETAILS_SCRIPT_PREFIX}${n}`;

/** A VS Code API stand-in over a StaticHost: replies arrive as the host's messages do, as window message events. */
export function staticApi(make: (send: (m: HostToWebview) => void) => StaticHost): VsCodeApi {
  let state: unknown;
  const send = (m: HostToWebview) => window.dispatchEvent(new MessageEvent("message", { data: m }));
  const host = make(send);
  return {
    // Answered after the caller's turn, as a real host's reply would be.
    postMessage: (m) => void Promise.resolve().then(() => host.receive(m)),
    getState: () => state,
    setState: (s) => {
      state = s;
    },
  };
}
