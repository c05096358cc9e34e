import * as vscode from "vscode";
import { blameLines } from "../core/history/blame-lines";
import type { FileTouch } from "../core/history/file-touch";
import { clipText, visibleText } from "../core/util/visible-text";
import { agentName, OPEN_HISTORY_ENTRY_COMMAND, touchTime } from "./agent-history-view";
import type { Log } from "./log";

export const TOGGLE_BLAME_COMMAND = "agentSessions.toggleAgentBlame";

/** Typing is not blamed per keystroke: a document change re-matches after this quiet time. */
const RECOMPUTE_MS = 250;

/** What blame shows for one editor: the claimed lines (0-based) and the touch behind each. */
export interface BlameState {
  file: string;
  version: number;
  lines: Map<number, FileTouch>;
}

/**
 * Agent blame: while on, the lines of the file in front last written by an agent edit and
 * still there are marked (a tinted line, the agent's name after the first line of each run),
 * and hovering one names the agent, session, time and prompt, with a link to the entry.
 * Lines are matched again on every change of the document, so a line a person changed is
 * no longer claimed.
 */
export class AgentBlame implements vscode.HoverProvider, vscode.Disposable {
  private readonly decoration: vscode.TextEditorDecorationType;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly updated = new vscode.EventEmitter<BlameState | undefined>();
  /** Fires after the marks of an editor were set (the extension tests wait on it). */
  readonly onDidUpdate = this.updated.event;
  private on = false;
  private touches = new Map<string, FileTouch[]>();
  private timer: NodeJS.Timeout | undefined;
  state: BlameState | undefined;

  constructor(private readonly deps: { log: Log; lookup(file: string): Promise<FileTouch[]> }) {
    this.decoration = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
      overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    this.subscriptions.push(
      vscode.languages.registerHoverProvider({ scheme: "file" }, this),
      vscode.window.onDidChangeActiveTextEditor(() => void this.update(true)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.on && e.document === vscode.window.activeTextEditor?.document) this.schedule();
      }),
    );
  }

  get enabled(): boolean {
    return this.on;
  }

  /** Turns blame on or off; resolves once the editor in front shows it (or no longer does). */
  async toggle(on = !this.on): Promise<BlameState | undefined> {
    this.on = on;
    void vscode.commands.executeCommand("setContext", "agentSessions.agentBlameOn", on);
    // A toggle looks the file up again: sessions may have edited it since.
    this.touches.clear();
    return this.update(true);
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(false), RECOMPUTE_MS);
  }

  /** Marks the editor in front (looking its file up when `lookup` or not known yet). */
  async update(lookup: boolean): Promise<BlameState | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!this.on || !editor || editor.document.uri.scheme !== "file") {
      editor?.setDecorations(this.decoration, []);
      this.state = undefined;
      this.updated.fire(undefined);
      return undefined;
    }
    const file = editor.document.uri.fsPath;
    let touches = this.touches.get(file);
    if (!touches || lookup) {
      try {
        touches = await this.deps.lookup(file);
      } catch (err) {
        this.deps.log.error(`agent blame of ${file}: ${(err as Error).message}`);
        touches = [];
      }
      this.touches.set(file, touches);
    }
    // The editor in front may have changed while the lookup ran: mark the one in front now.
    if (vscode.window.activeTextEditor !== editor || !this.on) return this.state;
    const doc = editor.document;
    const lines = blameLines(doc.getText(), touches);
    const ranges = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([line, t], k, all) => {
      const first = k === 0 || all[k - 1][0] !== line - 1 || all[k - 1][1] !== t;
      const range = doc.lineAt(line).range;
      return first ? { range, renderOptions: { after: { contentText: `  ${agentName(t.agent)} · ${touchTime(t.timestamp)}`, color: new vscode.ThemeColor("editorCodeLens.foreground") } } } : { range };
    });
    editor.setDecorations(this.decoration, ranges);
    this.state = { file, version: doc.version, lines };
    this.updated.fire(this.state);
    return this.state;
  }

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const s = this.state;
    if (!this.on || !s || s.file !== doc.uri.fsPath || s.version !== doc.version) return undefined;
    const t = s.lines.get(pos.line);
    if (!t) return undefined;
    return new vscode.Hover(blameHover(t), doc.lineAt(pos.line).range);
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.subscriptions) d.dispose();
    this.decoration.dispose();
    this.updated.dispose();
  }
}

/** The hover of a claimed line: who wrote it, in which session, when, for which prompt, and a link to the entry. */
export function blameHover(t: FileTouch): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  // Session text is text: appended escaped; only our own command may run from the link.
  md.isTrusted = { enabledCommands: [OPEN_HISTORY_ENTRY_COMMAND] };
  md.supportHtml = false;
  md.appendMarkdown("**Agent edit** · ");
  md.appendText(`${agentName(t.agent)} · ${touchTime(t.timestamp) || "time not recorded"}`);
  md.appendMarkdown("\n\nSession: ");
  md.appendText(clipText(visibleText(t.sessionTitle), 120));
  if (t.otherCheckout) md.appendText(` (in another checkout: ${visibleText(t.otherCheckout)})`);
  md.appendMarkdown("\n\nPrompt: ");
  md.appendText(t.prompt ? clipText(visibleText(t.prompt), 400) : "(none recorded)");
  const args = encodeURIComponent(JSON.stringify([t.sessionPath, t.entryId]));
  md.appendMarkdown(`\n\n[Open this entry in the explorer](command:${OPEN_HISTORY_ENTRY_COMMAND}?${args})`);
  return md;
}
