import "./elements";
import type { EntryDetails, FileActivityView, InitMessage, LoadFailedMessage, NoticeMessage, RowFilter, SessionChangedMessage, TokenBar } from "../src/protocol";
import { CostChip } from "./cost-chip";
import { DetailPane } from "./detail-pane";
import { clip, codicon, custom, el, formatInt, oneLine, TITLE_MAX } from "./dom";
import { FileList } from "./file-list";
import { RpcClient, RpcDisposedError, type HostEvent } from "./rpc";
import { SearchBox } from "./search";
import { TimelineChart } from "./timeline-chart";
import { TokenBars } from "./token-bars";
import { EntryTree } from "./tree";
import { columnHead } from "./row-view";
import { followWidth } from "./layout";
import { loadViewState, ViewStateStore } from "./view-state";
import { vscodeApi } from "./vscode-api";

const FILTER_LABELS: Record<RowFilter, string> = { user: "User messages", default: "Conversation", all: "All entries" };
const SELECT_DELAY_MS = 80;

interface SingleSelect extends HTMLElement {
  value: string;
}

const api = vscodeApi();
const store = new ViewStateStore(api, loadViewState(api));
// The file this panel shows goes into the saved state at once (see html-template.ts).
const pageFile = document.body.dataset.sessionFile;
if (pageFile && store.state.file !== pageFile) {
  store.update({ file: pageFile });
  store.flush();
}
const folded = new Set(store.state.folded);
let initialized = false;
let selectTimer = 0;
let selectSeq = 0;
let detailSeq = 0;
/** The entry whose details were last asked for (a keyboard move asks once it settles). */
let detailId: string | undefined;
/** The running init (its restore selects an entry too): a showEntry waits for it. */
let initRun: Promise<void> = Promise.resolve();

const rpc = new RpcClient(api, (e) => onHostEvent(e));

// ---- layout ----
const app = document.getElementById("app") ?? document.body.appendChild(el("div", { className: "app" }));
const title = el("span", { className: "session-title" });
const subtitle = el("span", { className: "session-sub" });
const badges = el("span", { className: "session-badges" });
const costChip = new CostChip();
const filterSelect = custom<SingleSelect>(
  "vscode-single-select",
  { "aria-label": "Show", class: "filter", title: "Which entries the tree shows" },
  (Object.keys(FILTER_LABELS) as RowFilter[]).map((f) => {
    const o = custom("vscode-option", { value: f });
    o.textContent = FILTER_LABELS[f];
    return o;
  }),
);
filterSelect.value = store.state.filter;

const detail = new DetailPane({
  action: (action, id) => rpc.post({ type: "action", action, id }),
  openSubagent: (entryId, agentId) => rpc.post({ type: "openSubagent", entryId, agentId }),
  showAll: async (id, block) => {
    try {
      const d = await rpc.request<"details">({ type: "details", id, fullBlock: block });
      return d.blocks[block];
    } catch (err) {
      report(err);
      return undefined;
    }
  },
});
const bars = new TokenBars((leafId) => void pickEntry(leafId, false));
// A step picked on the chart selects its entry and keeps the chart's branch active.
const timeline = new TimelineChart((id) => void pickEntry(id, false, true, timelineLeaf));
const files = new FileList((path) => rpc.post({ type: "openFile", path }));

const tree = new EntryTree(rpc, {
  onSelect: (row, index) => {
    // A sub-agent's nested row is not kept across a reload (it shows collapsed): its call is.
    store.update({ selectedId: row.nested?.callId ?? row.id, selectedIndex: index });
    window.clearTimeout(selectTimer);
    // The details follow the selection, as VS Code's own trees do: the pane and its
    // actions always name the highlighted row (End then "Compare" compared the first one).
    selectTimer = window.setTimeout(() => {
      void loadSelection(row.id);
      if (detailId !== row.id) void loadDetails(row.id);
    }, SELECT_DELAY_MS);
  },
  onOpen: (row) => void loadDetails(row.id),
  onFolded: (id, isFolded) => {
    if (isFolded) folded.add(id);
    else folded.delete(id);
    store.update({ folded: [...folded] });
    search.refresh();
  },
  onScroll: (scrollTop) => store.update({ scrollTop }),
  onError: report,
});

const search = new SearchBox({
  search: async (query) => {
    store.update({ query });
    return (await rpc.request<"search">({ type: "search", query })).matches;
  },
  goTo: (index) => void tree.select(index, { center: true }),
  highlight: (matches, current, query) => tree.setMatches(matches, current, query),
  selectedIndex: () => tree.selected,
});

