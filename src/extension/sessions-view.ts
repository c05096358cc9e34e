import { existsSync, type FSWatcher, watch } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import { type ProjectGroup, type SessionSummary, type SubagentSummary, type Unread } from "../core/store/discover";
import { listAllSessions } from "../core/formats/list-all";
import { formatById } from "../core/formats/registry";
import { ForkPoints } from "./fork-points";
import type { Log } from "./log";
import { readSettings } from "./settings";
import { clipText, visibleText } from "../core/util/visible-text";
import { forkTitle, sessionTitle } from "../core/util/session-title";
import { costFigures, costHeadline, costTooltip } from "../core/usage/cost-words";
import { emptySum, type SessionCost } from "../core/usage/session-cost";
import { humanUsd } from "../core/util/human";
import type { FileStamp, SessionCosts } from "./session-costs";

type Node = { kind: "note"; notes: Unread[] } | { kind: "project"; group: ProjectGroup } | { kind: "session"; session: SessionSummary } | { kind: "subagent"; sub: SubagentSummary; session: SessionSummary };

const home = (p: string) => p.replace(/^~(?=$|\/)/, homedir());

/** pi's sessions dir: the setting, else the format's own rule (PI_CODING_AGENT_DIR, else ~/.pi/agent/sessions). */
export function sessionsDir(): string {
  const s = readSettings().sessionsDirectory.trim();
  const pi = formatById("pi").discovery;
  if (!pi) throw new Error("the pi format lists no sessions directory");
  return pi.root(s ? home(s) : undefined, process.env);
}

/** Every agent's root from the settings (pi's from sessionsDirectory); unset ones come from the environment. */
export function agentDirs(): Record<string, string> {
  const out: Record<string, string> = { pi: sessionsDir() };
  const gemini = readSettings().geminiHome.trim();
  if (gemini) out["gemini-cli"] = home(gemini);
  for (const [agent, dir] of Object.entries(readSettings().agentDirectories)) if (agent !== "pi") out[agent] = home(dir);
  const codex = readSettings().codexHome.trim();
  if (codex) out.codex = home(codex);
  const opencode = readSettings().opencodeHome.trim();
  if (opencode) out.opencode = home(opencode);
  return out;
}

