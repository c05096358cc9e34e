import type { FileActivity } from "./session-format";

/** A record's summaries before it has one: shared, never changed (fromSummary makes a list of its own). */
const NO_SUMMARY: FileActivity["fromSummary"] = Object.freeze([]) as unknown as FileActivity["fromSummary"];

/** Records a tally looks through one by one before it keeps them by path too. */
const FEW = 8;

/**
 * Files as a format's entries touch them, in the order first touched (every format's `files`
 * counts with this). An entry's tally (the history's read makes one for each entry that
 * calls a file tool) holds a file or two: they are looked for in the list, and kept by path
 * only past a few (a map each was a fifth of what that read allocated).
 */
export class FileTally {
  private readonly records: FileActivity[] = [];
  private byPath: Map<string, FileActivity> | undefined;

  /** The record of a path, made on its first touch by `entryId`. */
  touch(path: string, entryId: string): FileActivity {
    let a = this.find(path);
    if (!a) {
      a = { path, read: 0, written: 0, edited: 0, fromSummary: NO_SUMMARY, firstEntryId: entryId };
      this.records.push(a);
      if (this.byPath) this.byPath.set(path, a);
      else if (this.records.length > FEW) this.byPath = new Map(this.records.map((r) => [r.path, r]));
    }
    return a;
  }

  private find(path: string): FileActivity | undefined {
    if (this.byPath) return this.byPath.get(path);
    for (const r of this.records) if (r.path === path) return r;
    return undefined;
  }

  /** A summary's record of a file (no per-call count there). */
  fromSummary(path: string, entryId: string, kind: "read" | "modified"): void {
    const a = this.touch(path, entryId);
    if (!a.fromSummary.includes(kind)) a.fromSummary = [...a.fromSummary, kind];
  }

  list(): FileActivity[] {
    return this.records.slice();
  }
}

/** The two lists a summary records: modified = written or edited; read = read and not modified; both sorted. */
export function fileLists(activity: readonly FileActivity[]): { readFiles: string[]; modifiedFiles: string[] } {
  const modified = activity.filter((a) => a.written || a.edited || a.fromSummary.includes("modified")).map((a) => a.path);
  const mod = new Set(modified);
  const read = activity.filter((a) => (a.read || a.fromSummary.includes("read")) && !mod.has(a.path)).map((a) => a.path);
  return { readFiles: read.sort(), modifiedFiles: modified.sort() };
}