const notices = el("div", { className: "notices", attrs: { role: "status" } });
const toolbar = el("header", { className: "toolbar" }, [
  el("div", { className: "session-head" }, [codicon("history"), title, subtitle, costChip.element, badges]),
  el("div", { className: "controls" }, [filterSelect, search.element]),
]);
const treePane = el("div", { className: "tree-pane", attrs: { slot: "start" } }, [columnHead(), tree.element]);
const section = (heading: string, body: HTMLElement, open = true): HTMLElement => {
  const c = custom("vscode-collapsible", { heading, class: "side-section" }, [body]);
  if (open) c.setAttribute("open", "");
  return c;
};
// Details first: they follow the selection and must be in view without scrolling.
const sidePane = el("div", { className: "side-pane", attrs: { slot: "end" } }, [
  section("Details", detail.element),
  section("Context", bars.element),
  section("Context growth", timeline.element),
  section("Files", files.element),
]);
const split = custom("vscode-split-layout", { class: "main-split", "initial-handle-position": "58%" }, [treePane, sidePane]);
followWidth(split);
app.replaceChildren(toolbar, notices, split);

filterSelect.addEventListener("change", () => void setFilter(filterSelect.value as RowFilter));
document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "f") {
    e.preventDefault();
    search.focus();
  } else if (e.key === "F3") {
    e.preventDefault();
    search.step(e.shiftKey ? -1 : 1);
  }
});
window.addEventListener("pagehide", () => {
  store.flush();
  rpc.dispose();
});

rpc.post({ type: "ready", restore: { filter: store.state.filter, folded: [...folded] } });

// ---- behaviour ----
function onHostEvent(e: HostEvent): void {
  switch (e.type) {
    case "init":
      initRun = onInit(e);
      break;
    case "sessionChanged":
      onSessionChanged(e);
      break;
    case "bars":
      bars.render(e.bars);
      void showTimeline(e.bars, false);
      break;
    case "cost":
      costChip.render(e.cost);
      bars.render(e.bars);
      break;
    case "loading":
      if (!initialized) showLoading(e.bytesRead, e.totalBytes);
      else if (reading) showReading(e.bytesRead, e.totalBytes);
      break;
    case "loadFailed":
      showLoadFailed(e);
      break;
    case "notice":
      showNotice(e);
      break;
    case "showEntry":
      void showEntry(e.id);
      break;
    default: {
      const never: never = e;
      void never;
    }
  }
}

