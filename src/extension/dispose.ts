import type * as vscode from "vscode";

/** Owns disposables and releases them once, newest first. */
export class Disposable implements vscode.Disposable {
  private items: vscode.Disposable[] = [];
  private disposed = false;

  protected register<T extends vscode.Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.push(d);
    return d;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.items.reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposable must not keep the others alive.
      }
    }
    this.items = [];
  }
}
