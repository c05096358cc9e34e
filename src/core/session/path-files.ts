import type { FileActivity } from "./session-format";
import type { SessionReader } from "./session-reader";

/**
 * Lists of files (as a format's `files` gives them) for consecutive stretches of one path,
 * merged into the list `files` gives for the whole path: the order first touched, the
 * counts added, the summary kinds in the order first seen, the first entry kept. Every
 * format's `files` is a tally over its positions, each entry counted on its own, so a
 * path's list is the merge of its stretches' lists.
 */
export class FileMerge {
  private readonly byPath = new Map<string, FileActivity>();

  add(list: readonly FileActivity[]): void {
    for (const a of list) {
      const had = this.byPath.get(a.path);
      if (!had) {
        // A copy: a stretch's list is shared by every path through it.
        this.byPath.set(a.path, { ...a, fromSummary: [...a.fromSummary] });
        continue;
      }
      had.read += a.read;
      had.written += a.written;
      had.edited += a.edited;
      for (const k of a.fromSummary) if (!had.fromSummary.includes(k)) had.fromSummary.push(k);
    }
  }

  list(): FileActivity[] {
    return [...this.byPath.values()];
  }
}

/** Positions per call of the format's `files` (each call parses every tool-call entry it is given at once). */
export const FILES_CHUNK = 512;

export interface PathFilesOptions {
  /** Positions per call of `files` (FILES_CHUNK); tests make it small. */
  chunk?: number;
  /** After each call: an export trims its heap here (the entries it parsed are garbage). */
  afterChunk?: () => void;
}

/**
 * The files of several paths of one session (an export's branches), each stretch of
 * tree shared between them read once: branches share most of their path, and a long
 * path's entries are megabytes of parsed text. A stretch runs from the root or a child of
 * a branch point down to the next branch point (or the path's end); it is read a chunk at
 * a time, and its merged list kept (a few hundred small records) for the next path.
 */
export class PathFiles {
  private readonly stretches = new Map<string, FileActivity[]>();

  constructor(
    private readonly session: SessionReader,
    private readonly files: (session: SessionReader, positions: readonly number[]) => FileActivity[],
    private readonly opts: PathFilesOptions = {},
  ) {}

  /** What `files(session, path)` gives, for a path as tree.path gives it (root..leaf, each the parent of the next). */
  of(path: readonly number[]): FileActivity[] {
    const tree = this.session.tree;
    const merge = new FileMerge();
    for (let start = 0; start < path.length; ) {
      let end = start + 1;
      while (end < path.length && tree.childCount(path[end - 1]) <= 1) end++;
      merge.add(this.stretch(path, start, end));
      start = end;
    }
    return merge.list();
  }

  /** The files of path[start..end), read once: between two positions of a tree there is one way down. */
  private stretch(path: readonly number[], start: number, end: number): FileActivity[] {
    const key = `${path[start]}:${path[end - 1]}`;
    let list = this.stretches.get(key);
    if (list) return list;
    const chunk = Math.max(1, this.opts.chunk ?? FILES_CHUNK);
    const merge = new FileMerge();
    for (let k = start; k < end; k += chunk) {
      merge.add(this.files(this.session, path.slice(k, Math.min(end, k + chunk))));
      this.opts.afterChunk?.();
    }
    list = merge.list();
    this.stretches.set(key, list);
    return list;
  }
}