const percent = (done: number, total: number) => (total ? Math.min(100, Math.floor((100 * done) / total)) : 100);
const sizeText = (n: number) => (n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GB` : `${Math.max(1, Math.round(n / 2 ** 20))} MB`);

/** Until the first init: how much of the session the host has read. */
function showLoading(done: number, total: number): void {
  title.textContent = "Loading session…";
  subtitle.textContent = `${percent(done, total)}% of ${sizeText(total)} read`;
}

/** Shown while the rows are those of a large session's first part and the rest is read. */
let reading: HTMLElement | undefined;
/** Bytes of that first part (progress messages count the rest as it is read). */
let shownBytes = 0;

function showReading(done: number, total: number): void {
  if (!reading) return;
  reading.textContent = `reading the rest… ${percent(done, total)}%`;
  reading.title = `The tree shows the entries of the first ${sizeText(shownBytes)} of ${sizeText(total)}; the rest is being read and will be added.`;
}

function showSession(s: InitMessage["session"]): void {
  const base = s.path.split(/[\\/]/).pop() ?? s.path;
  // Text views of session data: hidden characters marked, long names cut (see dom.ts).
  title.textContent = oneLine(s.name ?? base, 300);
  title.title = oneLine(s.path, TITLE_MAX);
  subtitle.textContent = `${oneLine(s.agent, 100)} · ${oneLine(s.cwd, 1000)}${s.version !== undefined ? ` · v${s.version}` : ""}`;
  const b: HTMLElement[] = [];
  const count = custom("vscode-badge", { variant: "counter" });
  count.textContent = formatInt(s.entryCount);
  b.push(el("span", { className: "entry-count", title: `${formatInt(s.entryCount)} entries in the session file (every kind, whatever the tree shows)` }, [count, document.createTextNode(" entries")]));
  if (s.readOnly) b.push(el("span", { className: "chip readonly-chip", text: "read-only", title: [...new Set(Object.values(s.unavailable))].join("\n") }));
  if (s.problems.length) b.push(el("span", { className: "chip problem-chip", text: `${s.problems.length} problems`, title: s.problems.join("\n") }));
  reading = undefined;
  if (s.reading) {
    reading = el("span", { className: "chip reading-chip", attrs: { role: "status" } });
    shownBytes = s.reading.bytesRead;
    b.push(reading);
    showReading(s.reading.bytesRead, s.reading.totalBytes);
  }
  badges.replaceChildren(...b);
  detail.setUnavailable(s.unavailable);
  // What the context menu offers on every row and bar (VS Code merges this with theirs).
  // The session's path names the panel the menu was opened in (the command looks it up among the open panels).
  const offers = Object.fromEntries((["fork", "continue", "label", "compact"] as const).map((a) => [`offers_${a}`, s.unavailable[a] === undefined]));
  document.body.dataset.vscodeContext = JSON.stringify({ sessionPath: s.path, ...offers });
}

/** Shown instead of the tree when the session could not be loaded: why, and Retry. */
const failure = el("div", { className: "load-failed", attrs: { role: "alert" } });

function showLoadFailed(m: LoadFailedMessage): void {
  initialized = false;
  reading = undefined;
  tree.setRowCount(0);
  title.textContent = "Could not load this session";
  title.title = oneLine(m.file, TITLE_MAX);
  subtitle.textContent = oneLine(m.file, 1000);
  badges.replaceChildren();
  costChip.render(undefined);
  const retry = custom("vscode-button", { icon: "refresh", class: "retry-load" });
  retry.textContent = "Retry";
  retry.addEventListener("click", () => {
    retry.setAttribute("disabled", "");
    title.textContent = "Loading session…";
    app.setAttribute("aria-busy", "true");
    rpc.post({ type: "retryLoad" });
  });
  failure.replaceChildren(
    el("div", { className: "load-failed-head" }, [codicon("error"), el("span", { text: "The session could not be loaded:" })]),
    el("pre", { className: "load-failed-reason", text: m.reason }),
    el("div", { className: "load-failed-actions" }, [retry]),
  );
  app.replaceChildren(toolbar, notices, failure);
  app.removeAttribute("aria-busy");
}

async function onInit(m: InitMessage): Promise<void> {
  const restoring = !initialized;
  initialized = true;
  if (failure.isConnected) app.replaceChildren(toolbar, notices, split);
  if (store.state.file !== m.session.path) {
    store.update({ file: m.session.path });
    store.flush();
  }
  showSession(m.session);
  costChip.render(m.cost);
  bars.render(m.bars);
  void showTimeline(m.bars, true);
  filterSelect.value = m.filter;
  tree.setRowCount(m.rowCount);
  app.removeAttribute("aria-busy");
  if (!restoring) return;
  const saved = { ...store.state };
  if (saved.filter !== m.filter) await setFilter(saved.filter);
  tree.list.setScrollTop(saved.scrollTop);
  if (saved.selectedId) await pickEntry(saved.selectedId, true, saved.scrollTop === 0);
  else if (m.rowCount > 0) await tree.select(Math.max(0, saved.selectedIndex), { silent: saved.selectedIndex < 0 });
  if (saved.query) search.set(saved.query);
}

function onSessionChanged(m: SessionChangedMessage): void {
  const list = tree.list;
  const atEnd = list.scrollTop + list.visibleRows * list.rowHeight >= list.rowCount * list.rowHeight - list.rowHeight;
  showSession(m.session);
  costChip.render(m.cost);
  bars.render(m.bars);
  void showTimeline(m.bars, true);
  const top = list.scrollTop;
  tree.setRowCount(m.rowCount);
  list.setScrollTop(atEnd ? Number.MAX_SAFE_INTEGER : top);
  search.refresh();
}

function showNotice(n: NoticeMessage): void {
  const close = custom("vscode-button", { icon: "close", "icon-only": "", secondary: "", "aria-label": "Dismiss", title: "Dismiss" });
  const item = el("div", { className: `notice notice-${n.level}` }, [codicon(n.level === "info" ? "info" : n.level), el("span", { className: "notice-text", text: clip(n.text, TITLE_MAX) }), close]);
  close.addEventListener("click", () => item.remove());
  notices.appendChild(item);
  while (notices.childElementCount > 3) notices.firstElementChild?.remove();
}

async function setFilter(filter: RowFilter): Promise<void> {
  try {
    const { rowCount } = await rpc.request<"setFilter">({ type: "setFilter", filter });
    filterSelect.value = filter;
    store.update({ filter });
    const id = tree.selectedRow()?.id ?? store.state.selectedId;
    tree.setRowCount(rowCount);
    if (id) await pickEntry(id, true);
    search.refresh();
  } catch (err) {
    report(err);
  }
}

/** Selects an entry by id (restored state, token bar or chart click): the host tells where its row is. */
async function pickEntry(id: string, keepScroll: boolean, center = true, keepLeaf?: string): Promise<void> {
  try {
    const seq = ++selectSeq;
    const res = await rpc.request<"select">({ type: "select", id, ...(keepLeaf !== undefined ? { keepLeaf } : {}) });
    if (seq !== selectSeq) return;
    applySelection(res.bars, res.files);
    if (res.rowIndex >= 0) {
      if (keepScroll && !center) tree.selected = res.rowIndex;
      await tree.select(res.rowIndex, { silent: true, center: !keepScroll || center });
      store.update({ selectedId: id, selectedIndex: res.rowIndex });
      if (seq === selectSeq && detailId !== id) void loadDetails(id);
    }
  } catch (err) {
    report(err);
  }
}

/**
 * Selects an entry the host names (a search hit opened from VS Code): the host unfolds
 * and widens the filter as needed to show its row; the tree follows, centred on it, and
 * its details open.
 */
async function showEntry(id: string): Promise<void> {
  await initRun;
  const seq = ++selectSeq;
  try {
    const res = await rpc.request<"reveal">({ type: "reveal", id });
    if (seq !== selectSeq) return;
    for (const u of res.unfolded) folded.delete(u);
    filterSelect.value = res.filter;
    store.update({ filter: res.filter, folded: [...folded] });
    tree.setRowCount(res.rowCount);
    applySelection(res.bars, res.files);
    // The row shown may stand for the entry under an id of its own (a sub-agent's line nested under its call).
    let shown = id;
    if (res.rowIndex >= 0) {
      await tree.select(res.rowIndex, { silent: true, center: true });
      const row = tree.selectedRow();
      shown = row?.id ?? id;
      store.update({ selectedId: row?.nested?.callId ?? shown, selectedIndex: res.rowIndex });
    }
    search.refresh();
    tree.element.focus();
    await loadDetails(shown);
  } catch (err) {
    report(err);
  }
}

async function loadSelection(id: string): Promise<void> {
  const seq = ++selectSeq;
  try {
    const res = await rpc.request<"select">({ type: "select", id });
    if (seq !== selectSeq) return;
    applySelection(res.bars, res.files);
    void chartFollows(id);
  } catch (err) {
    report(err);
  }
}

function applySelection(b: TokenBar[], f: FileActivityView[]): void {
  bars.render(b);
  files.render(f);
  void showTimeline(b, false);
}

/** The chart shows the step the row selected in the tree belongs to (moved into view when zoomed). */
async function chartFollows(id: string): Promise<void> {
  const leaf = timelineLeaf;
  if (leaf === undefined) return;
  try {
    const { position } = await rpc.request<"timelinePosition">({ type: "timelinePosition", leafId: leaf, id });
    if (leaf === timelineLeaf) timeline.showPosition(position);
  } catch (err) {
    report(err);
  }
}

/** The leaf the chart shows (the selected bar's), and the newest request for it. */
let timelineLeaf: string | undefined;
let timelineSeq = 0;

/** Draws the selected branch's timeline: when the branch changes, or always after the session changed. */
async function showTimeline(b: TokenBar[], force: boolean): Promise<void> {
  const leaf = (b.find((x) => x.selected) ?? b[0])?.leafId;
  if (leaf === undefined) {
    timelineLeaf = undefined;
    timeline.message("No branch.");
    return;
  }
  if (leaf === timelineLeaf && !force) return;
  // Another branch: say so while it is computed (a refresh of the same one keeps the chart).
  if (leaf !== timelineLeaf) timeline.message("Computing the context at every step…");
  timelineLeaf = leaf;
  const seq = ++timelineSeq;
  try {
    const t = await rpc.request<"timeline">({ type: "timeline", leafId: leaf });
    if (seq === timelineSeq) timeline.render(t);
  } catch (err) {
    // A request overtaken by a newer one is stopped by the host: nothing to report.
    if (seq !== timelineSeq) return;
    timelineLeaf = undefined;
    timeline.message("The timeline could not be computed.");
    report(err);
  }
}

async function loadDetails(id: string): Promise<void> {
  const seq = ++detailSeq;
  detailId = id;
  try {
    const d: EntryDetails = await rpc.request<"details">({ type: "details", id });
    if (seq === detailSeq) detail.render(d);
  } catch (err) {
    report(err);
  }
}

function report(err: unknown): void {
  if (err instanceof RpcDisposedError) return;
  showNotice({ type: "notice", level: "error", text: err instanceof Error ? err.message : String(err) });
}
