import * as vscode from "vscode";
import type { ActionDeps } from "../actions";
import type { Log } from "../log";
import { pickSession } from "../pickers";
import type { SessionCosts } from "../session-costs";
import type { SessionsView, SessionsViewNode } from "../sessions-view";

/** What every command may use: the actions' deps, the Sessions view, costs, the panel in front. */
export interface CommandDeps extends ActionDeps {
  view: SessionsView;
  /** Session costs, cached by file (the Sessions view's and the Total Cost commands'). */
  costs: SessionCosts;
  log: Log;
  /** The file of the focused explorer panel, if any. */
  activeFile(): string | undefined;
}

export type Target = vscode.Uri | string | SessionsViewNode | undefined;

/** Accepts a Uri, a path, or a sessions-view node (context menus pass the node). */
export function fileOf(t: Target): string | undefined {
  if (!t) return undefined;
  if (typeof t === "string") return t;
  if (t instanceof vscode.Uri) return t.fsPath;
  if (typeof t === "object" && "kind" in t && t.kind === "session") return t.session.path;
  if (typeof t === "object" && "kind" in t && t.kind === "subagent") return t.sub.path;
  if (typeof t === "object" && "fsPath" in t) return (t as unknown as vscode.Uri).fsPath;
  return undefined;
}

/** The command's file: the one it was given, else the panel in front, else the one the user picks. */
export async function resolveFile(deps: CommandDeps, t: Target, title: string): Promise<string | undefined> {
  return fileOf(t) ?? deps.activeFile() ?? (await pickSession(deps.view, title))?.fsPath;
}

/** Registers commands for the extension's lifetime. */
export type Register = (id: string, fn: (...args: never[]) => unknown) => void;

export function registrar(ctx: vscode.ExtensionContext): Register {
  return (id, fn) => void ctx.subscriptions.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));
}
