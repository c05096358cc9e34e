import { isAbsolute, join } from "node:path";
import { realPathInside } from "../core/util/path-inside";
import { clipText } from "../core/util/visible-text";
import type { Log } from "./log";
import { CONFIG_CAP, FileTooLargeError, NotRegularFileError, readTextFile } from "../core/util/safe-open";

/** A workspace can ask for sessions to be opened when it starts (demos, shared investigations). */
export const OPEN_ON_START = ".agent-sessions/open.json";

/** A listed session not opened, and why (said to the user; names open.json, quotes nothing of the file). */
export interface RefusedOpen {
  /** The path as open.json lists it, made absolute. */
  path: string;
  message: string;
}

export interface SessionsToOpen {
  /** Files to open now. */
  open: string[];
  /** Files left closed until the workspace is trusted. */
  refused: RefusedOpen[];
}

/**
 * Paths listed in each workspace folder's .agent-sessions/open.json (`{"open": [...]}`).
 * The file comes with the workspace, so until the workspace is trusted it may only name
 * session files inside the workspace folders (after following symlinks): an untrusted
 * repository must not open whatever `.jsonl` (or link named so) it likes on the machine.
 * Pure but for reading files, so it is tested without VS Code.
 */
export function sessionsToOpen(folders: readonly string[], trusted: boolean, log: Log): SessionsToOpen {
  const out: SessionsToOpen = { open: [], refused: [] };
  for (const folder of folders) {
    const file = join(folder, OPEN_ON_START);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readTextFile(file, CONFIG_CAP));
    } catch (err) {
      // A JSON syntax error quotes the text: name the file and the kind of failure only.
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT") log.warn(`${file}: not read: ${err instanceof SyntaxError ? "not valid JSON" : err instanceof NotRegularFileError || err instanceof FileTooLargeError ? err.message : (code ?? (err as Error).message)}`);
      continue;
    }
    const list = (parsed as { open?: unknown })?.open;
    if (!Array.isArray(list)) {
      log.warn(`${file}: expected {"open": ["path.jsonl", ...]}`);
      continue;
    }
    for (const p of list) {
      if (typeof p !== "string" || !p.endsWith(".jsonl")) {
        log.warn(`${file}: ignored ${clipText(JSON.stringify(p) ?? String(p), 200)} (expected a .jsonl path)`);
        continue;
      }
      const path = isAbsolute(p) ? p : join(folder, p);
      if (trusted) {
        out.open.push(path);
        continue;
      }
      const check = realPathInside(path, folders);
      if (check.inside) out.open.push(check.real);
      else out.refused.push({ path, message: `${file}: not opened: ${clipText(p, 300)} ${check.reason}; until the workspace is trusted, only session files inside its folders are opened` });
    }
  }
  return out;
}
