import * as vscode from "vscode";
import type { ContextFormat, PreviewText } from "../core/context/preview";

export type { ContextFormat } from "../core/context/preview";

export const PREVIEW_SCHEME = "ase-context";
/** The two sides of a context comparison (Compare Contexts, What This Compaction Changed). */
export const DIFF_SCHEME = "ase-context-diff";

/** Read-only documents holding context previews (or the sides of a comparison), keyed by URI. */
export class ContextPreviewProvider implements vscode.TextDocumentContentProvider {
  private docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** `gone`: what a URI whose text is no longer held shows (after a window reload). */
  constructor(private readonly gone = "// This preview is no longer available; run Preview Context again.") {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? this.gone;
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

