import { type FSWatcher, statSync, watch } from "node:fs";
import type * as vscode from "vscode";
import { edgeHashesOf } from "../core/store/file-stamp";

/**
 * Calls onChange soon after a file's size, mtime, inode or the bytes at its ends change
 * (a same-size rewrite with its mtime put back is a change too); every watcher event
 * (change or rename) leads to a check. fs.watch reacts at once
 * where the platform supports it; a slow poll covers network drives and missed events.
 */
export function watchFile(path: string, onChange: () => void, pollMs = 750): vscode.Disposable {
  let last = stamp(path);
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const now = stamp(path);
    if (now !== last) {
      last = now;
      onChange();
    }
  };
  const debounced = () => {
    clearTimeout(timer);
    timer = setTimeout(check, 50);
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(path, { persistent: false }, debounced);
    watcher.on("error", () => undefined);
  } catch {
    watcher = undefined;
  }
  const poll = setInterval(check, pollMs);
  return {
    dispose() {
      clearInterval(poll);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

function stamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ino}:${edgeHashesOf(path, st.size)}`;
  } catch {
    return "missing";
  }
}
