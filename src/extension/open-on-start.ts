import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as vscode from "vscode";
import type { Log } from "./log";

/** A workspace can ask for sessions to be opened when it starts (demos, shared investigations). */
export const OPEN_ON_START = ".agent-sessions/open.json";

/** Paths listed in each workspace folder's .agent-sessions/open.json (`{"open": [...]}`). */
export function sessionsToOpen(log: Log): string[] {
  const out: string[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const file = join(folder.uri.fsPath, OPEN_ON_START);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") log.warn(`${file}: not read: ${(err as Error).message}`);
      continue;
    }
    const list = (parsed as { open?: unknown })?.open;
    if (!Array.isArray(list)) {
      log.warn(`${file}: expected {"open": ["path.jsonl", ...]}`);
      continue;
    }
    for (const p of list) {
      if (typeof p === "string" && p.endsWith(".jsonl")) out.push(isAbsolute(p) ? p : join(folder.uri.fsPath, p));
      else log.warn(`${file}: ignored ${JSON.stringify(p)} (expected a .jsonl path)`);
    }
  }
  return out;
}
