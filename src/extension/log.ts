import * as vscode from "vscode";

/** The extension's log: a LogOutputChannel ("Agent Sessions"), never given secrets. */
export interface Log {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  show(): void;
}

export function createLog(): Log & vscode.Disposable {
  const ch = vscode.window.createOutputChannel("Agent Sessions", { log: true });
  return {
    info: (m) => ch.info(m),
    warn: (m) => ch.warn(m),
    error: (m) => ch.error(m),
    show: () => ch.show(true),
    dispose: () => ch.dispose(),
  };
}
