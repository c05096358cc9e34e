import type { FileActivity } from "./session-format";

/** Files as a format's entries touch them, in the order first touched (every format's `files` counts with this). */
export class FileTally {
  private readonly byPath = new Map<string, FileActivity>();

  /** The record of a path, made on its first touch by `entryId`. */
  touch(path: string, entryId: string): FileActivity {
    let a = this.byPath.get(path);
    if (!a) {
      a = { path, read: 0, written: 0, edited: 0, fromSummary: [], firstEntryId: entryId };
      this.byPath.set(path, a);
    }
    return a;
  }

  /** A summary's record of a file (no per-call count there). */
  fromSummary(path: string, entryId: string, kind: "read" | "modified"): void {
    const a = this.touch(path, entryId);
    if (!a.fromSummary.includes(kind)) a.fromSummary.push(kind);
  }

  list(): FileActivity[] {
    return [...this.byPath.values()];
  }
}

/** The two lists a summary records: modified = written or edited; read = read and not modified; both sorted. */
export function fileLists(activity: readonly FileActivity[]): { readFiles: string[]; modifiedFiles: string[] } {
  const modified = activity.filter((a) => a.written || a.edited || a.fromSummary.includes("modified")).map((a) => a.path);
  const mod = new Set(modified);
  const read = activity.filter((a) => (a.read || a.fromSummary.includes("read")) && !mod.has(a.path)).map((a) => a.path);
  return { readFiles: read.sort(), modifiedFiles: modified.sort() };
}
