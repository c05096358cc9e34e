import type { RowFilter } from "../src/protocol";
import type { VsCodeApi } from "./vscode-api";

/** What survives a webview reload: view state only; the data is always refetched. */
export interface ViewState {
  /** The session file, so VS Code's panel serializer can reopen this panel after a reload. */
  file?: string;
  selectedId?: string;
  selectedIndex: number;
  scrollTop: number;
  filter: RowFilter;
  folded: string[];
  query: string;
}

const DEFAULTS: ViewState = { selectedIndex: -1, scrollTop: 0, filter: "default", folded: [], query: "" };
const FILTERS: readonly string[] = ["user", "default", "all"];

/** Reads the saved state defensively (it may come from an older version). */
export function loadViewState(api: Pick<VsCodeApi, "getState">): ViewState {
  const raw = api.getState();
  if (!raw || typeof raw !== "object") return { ...DEFAULTS };
  const o = raw as Record<string, unknown>;
  const num = (v: unknown, d: number): number => (typeof v === "number" && Number.isFinite(v) ? v : d);
  return {
    file: typeof o.file === "string" ? o.file : undefined,
    selectedId: typeof o.selectedId === "string" ? o.selectedId : undefined,
    selectedIndex: num(o.selectedIndex, -1),
    scrollTop: Math.max(0, num(o.scrollTop, 0)),
    filter: typeof o.filter === "string" && FILTERS.includes(o.filter) ? (o.filter as RowFilter) : "default",
    folded: Array.isArray(o.folded) ? o.folded.filter((x): x is string => typeof x === "string").slice(0, 1000) : [],
    query: typeof o.query === "string" ? o.query.slice(0, 1000) : "",
  };
}

/** Saves at most every 250 ms (scrolling fires often). */
export class ViewStateStore {
  private timer = 0;

  constructor(
    private readonly api: Pick<VsCodeApi, "setState">,
    readonly state: ViewState,
  ) {}

  update(patch: Partial<ViewState>): void {
    Object.assign(this.state, patch);
    if (this.timer) return;
    this.timer = window.setTimeout(() => this.flush(), 250);
  }

  flush(): void {
    window.clearTimeout(this.timer);
    this.timer = 0;
    this.api.setState({ ...this.state, folded: [...this.state.folded] });
  }
}
