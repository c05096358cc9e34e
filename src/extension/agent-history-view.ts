import * as vscode from "vscode";
import { formatById } from "../core/formats/registry";
import type { FileTouch } from "../core/history/file-touch";
import type { HistoryProgress } from "../core/history/history-options";
import { clipText, visibleText } from "../core/util/visible-text";
import type { Log } from "./log";

export const AGENT_HISTORY_VIEW_ID = "agentSessions.agentHistory";
/** What an entry's click runs: Open Session at that entry (not in the palette). */
export const OPEN_HISTORY_ENTRY_COMMAND = "agentSessions.openHistoryEntry";

/** One session that touched the file, with its touches newest first. */
export interface HistorySession {
  sessionPath: string;
  agent: string;
  title: string;
  otherCheckout?: string;
  touches: FileTouch[];
}

export type AgentHistoryNode = { kind: "session"; session: HistorySession } | { kind: "touch"; session: HistorySession; touch: FileTouch; n: number };

/** The view's state: the file it shows, and its sessions once looked up. */
export interface HistoryState {
  file: string | undefined;
  status: "idle" | "looking" | "done" | "failed";
  sessions: HistorySession[];
  error?: string;
  /** While the index reads sessions for the lookup: how many so far, of how many. */
  reading?: { done: number; total: number };
}

/** Sessions in the order of their newest touch (the touches come newest first). */
export function groupBySession(touches: readonly FileTouch[]): HistorySession[] {
  const by = new Map<string, HistorySession>();
  for (const t of touches) {
    let s = by.get(t.sessionPath);
    if (!s) by.set(t.sessionPath, (s = { sessionPath: t.sessionPath, agent: t.agent, title: t.sessionTitle, ...(t.otherCheckout ? { otherCheckout: t.otherCheckout } : {}), touches: [] }));
    s.touches.push(t);
  }
  return [...by.values()];
}

/** "2026-05-01 10:00" in local time, or "" when the entry has no time. */
export function touchTime(iso: string | undefined): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return "";
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** An agent's name as people know it ("Claude Code"), or its id when no format has it. */
export function agentName(id: string): string {
  try {
    return formatById(id).agent;
  } catch {
    return id;
  }
}

const OP_ICONS: Record<FileTouch["operation"], string> = { read: "eye", write: "new-file", edit: "edit" };

/**
 * The Agent History view: the sessions and entries of every agent that read, wrote or edited
 * the file in the active editor (or the one asked for), newest first, each with the prompt
 * that led to it; a click opens the explorer at the entry. Lookups go through the core's
 * index; a newer lookup wins over one still running.
 */
