import * as vscode from "vscode";
import type { ContextFormat, PreviewText } from "../core/context/preview";

export type { ContextFormat } from "../core/context/preview";

export const PREVIEW_SCHEME = "ase-context";

/** Read-only documents holding context previews, keyed by URI. */
export class ContextPreviewProvider implements vscode.TextDocumentContentProvider {
  private docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? "// This preview is no longer available; run Preview Context again.";
  }

  set(uri: vscode.Uri, text: string): void {
    this.docs.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface PreviewResult extends PreviewText {
  uri: vscode.Uri;
}

