import * as vscode from "vscode";
import { openSession as loadAnySession } from "../core/formats/registry";
import type { SessionReader } from "../core/session/session-reader";
import { Disposable } from "./dispose";
import { EXPLORER_VIEW_TYPE, ExplorerPanel, type PanelDeps, type PanelState } from "./explorer-panel";

/**
 * The open explorer panels, one per file: opening (or revealing) one, bringing one back
 * after a window reload (VS Code's serializer), which is in front (the
 * agentSessions.explorerActive context key), and the freshest copy of a session for a
 * command (an open panel tails its file).
 */
export class PanelRegistry extends Disposable {
  private readonly panels = new Map<string, ExplorerPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: Omit<PanelDeps, "onDidDispose" | "extensionUri">,
  ) {
    super();
    this.register(
      vscode.window.registerWebviewPanelSerializer(EXPLORER_VIEW_TYPE, {
        deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => this.restore(panel, state),
      }),
    );
  }

  /** The files with an open panel. */
  files(): string[] {
    return [...this.panels.keys()];
  }

  get(file: string): ExplorerPanel | undefined {
    return this.panels.get(file);
  }

  all(): ExplorerPanel[] {
    return [...this.panels.values()];
  }

  /** The panel in front, if one is. */
  active(): ExplorerPanel | undefined {
    return this.all().find((p) => p.panel.active);
  }

  /** Opens (or focuses) the explorer on a session; with an entry id, that entry is selected and shown. */
  async open(uri: vscode.Uri, entryId?: string): Promise<void> {
    const file = uri.fsPath;
    const existing = this.panels.get(file);
    if (existing) {
      existing.panel.reveal();
      if (entryId !== undefined) await existing.showEntry(entryId);
      return;
    }
    const panel = vscode.window.createWebviewPanel(EXPLORER_VIEW_TYPE, "Session", vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, "dist")],
    });
    const p = this.create(panel, file);
    if (entryId !== undefined) await p.showEntry(entryId);
    await p.whenLoaded();
  }

  /** An open panel's session is the freshest copy (it tails the file); else one is loaded. */
  async session(file: string): Promise<SessionReader> {
    const p = this.panels.get(file);
    if (p) {
      await p.whenLoaded();
      if (p.session) {
        await p.onFileChanged();
        return p.session;
      }
    }
    return loadAnySession(file);
  }

  /** A panel VS Code kept across a window reload: its webview state names the file. */
  private restore(panel: vscode.WebviewPanel, state: unknown): void {
    const file = (state as Partial<PanelState> | undefined)?.file;
    if (typeof file !== "string" || this.panels.has(file)) {
      panel.dispose();
      return;
    }
    this.create(panel, file);
  }

  private create(panel: vscode.WebviewPanel, file: string): ExplorerPanel {
    const p = new ExplorerPanel(panel, file, {
      ...this.deps,
      extensionUri: this.extensionUri,
      onDidDispose: (gone) => {
        if (this.panels.get(gone.file) === gone) this.panels.delete(gone.file);
        this.activeChanged();
      },
    });
    this.panels.set(file, p);
    panel.onDidChangeViewState(() => this.activeChanged());
    this.activeChanged();
    return p;
  }

  private activeChanged(): void {
    void vscode.commands.executeCommand("setContext", "agentSessions.explorerActive", this.active() !== undefined);
  }
}
