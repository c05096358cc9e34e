import * as vscode from "vscode";
import { formatById } from "../core/formats/registry";
import { searchRoots } from "../core/search/search-targets";
import { searchSessions, type SessionSearch } from "../core/search/search-sessions";
import type { SearchHit, SessionHits } from "../core/search/search-types";
import { clipText, visibleText } from "../core/util/visible-text";
import type { Log } from "./log";
import { describeRequest, hitFile, hitLabel, hitSubagent, hitTime, hitTooltip, kindIcon, resultsMessage, type SearchOutcome, type SearchRequest, SearchResults, searchOptions, sessionLabel } from "./search-results";

export const SEARCH_VIEW_ID = "agentSessions.searchResults";
/** What a hit's click runs: Open Session at the hit's entry (not in the palette). */
export const OPEN_HIT_COMMAND = "agentSessions.openSearchHit";

/** A session's node has the Sessions view's shape ({kind: "session", session: {path}}), so its context menu's commands take it as they do a session row. */
type Node = { kind: "session"; session: SessionHits } | { kind: "hit"; session: SessionHits; hit: SearchHit; n: number };

export interface SearchViewDeps {
  log: Log;
  /** Store roots by agent, as the Sessions view lists them (settings, else environment and home). */
  dirs(): Record<string, string>;
  /** The title the Sessions view lists for a file, if it lists it. */
  listedTitle(path: string): string | undefined;
}

/** How often the tree is told of new sessions while results stream in. */
const REFRESH_MS = 150;

/**
 * The Search Results view: runs one search at a time through the core (a new one
 * cancels the one before), shows each session's hits as soon as its file is done,
 * and says how far it got in the view's message.
 */
