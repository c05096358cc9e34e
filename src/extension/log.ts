import type * as vscode from "vscode";
import { clipText, visibleText } from "../core/util/visible-text";

/** The extension's log: a LogOutputChannel ("Agent Sessions"), never given secrets. */
export interface Log {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  show(): void;
}

/** What the log writes to: a LogOutputChannel, or a fake in tests. */
export type LogChannel = Pick<vscode.LogOutputChannel, "info" | "warn" | "error" | "show" | "dispose">;

/** Longest message kept: a megabyte label is logged by its start. */
export const LOG_MESSAGE_MAX = 8000;

/**
 * One event, one line. Messages quote session text (labels, names, paths, errors that
 * cite a line), so line breaks are written as `\n` and hidden characters as marks
 * (⟨U+202E⟩): a label cannot forge a log line or reorder one.
 */
export function logLine(msg: string): string {
  return visibleText(clipText(msg, LOG_MESSAGE_MAX));
}

export function logTo(ch: LogChannel): Log & { dispose(): void } {
  return {
    info: (m) => ch.info(logLine(m)),
    warn: (m) => ch.warn(logLine(m)),
    error: (m) => ch.error(logLine(m)),
    show: () => ch.show(true),
    dispose: () => ch.dispose(),
  };
}

export function createLog(window: Pick<typeof vscode.window, "createOutputChannel">): Log & vscode.Disposable {
  return logTo(window.createOutputChannel("Agent Sessions", { log: true }));
}
