import type { CostView, HostToWebview } from "../protocol";

/** What an explorer has done, for the log and the extension tests. */
export interface ExplorerStats {
  inits: number;
  rowRequests: number;
  rowsServed: number;
  changes: number;
  reloads: number;
  errors: number;
  barUpdates: number;
  loadFailures: number;
  /** A large session's first part, shown while the rest was read. */
  firstLook?: { entries: number; bytes: number; ms: number };
  /** The last notice the explorer showed (a refused action says why here). */
  lastNotice?: string;
  /** The session's cost as last sent (init, sessionChanged or a prices change). */
  lastCost?: CostView;
}

export function newExplorerStats(): ExplorerStats {
  return { inits: 0, rowRequests: 0, rowsServed: 0, changes: 0, reloads: 0, errors: 0, barUpdates: 0, loadFailures: 0 };
}

/** Counts a message sent to the webview. */
export function countPosted(stats: ExplorerStats, msg: HostToWebview): void {
  if (msg.type === "init") stats.inits++;
  else if (msg.type === "sessionChanged") stats.changes++;
  else if (msg.type === "bars") stats.barUpdates++;
  else if (msg.type === "notice") stats.lastNotice = msg.text;
  if (msg.type === "init" || msg.type === "sessionChanged" || msg.type === "cost") stats.lastCost = msg.cost;
}