export class SearchView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private results: SearchResults | undefined;
  private abort: AbortController | undefined;
  /** Counts searches, so node ids (and so expansion state) start afresh with each. */
  private generation = 0;
  private view: vscode.TreeView<Node> | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private lastRefresh = 0;

  constructor(private readonly deps: SearchViewDeps) {}

  /** The tree view showing this provider: its message and description follow the search. */
  attach(view: vscode.TreeView<Node>): void {
    this.view = view;
    this.showState();
  }

  /** The latest search's results (the extension tests read them). */
  get current(): SearchResults | undefined {
    return this.results;
  }

  /** Runs a search, cancelling the one still running; resolves with how it ended (never rejects). */
  async search(request: SearchRequest): Promise<SearchOutcome> {
    this.cancel();
    const abort = new AbortController();
    this.abort = abort;
    const results = new SearchResults(request);
    this.results = results;
    this.generation++;
    this.setSearching(true);
    this.refresh(true);
    const t0 = Date.now();
    let search: SessionSearch | undefined;
    try {
      const dirs = this.deps.dirs();
      search = searchSessions({ ...searchOptions(request), dirs, signal: abort.signal });
      for await (const s of search) {
        if (this.results !== results) break;
        results.add(s);
        results.scanned = { ...search.scanned };
        // The first session shows at once; later ones at most every REFRESH_MS.
        this.refresh(results.sessions.length === 1);
      }
      if (results.status === "searching") {
        results.status = "done";
        results.limited = search.limited;
        if (!request.files && !search.scanned.files) {
          results.noSessionsUnder = searchRoots({ dirs, only: request.agent ? [request.agent] : undefined }).map((r) => `${r.root} (${r.agent})`).join(", ");
        }
      }
    } catch (err) {
      if (results.status === "searching") {
        results.status = abort.signal.aborted ? "cancelled" : "failed";
        if (!abort.signal.aborted) results.error = (err as Error).message;
      }
    } finally {
      if (search) results.scanned = { ...search.scanned };
      if (this.abort === abort) {
        this.abort = undefined;
        this.setSearching(false);
      }
      for (const s of search?.skipped ?? []) this.deps.log.warn(`search skipped ${s.path}: ${s.reason}`);
    }
    this.deps.log.info(`search ${describeRequest(request)}: ${resultsMessage(results)} in ${Date.now() - t0} ms`);
    if (this.results === results) this.refresh(true);
    return results.outcome();
  }

  /** Stops the running search at once; what it found stays. */
  cancel(): boolean {
    const a = this.abort;
    if (!a) return false;
    this.abort = undefined;
    if (this.results?.status === "searching") this.results.status = "cancelled";
    a.abort(new Error("the search was cancelled"));
    this.setSearching(false);
    this.refresh(true);
    return true;
  }

  /** Cancels and forgets the results. */
  clear(): void {
    this.cancel();
    this.results = undefined;
    this.refresh(true);
  }

  private setSearching(on: boolean): void {
    void vscode.commands.executeCommand("setContext", "agentSessions.searching", on);
  }

  /** Tells the tree (at most every REFRESH_MS while streaming) and updates the message. */
  private refresh(now: boolean): void {
    this.showState();
    clearTimeout(this.refreshTimer);
    const wait = REFRESH_MS - (Date.now() - this.lastRefresh);
    if (now || wait <= 0) {
      this.lastRefresh = Date.now();
      this.changed.fire(undefined);
      return;
    }
    this.refreshTimer = setTimeout(() => this.refresh(true), wait);
  }

  /** The view's message: progress, the final count, a cancellation or an error. */
  get message(): string {
    return this.results ? resultsMessage(this.results) : "Search every session: the search button above, or Agent Sessions: Search Sessions... in the palette.";
  }

  /** The view's description: what the results are for. */
  get description(): string | undefined {
    return this.results ? describeRequest(this.results.request) : undefined;
  }

  private showState(): void {
    if (!this.view) return;
    this.view.message = this.message;
    this.view.description = this.description;
  }

  getChildren(node?: Node): Node[] {
    const r = this.results;
    if (!r) return [];
    if (!node) return r.sessions.map((session) => ({ kind: "session", session }));
    if (node.kind === "session") return node.session.hits.map((hit, n) => ({ kind: "hit", session: node.session, hit, n }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const gen = this.generation;
    if (node.kind === "session") {
      const s = node.session;
      const item = new vscode.TreeItem(sessionLabel(s, this.deps.listedTitle(s.path)), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `search:${gen}:${s.path}`;
      const agent = formatById(s.agent).agent;
      item.description = `${agent} · ${s.hits.length} ${s.hits.length === 1 ? "hit" : "hits"}`;
      item.iconPath = new vscode.ThemeIcon("comment-discussion");
      item.contextValue = "searchSession";
      const tip = new vscode.MarkdownString();
      tip.isTrusted = false;
      tip.appendText(`${visibleText(s.path)}\n${agent} session${s.cwd ? ` in ${visibleText(clipText(s.cwd, 300))}` : ""}, ${s.hits.length} ${s.hits.length === 1 ? "hit" : "hits"}`);
      item.tooltip = tip;
      return item;
    }
    const { session: s, hit } = node;
    const { label, highlight } = hitLabel(hit);
    const item = new vscode.TreeItem({ label, highlights: [highlight] }, vscode.TreeItemCollapsibleState.None);
    item.id = `search:${gen}:${s.path}:${node.n}`;
    item.description = [hit.kind, hitSubagent(hit), hitTime(hit.timestamp)].filter(Boolean).join(" · ");
    item.iconPath = new vscode.ThemeIcon(kindIcon(hit.kind));
    item.contextValue = "searchHit";
    const tip = new vscode.MarkdownString();
    tip.isTrusted = false;
    tip.supportHtml = false;
    tip.appendText(hitTooltip(hit));
    item.tooltip = tip;
    item.command = { command: OPEN_HIT_COMMAND, title: "Open at This Entry", arguments: [vscode.Uri.file(hitFile(s, hit)), hit.entryId] };
    return item;
  }

  dispose(): void {
    this.abort?.abort(new Error("the extension was deactivated"));
    clearTimeout(this.refreshTimer);
    this.changed.dispose();
  }
}

export type { Node as SearchViewNode };
