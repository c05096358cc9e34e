import type { ReplyResults, Row } from "../src/protocol";

export const PAGE_SIZE = 128;
const MAX_PAGES = 24;

type FetchRows = (start: number, count: number) => Promise<ReplyResults["rows"]>;

/**
 * Rows of the current view in fixed pages fetched on demand and kept in a small LRU.
 * `generation` goes up whenever the view changes (filter, fold, append) so replies
 * for an older view are dropped instead of mixing two views.
 */
export class RowCache {
  private readonly pages = new Map<number, Row[]>();
  private readonly inflight = new Map<number, Promise<void>>();
  private generation = 0;
  rowCount = 0;

  constructor(
    private readonly fetchRows: FetchRows,
    private readonly onPage: () => void,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Forget every page (the view changed); rowCount is the new size. */
  reset(rowCount: number): void {
    this.generation++;
    this.pages.clear();
    this.inflight.clear();
    this.rowCount = rowCount;
  }

  get(index: number): Row | undefined {
    const page = this.pages.get(Math.floor(index / PAGE_SIZE));
    return page?.[index % PAGE_SIZE];
  }

  /** Makes sure rows [first, last] are (being) fetched; touches their pages for the LRU. */
  ensure(first: number, last: number): Promise<void> {
    if (this.rowCount === 0) return Promise.resolve();
    const lo = Math.max(0, Math.floor(first / PAGE_SIZE));
    const hi = Math.min(Math.floor((this.rowCount - 1) / PAGE_SIZE), Math.floor(Math.max(first, last) / PAGE_SIZE));
    const waits: Promise<void>[] = [];
    for (let p = lo; p <= hi; p++) {
      const page = this.pages.get(p);
      if (page) {
        this.pages.delete(p);
        this.pages.set(p, page);
      } else {
        waits.push(this.load(p));
      }
    }
    return Promise.all(waits).then(() => undefined);
  }

  get cachedPages(): number {
    return this.pages.size;
  }

  private load(p: number): Promise<void> {
    const running = this.inflight.get(p);
    if (running) return running;
    const gen = this.generation;
    const start = p * PAGE_SIZE;
    const count = Math.min(PAGE_SIZE, this.rowCount - start);
    const job = this.fetchRows(start, count).then(
      (res) => {
        if (gen !== this.generation) return;
        this.inflight.delete(p);
        this.rowCount = res.rowCount;
        this.pages.set(p, res.rows);
        while (this.pages.size > MAX_PAGES) {
          const oldest = this.pages.keys().next().value as number;
          this.pages.delete(oldest);
        }
        this.onPage();
      },
      (err: unknown) => {
        if (gen === this.generation) this.inflight.delete(p);
        this.onError(err);
      },
    );
    this.inflight.set(p, job);
    return job;
  }
}
