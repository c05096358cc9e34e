import * as vscode from "vscode";
import type { Log } from "../log";
import { registerSearchCommands } from "../search-command";
import { SEARCH_VIEW_ID, SearchView } from "../search-view";
import { agentDirs, type SessionsView } from "../sessions-view";

/** The Search Results view and its commands (search every agent's sessions, open a hit). */
export function registerSearch(ctx: vscode.ExtensionContext, log: Log, sessions: SessionsView): SearchView {
  const search = new SearchView({
    log,
    dirs: agentDirs,
    listedTitle: (path) => {
      const s = sessions.allSessions().find((x) => x.path === path);
      return s ? s.name ?? (s.firstMessage || undefined) : undefined;
    },
  });
  const tree = vscode.window.createTreeView(SEARCH_VIEW_ID, { treeDataProvider: search });
  search.attach(tree);
  ctx.subscriptions.push(search, tree);
  registerSearchCommands(ctx, { log, search, sessions, dirs: agentDirs });
  return search;
}