function relative(ms: number): string {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

function size(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * What the menus may offer on a session: "session" and one ".fork", ".compact",
 * ".label" for each thing its format writes (a pi file older than version 3 only forks).
 */
export function contextValue(s: SessionSummary): string {
  const caps = formatById(s.agent).writer?.capabilities;
  const old = s.agent === "pi" && (s.version ?? 0) < 3;
  let v = "session";
  if (caps?.fork) v += ".fork";
  if (caps?.compact && !old) v += ".compact";
  if (caps?.label && !old) v += ".label";
  return v;
}

/** What a sub-agent was asked, and where its lines are. */
function subagentTip(a: SubagentSummary): vscode.MarkdownString {
  const what = visibleText(clipText(a.description ?? `agent ${a.agentId}`, 300));
  const tip = new vscode.MarkdownString();
  if (a.entryId !== undefined) tip.appendText(`${what}\n\nwritten inline in ${visibleText(a.path)}, from entry ${visibleText(a.entryId)}`);
  else tip.appendText(`${what}\n\n${visibleText(a.path)}\nsub-agent ${visibleText(a.agentId)}, ${size(a.size)}`);
  return tip;
}

/** A sub-agent's transcript under its session: what it was asked, opened in the explorer like any session. */
function subagentItem(a: SubagentSummary): vscode.TreeItem {
  const what = visibleText(clipText(a.description ?? `agent ${a.agentId}`, 300));
  const item = new vscode.TreeItem(clipText(what, 80), vscode.TreeItemCollapsibleState.None);
  const inline = a.entryId !== undefined;
  item.id = inline ? `subagent:${a.path}#${a.entryId}` : `subagent:${a.path}`;
  item.description = `sub-agent${a.agentType ? ` (${visibleText(clipText(a.agentType, 60))})` : ""} · ${inline ? "written inline" : `${relative(a.mtimeMs)} · ${size(a.size)}`}`;
  item.iconPath = new vscode.ThemeIcon("hubot");
  item.resourceUri = vscode.Uri.file(a.path);
  item.contextValue = "subagent";
  // A transcript of its own gets its tooltip on hover, with its cost (resolveTreeItem is asked only when there is none).
  if (inline) item.tooltip = subagentTip(a);
  item.command = inline
    ? { command: "agentSessions.openSession", title: "Show the Sub-agent's Lines", arguments: [vscode.Uri.file(a.path), a.entryId] }
    : { command: "agentSessions.openSession", title: "Open Sub-agent Transcript", arguments: [vscode.Uri.file(a.path)] };
  return item;
}

/** The listing's notes as one row: some sessions may be missing, and why (each folder or link in the tooltip). */
function noteItem(notes: readonly Unread[]): vscode.TreeItem {
  const item = new vscode.TreeItem(`${notes.length} folder${notes.length === 1 ? "" : "s"} or link${notes.length === 1 ? "" : "s"} not read: sessions may be missing`, vscode.TreeItemCollapsibleState.None);
  item.id = "listing-notes";
  item.iconPath = new vscode.ThemeIcon("warning");
  item.contextValue = "listingNote";
  const tip = new vscode.MarkdownString();
  tip.appendText(notes.slice(0, 20).map((n) => `${visibleText(clipText(n.path, 300))}: ${visibleText(clipText(n.reason, 300))}`).join("\n"));
  if (notes.length > 20) tip.appendText(`\n... and ${notes.length - 20} more`);
  item.tooltip = tip;
  return item;
}

/** Projects (cwd) -> sessions, newest first, with a filter. */
export class SessionsView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private groups: ProjectGroup[] = [];
  /** What the last listing could not read (a folder's sessions are missing): shown as the first row. */
  private notes: Unread[] = [];
  private filterText = "";
  private loading: Promise<void> | undefined;
  /** fs.watch per directory (sessions dir and each project dir), so new and growing sessions show within a second. */
  private watchers = new Map<string, FSWatcher>();
  private debounce: NodeJS.Timeout | undefined;
  /** Files whose cost the description waits for, computed one at a time (showCost). */
  private readonly costQueue = new Map<string, FileStamp>();
  private costRunning = false;
  /** Files (path and stamp) whose cost could not be computed: not tried again until they change. */
  private readonly costFailed = new Set<string>();
  private costRedraw: NodeJS.Timeout | undefined;
  /** Where each fork was made, in words, for its title. */
  private readonly forkPoints: ForkPoints;
  /** The listed sessions by path and by agent and id (a fork names its source by one or the other). */
  private byPath = new Map<string, SessionSummary>();
  private byId = new Map<string, SessionSummary>();
  /** Each agent's row icon, looked up once. */
  private readonly icons = new Map<string, NonNullable<vscode.TreeItem["iconPath"]>>();

  constructor(
    private readonly cacheDir: string,
    private readonly log: Log,
    private readonly costs: SessionCosts,
    /** media/agents: one icon per format id (<id>-light.svg, <id>-dark.svg), so agents tell apart at a glance. */
    private readonly agentIcons?: vscode.Uri,
    /** Whether descriptions show the cost (agentSessions.showCost), asked at each redraw. */
    private readonly showCost: () => boolean = () => readSettings().showCost,
  ) {
    this.forkPoints = new ForkPoints(log, () => this.changed.fire(undefined));
  }

  /** Redraws every item: the prices or the showCost setting changed. */
  costsChanged(): void {
    this.costFailed.clear();
    this.changed.fire(undefined);
  }

  get filter(): string {
    return this.filterText;
  }

  setFilter(text: string): void {
    this.filterText = text.trim().toLowerCase();
    void vscode.commands.executeCommand("setContext", "agentSessions.filtered", this.filterText !== "");
    this.changed.fire(undefined);
  }

  /** Re-reads the sessions dir (cached summaries make this cheap). */
  refresh(): Promise<void> {
    this.loading = this.load();
    return this.loading;
  }

  /** The projects as last listed, each with its sessions (newest first). */
  projects(): readonly ProjectGroup[] {
    return this.groups;
  }

  /** The projects (cwds) the listing found, in its order. */
  projectCwds(): string[] {
    return this.groups.map((g) => g.cwd).filter(Boolean);
  }

  allSessions(): SessionSummary[] {
    return this.groups.flatMap((g) => g.sessions);
  }

  private async load(): Promise<void> {
    const dirs = agentDirs();
    let roots: string[] = [dirs.pi];
    try {
      const res = await listAllSessions({ dirs, cacheDir: this.cacheDir });
      this.groups = res.projects;
      this.notes = res.notes;
      for (const n of res.notes) this.log.warn(`not listed: ${n.path}: ${n.reason}`);
      this.byPath = new Map(this.allSessions().map((x) => [x.path, x]));
      this.byId = new Map(this.allSessions().map((x) => [`${x.agent}\0${x.id}`, x]));
      // The folder holding the project folders too (clawdcode's <root>/projects), so a new project shows at once.
      roots = res.roots.flatMap((r) => [r.root, formatById(r.agent).discovery?.scanner.projectsDir(r.root) ?? r.root]);
      for (const s of res.skipped) this.log.warn(`skipped ${s.path}: ${s.reason}`);
      this.log.info(`listed ${this.allSessions().length} sessions under ${res.roots.map((r) => `${r.root} (${r.agent}: ${r.sessions})`).join(", ")} (${res.stats.fromCache} from cache)`);
    } catch (err) {
      this.groups = [];
      this.notes = [];
      this.byPath.clear();
      this.byId.clear();
      this.log.error(`cannot list sessions under ${Object.values(dirs).join(", ")}: ${(err as Error).message}`);
    }
    await vscode.commands.executeCommand("setContext", "agentSessions.empty", this.groups.length === 0);
    this.watchDirs(roots);
    this.changed.fire(undefined);
  }

  private watchDirs(roots: string[]): void {
    const dirs = new Set([...roots, ...this.allSessions().map((s) => join(s.path, ".."))]);
    for (const [d, w] of this.watchers) {
      if (!dirs.has(d)) {
        w.close();
        this.watchers.delete(d);
      }
    }
    for (const d of dirs) {
      if (this.watchers.has(d)) continue;
      try {
        const w = watch(d, { persistent: false }, () => {
          clearTimeout(this.debounce);
          this.debounce = setTimeout(() => void this.refresh(), 300);
        });
        w.on("error", () => {
          w.close();
          this.watchers.delete(d);
        });
        this.watchers.set(d, w);
      } catch {
        // A missing dir is watched again after the next refresh.
      }
    }
  }

  private matches(s: SessionSummary, cwd: string): boolean {
    if (!this.filterText) return true;
    return [s.name ?? "", s.firstMessage, cwd, s.path].some((t) => t.toLowerCase().includes(this.filterText));
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!this.loading) this.refresh();
    await this.loading;
    if (!node) {
      const projects = this.groups.filter((g) => g.sessions.some((s) => this.matches(s, g.cwd))).map((group): Node => ({ kind: "project", group }));
      return this.notes.length ? [{ kind: "note", notes: this.notes }, ...projects] : projects;
    }
    if (node.kind === "project") {
      return node.group.sessions.filter((s) => this.matches(s, node.group.cwd)).map((session) => ({ kind: "session", session }));
    }
    if (node.kind === "session") return (node.session.subagents ?? []).map((sub) => ({ kind: "subagent", sub, session: node.session }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === "note") return noteItem(node.notes);
    if (node.kind === "subagent") {
      const item = subagentItem(node.sub);
      if (node.sub.entryId === undefined) item.description = `${item.description as string}${this.costText(node.sub.path, node.sub)}`;
      return item;
    }
    if (node.kind === "project") {
      const item = new vscode.TreeItem(node.group.cwd ? visibleText(clipText(node.group.cwd, 300)) : "(no working directory)", vscode.TreeItemCollapsibleState.Expanded);
      item.iconPath = new vscode.ThemeIcon("folder");
      item.description = `${node.group.sessions.length}`;
      item.contextValue = "project";
      item.id = `project:${node.group.cwd}`;
      return item;
    }
    const s = node.session;
    const title = this.titleFor(s);
    const item = new vscode.TreeItem(clipText(title, 80), s.subagents?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `session:${s.path}`;
    // The agent first: it is what a row is told apart by when the description is cut.
    item.description = `${formatById(s.agent).agent} · ${relative(s.mtimeMs)} · ${s.entryCount} entries · ${size(s.size)}${this.costText(s.path, s)}`;
    item.iconPath = this.agentIcon(s.agent);
    item.resourceUri = vscode.Uri.file(s.path);
    item.contextValue = contextValue(s);
    // No tooltip here: VS Code asks resolveTreeItem for one (with the cost) only when an item has none.
    item.command = { command: "agentSessions.openSession", title: "Open Session", arguments: [vscode.Uri.file(s.path)] };
    return item;
  }

  /** The agent's own icon (light and dark drawings); an agent without one gets the generic conversation icon. */
  private agentIcon(formatId: string): vscode.TreeItem["iconPath"] {
    let icon = this.icons.get(formatId);
    if (!icon) {
      const dir = this.agentIcons;
      icon = dir && existsSync(vscode.Uri.joinPath(dir, `${formatId}-light.svg`).fsPath)
        ? { light: vscode.Uri.joinPath(dir, `${formatId}-light.svg`), dark: vscode.Uri.joinPath(dir, `${formatId}-dark.svg`) }
        : new vscode.ThemeIcon("comment-discussion");
      this.icons.set(formatId, icon);
    }
    return icon;
  }

  /** A fork's source for people: its title in quotes when it is listed, else as the fork names it. */
  private sourceTitle(agent: string, from: string): string {
    const byId = this.byId.get(`${agent}\0${from}`);
    const src = this.byPath.get(from) ?? byId;
    return src ? `'${this.titleFor(src)}'` : from;
  }

  /** The session a fork was made from, when it is listed (pi names it by path, Claude Code by session id). */
  private sourceOf(s: SessionSummary): SessionSummary | undefined {
    const from = s.parentSession;
    if (!from) return undefined;
    const byId = this.byId.get(`${s.agent}\0${from}`);
    return this.byPath.get(from) ?? (byId && byId.path !== s.path ? byId : undefined);
  }

  /**
   * A listed session's title (undefined when not listed): its name, else its first
   * prompt; a fork without a name of its own is named after its source, so it does not
   * pass for it.
   */
  titleOf(path: string): string | undefined {
    const s = this.byPath.get(path);
    return s ? this.titleFor(s) : undefined;
  }

  private titleFor(s: SessionSummary): string {
    const own = sessionTitle(s, s.path, 300);
    if (!s.parentSession) return own;
    const src = this.sourceOf(s);
    // Named apart from its source (Claude Code's "… (Branch)", a pi /name): its own name stands.
    if (s.name && s.name !== src?.name) return own;
    return forkTitle(src ? sessionTitle(src, src.path, 300) : own, this.forkPoints.words(s));
  }

  /** The tooltip's first part: title, path, what and where from (the cost is added on hover). */
  private sessionTip(s: SessionSummary): vscode.MarkdownString {
    const tip = new vscode.MarkdownString();
    const agent = formatById(s.agent).agent;
    tip.appendText(`${this.titleFor(s)}\n\n${visibleText(s.path)}\n${agent} session, ${s.entryCount} entries, ${size(s.size)}${s.version !== undefined ? `, version ${s.version}` : ""}`);
    if (s.parentSession) {
      const src = this.sourceOf(s);
      tip.appendText(src ? `\nforked from ${sessionTitle(src, src.path, 300)} (${visibleText(src.path)})` : `\nforked from ${visibleText(s.parentSession)} (not listed)`);
    }
    return tip;
  }

  /**
   * The cost in a tooltip, computed when VS Code asks for the tooltip (hover), cached by
   * path, mtime and size; a session's tooltip adds its sub-agents' transcripts.
   */
  async resolveTreeItem(item: vscode.TreeItem, node: Node): Promise<vscode.TreeItem> {
    if (node.kind === "project" || node.kind === "note") return item;
    // A sub-agent written inline is part of its session's file: its figures are in the explorer, not a file's cost.
    if (node.kind === "subagent" && node.sub.entryId !== undefined) return item;
    const tip = node.kind === "session" ? this.sessionTip(node.session) : subagentTip(node.sub);
    const [path, stamp] = node.kind === "session" ? [node.session.path, node.session] : [node.sub.path, node.sub];
    try {
      const cost = await this.costs.get(path, { mtimeMs: stamp.mtimeMs, size: stamp.size });
      tip.appendText(`\n\n${visibleText(costTooltip(costFigures(cost.total, cost.unpricedModels, cost.inherited), node.kind === "session" ? "Cost of the session" : "Cost of the sub-agent", (from) => this.sourceTitle(node.kind === "session" ? node.session.agent : "", from)), "keep")}`);
      const subs = node.kind === "session" ? (node.session.subagents ?? []).filter((a) => a.entryId === undefined) : [];
      if (subs.length) tip.appendText(`\n${await this.subagentsLine(subs)}`);
    } catch (err) {
      tip.appendText(`\n\nCost: the session could not be read (${visibleText(clipText((err as Error).message, 300))})`);
    }
    item.tooltip = tip;
    return item;
  }

  /** "Its 3 sub-agents: $0.42 · 12 steps" (those that could be read). */
  private async subagentsLine(subs: NonNullable<SessionSummary["subagents"]>): Promise<string> {
    const sum = emptySum();
    let failed = 0;
    for (const a of subs) {
      let c: SessionCost;
      try {
        c = await this.costs.get(a.path, { mtimeMs: a.mtimeMs, size: a.size });
      } catch {
        failed++;
        continue;
      }
      for (const k of ["usd", "steps", "recordedUsd", "recordedSteps", "pricedUsd", "pricedSteps", "unpricedSteps", "unpricedTokens"] as const) sum[k] += c.total[k];
    }
    return `Its ${subs.length} sub-agent transcript${subs.length === 1 ? "" : "s"}: ${costHeadline(sum)}${failed ? ` (${failed} could not be read)` : ""}, not in the session's cost`;
  }

  /** " · $1.23" for a description when showCost is on and the cost is known; else queues it. */
  private costText(path: string, stamp: FileStamp): string {
    if (!this.showCost()) return "";
    const s = { mtimeMs: stamp.mtimeMs, size: stamp.size };
    const total = this.costs.peekTotal(path, s);
    if (total) return ` · ${humanUsd(total.usd)}${total.unpricedSteps ? "+" : ""}`;
    if (!this.costFailed.has(`${path}\0${s.mtimeMs}:${s.size}`)) this.queueCost(path, s);
    return "";
  }

  private queueCost(path: string, stamp: FileStamp): void {
    this.costQueue.set(path, stamp);
    if (this.costRunning) return;
    this.costRunning = true;
    void (async () => {
      try {
        for (let next = this.costQueue.entries().next(); !next.done; next = this.costQueue.entries().next()) {
          const [p, st] = next.value;
          this.costQueue.delete(p);
          try {
            await this.costs.get(p, st);
          } catch (err) {
            this.costFailed.add(`${p}\0${st.mtimeMs}:${st.size}`);
            this.log.warn(`cost of ${p}: ${(err as Error).message}`);
          }
          // Redrawn in batches: every item again, each showing the costs known by then.
          clearTimeout(this.costRedraw);
          this.costRedraw = setTimeout(() => this.changed.fire(undefined), 250);
        }
      } finally {
        this.costRunning = false;
      }
    })();
  }

  dispose(): void {
    clearTimeout(this.debounce);
    clearTimeout(this.costRedraw);
    this.forkPoints.dispose();
    this.costQueue.clear();
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.changed.dispose();
  }
}

export type { Node as SessionsViewNode };