export class AgentHistoryView implements vscode.TreeDataProvider<AgentHistoryNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<AgentHistoryNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly settled = new vscode.EventEmitter<HistoryState>();
  /** Fires when a lookup has finished (or failed): the extension tests wait on it. */
  readonly onDidSettle = this.settled.event;
  private view: vscode.TreeView<AgentHistoryNode> | undefined;
  private generation = 0;
  state: HistoryState = { file: undefined, status: "idle", sessions: [] };

  constructor(private readonly deps: { log: Log; lookup(file: string, onProgress?: HistoryProgress): Promise<FileTouch[]> }) {}

  attach(view: vscode.TreeView<AgentHistoryNode>): void {
    this.view = view;
    this.showState();
  }

  /** Shows the history of a file (a newer call wins over a lookup still running). */
  async show(file: string): Promise<HistoryState> {
    const gen = ++this.generation;
    this.state = { file, status: "looking", sessions: this.state.file === file ? this.state.sessions : [] };
    this.refresh();
    const t0 = Date.now();
    let shownAt = 0;
    // A cold index of many sessions takes a while: the view says how far it is (at most 5 times a second).
    const onProgress: HistoryProgress = (done, total) => {
      if (gen !== this.generation || this.state.status !== "looking") return;
      this.state.reading = { done, total };
      if (done < total && Date.now() - shownAt < 200) return;
      shownAt = Date.now();
      this.showState();
    };
    try {
      // The view's own progress bar while the lookup runs (a refresh of the index can read for a while).
      const touches = await vscode.window.withProgress({ location: { viewId: AGENT_HISTORY_VIEW_ID } }, () => this.deps.lookup(file, onProgress));
      if (gen !== this.generation) return this.state;
      this.state = { file, status: "done", sessions: groupBySession(touches) };
      this.deps.log.info(`agent history of ${file}: ${touches.length} entries in ${this.state.sessions.length} session(s) in ${Date.now() - t0} ms`);
    } catch (err) {
      if (gen !== this.generation) return this.state;
      this.state = { file, status: "failed", sessions: [], error: (err as Error).message };
      this.deps.log.error(`agent history of ${file}: ${(err as Error).message}`);
    }
    this.refresh();
    this.settled.fire(this.state);
    return this.state;
  }

  /** The view's message: what it shows, or why it shows nothing. */
  get message(): string | undefined {
    const s = this.state;
    const name = s.file ? visibleText(s.file.split(/[\\/]/).pop() ?? s.file) : "";
    if (!s.file) return "Open a file: the sessions of every agent that read, wrote or edited it show here.";
    if (s.status === "looking" && s.reading && s.reading.done < s.reading.total) return `Reading agent sessions for the history: ${s.reading.done.toLocaleString("en-US")} of ${s.reading.total.toLocaleString("en-US")}…`;
    if (s.status === "looking" && !s.sessions.length) return `Looking for agent sessions that touched ${name}…`;
    if (s.status === "failed") return `Cannot look up ${name}: ${visibleText(clipText(s.error ?? "", 200))}`;
    if (s.status === "done" && !s.sessions.length) return `No agent session read, wrote or edited ${name}.`;
    return undefined;
  }

  private showState(): void {
    if (!this.view) return;
    this.view.message = this.message;
    const s = this.state;
    const n = s.sessions.reduce((k, x) => k + x.touches.length, 0);
    this.view.description = s.file ? `${visibleText(s.file.split(/[\\/]/).pop() ?? "")}${n ? ` · ${n} ${n === 1 ? "entry" : "entries"}` : ""}` : undefined;
  }

  private refresh(): void {
    this.showState();
    this.changed.fire(undefined);
  }

  getChildren(node?: AgentHistoryNode): AgentHistoryNode[] {
    if (!node) return this.state.sessions.map((session) => ({ kind: "session", session }));
    if (node.kind === "session") return node.session.touches.map((touch, n) => ({ kind: "touch", session: node.session, touch, n }));
    return [];
  }

  getTreeItem(node: AgentHistoryNode): vscode.TreeItem {
    const gen = this.generation;
    const s = node.session;
    const agent = agentName(s.agent);
    if (node.kind === "session") {
      const item = new vscode.TreeItem(visibleText(clipText(s.title, 120)), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `history:${gen}:${s.sessionPath}`;
      const n = s.touches.length;
      item.description = [agent, `${n} ${n === 1 ? "entry" : "entries"}`, touchTime(s.touches[0]?.timestamp), s.otherCheckout ? "other checkout" : ""].filter(Boolean).join(" · ");
      item.iconPath = new vscode.ThemeIcon("comment-discussion");
      item.contextValue = "historySession";
      const tip = new vscode.MarkdownString();
      tip.isTrusted = false;
      tip.appendText(`${visibleText(s.sessionPath)}\n${agent} session${s.otherCheckout ? `, in another checkout of this repository: ${visibleText(s.otherCheckout)}` : ""}`);
      item.tooltip = tip;
      return item;
    }
    const t = node.touch;
    const label = visibleText(clipText(t.prompt ?? `(${t.operation})`, 200));
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `history:${gen}:${s.sessionPath}:${node.n}`;
    item.description = [t.operation, touchTime(t.timestamp)].filter(Boolean).join(" · ");
    item.iconPath = new vscode.ThemeIcon(OP_ICONS[t.operation]);
    item.contextValue = "historyEntry";
    const tip = new vscode.MarkdownString();
    tip.isTrusted = false;
    tip.appendText(`${t.operation} of ${visibleText(t.absolutePath)} by ${agent}, entry ${visibleText(t.entryId)}${t.timestamp ? ` at ${visibleText(t.timestamp)}` : ""}\n\n${t.prompt ? `Prompt: ${visibleText(clipText(t.prompt, 600))}` : "(no prompt recorded for this turn)"}`);
    item.tooltip = tip;
    item.command = { command: OPEN_HISTORY_ENTRY_COMMAND, title: "Open at This Entry", arguments: [t.sessionPath, t.entryId] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
    this.settled.dispose();
  }
}
