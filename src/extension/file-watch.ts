import { type FSWatcher, statSync, watch } from "node:fs";
import type * as vscode from "vscode";
import { storeFilesOf } from "../core/formats/registry";
import { edgeHashesOf } from "../core/store/file-stamp";

/**
 * Calls onChange soon after one of the files' size, mtime, inode or the bytes at its ends
 * change (a same-size rewrite with its mtime put back is a change too); every watcher
 * event (change or rename) leads to a check. fs.watch reacts at once where the platform
 * supports it; a slow poll covers network drives and missed events. A file that is not
 * there yet (a -wal made at the first write) or was replaced is watched again at the next
 * check.
 */
export function watchFiles(paths: readonly string[], onChange: () => void, pollMs = 750): vscode.Disposable {
  const stamps = () => paths.map(stamp).join("\n");
  let last = stamps();
  let timer: NodeJS.Timeout | undefined;
  const watchers = new Map<string, FSWatcher>();
  const unwatch = (p: string) => {
    watchers.get(p)?.close();
    watchers.delete(p);
  };
  const check = () => {
    arm();
    const now = stamps();
    if (now !== last) {
      last = now;
      onChange();
    }
  };
  const debounced = () => {
    clearTimeout(timer);
    timer = setTimeout(check, 50);
  };
  const arm = () => {
    for (const p of paths) {
      if (watchers.has(p)) continue;
      try {
        const w = watch(p, { persistent: false }, (event) => {
          // Renamed or deleted: this watcher follows a file that is no longer at the path.
          if (event === "rename") unwatch(p);
          debounced();
        });
        w.on("error", () => unwatch(p));
        watchers.set(p, w);
      } catch {
        // Not there (yet): the poll looks again.
      }
    }
  };
  arm();
  const poll = setInterval(check, pollMs);
  return {
    dispose() {
      clearInterval(poll);
      clearTimeout(timer);
      for (const p of [...watchers.keys()]) unwatch(p);
    },
  };
}

/** watchFiles for one file. */
export function watchFile(path: string, onChange: () => void, pollMs = 750): vscode.Disposable {
  return watchFiles([path], onChange, pollMs);
}

/** Watches the files a session is stored in: its file, or what its address names (OpenCode's `<db>#<id>`: the database and its -wal). */
export function watchSession(path: string, onChange: () => void, pollMs = 750): vscode.Disposable {
  return watchFiles(storeFilesOf(path), onChange, pollMs);
}

function stamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ino}:${edgeHashesOf(path, st.size)}`;
  } catch {
    return "missing";
  }
}
