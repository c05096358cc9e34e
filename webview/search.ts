import { codicon, custom, el } from "./dom";

export interface SearchCallbacks {
  /** Row indexes matching the query in the current view. */
  search(query: string): Promise<number[]>;
  /** Go to a match (select and scroll to it). */
  goTo(rowIndex: number): void;
  /** Highlight these matches of `query`; `current` is the one selected, -1 for none. */
  highlight(matches: number[], current: number, query: string): void;
  /** Where the selection is, to pick the next match from there. */
  selectedIndex(): number;
}

interface TextField extends HTMLElement {
  value: string;
}

/** The search box: matches are row indexes from the host; next/previous wrap around. */
export class SearchBox {
  readonly element: HTMLElement;
  readonly field: TextField;
  private readonly status = el("span", { className: "search-status", attrs: { "aria-live": "polite" } });
  private matches: number[] = [];
  private current = -1;
  private query = "";
  private timer = 0;
  private seq = 0;
  /** The search of `query` still in flight, if any. */
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly cb: SearchCallbacks) {
    this.field = custom<TextField>("vscode-textfield", { placeholder: "Search entries", "aria-label": "Search entries", type: "search" });
    this.field.appendChild(Object.assign(codicon("search"), { slot: "content-before" }));
    const prev = this.button("arrow-up", "Previous match (Shift+Enter)", () => this.step(-1));
    const next = this.button("arrow-down", "Next match (Enter)", () => this.step(1));
    this.element = el("div", { className: "search", attrs: { role: "search" } }, [this.field, this.status, prev, next]);
    this.field.addEventListener("input", () => this.schedule());
    this.field.addEventListener("keydown", (e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        void this.flush().then(() => this.step(e.shiftKey ? -1 : 1));
      } else if (e.key === "Escape") {
        this.set("");
      }
    });
  }

  get value(): string {
    return this.query;
  }

  /** Sets the query (restored state or Escape) and searches. */
  set(query: string): void {
    this.field.value = query;
    void this.run(query);
  }

  /** The rows changed (filter, fold, append): search again, keep the query. */
  refresh(): void {
    if (this.query) void this.run(this.query);
  }

  focus(): void {
    this.field.focus();
  }

  step(dir: 1 | -1): void {
    if (this.matches.length === 0) return;
    const sel = this.cb.selectedIndex();
    let k: number;
    if (dir > 0) {
      k = this.matches.findIndex((m) => m > sel);
      if (k < 0) k = 0;
    } else {
      k = -1;
      for (let j = this.matches.length - 1; j >= 0; j--) if (this.matches[j] < sel) { k = j; break; }
      if (k < 0) k = this.matches.length - 1;
    }
    this.current = k;
    this.cb.goTo(this.matches[k]);
    this.paint();
  }

  private button(icon: string, label: string, onClick: () => void): HTMLElement {
    const b = custom("vscode-button", { icon, "icon-only": "", secondary: "", title: label, "aria-label": label });
    b.addEventListener("click", onClick);
    return b;
  }

  private schedule(): void {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => void this.flush(), 200);
  }

  /**
   * Searches for what the field holds now, unless that search is under way already: then
   * its answer is awaited (Enter right after the debounced search started must step
   * through its matches, not through none).
   */
  private flush(): Promise<void> {
    window.clearTimeout(this.timer);
    const q = this.field.value;
    return q === this.query ? this.running : this.run(q);
  }

  private run(query: string): Promise<void> {
    this.running = this.search(query);
    return this.running;
  }

  private async search(query: string): Promise<void> {
    this.query = query;
    const seq = ++this.seq;
    if (!query) {
      this.matches = [];
      this.current = -1;
      this.paint();
      return;
    }
    const matches = await this.cb.search(query).catch(() => [] as number[]);
    if (seq !== this.seq) return;
    this.matches = [...matches].sort((a, b) => a - b);
    this.current = this.matches.indexOf(this.cb.selectedIndex());
    this.paint();
  }

  private paint(): void {
    const n = this.matches.length;
    this.status.textContent = !this.query ? "" : n === 0 ? "No results" : this.current >= 0 ? `${this.current + 1} of ${n}` : `${n} matches`;
    this.cb.highlight(this.matches, this.current >= 0 ? this.matches[this.current] : -1, this.query);
  }
}
