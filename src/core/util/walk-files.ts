import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { join, relative } from "node:path";
import { isInside } from "./path-inside";

/** Something a walk left out that a person may want to know of (a link out of the store). */
export interface WalkNote {
  path: string;
  reason: string;
}

export interface WalkOptions {
  /** The walk never leaves this folder (after following links): a link out is noted and skipped. */
  within: string;
  /** Which file names are wanted. */
  accept(name: string): boolean;
  /** Folders below `dir` entered at most (a deeper tree is noted and not read further). */
  maxDepth?: number;
  notes?: WalkNote[];
}

const MAX_DEPTH = 8;

/**
 * The wanted files under `dir`, in path order. A store's folders are not to be trusted:
 * a link loop (`l1 -> .`) made a recursive readdir run for minutes and a link to /usr
 * read all of /usr. So every folder is entered once by its real path, none outside
 * `within`, no deeper than maxDepth, and a file reached twice (through a link) counts once.
 * A folder that cannot be read holds nothing.
 */
export function walkFiles(dir: string, opts: WalkOptions): string[] {
  let root: string;
  let start: string;
  try {
    root = realpathSync(opts.within);
    start = realpathSync(dir);
  } catch {
    return [];
  }
  if (!isInside(root, start)) {
    opts.notes?.push({ path: dir, reason: `leads outside ${opts.within} through a symbolic link; not followed` });
    return [];
  }
  const maxDepth = opts.maxDepth ?? MAX_DEPTH;
  const seenDirs = new Set<string>();
  const seenFiles = new Set<string>();
  const out: string[] = [];
  const visit = (shown: string, real: string, depth: number) => {
    if (seenDirs.has(real)) return;
    seenDirs.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(shown, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(shown, e.name);
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      let target = join(real, e.name);
      if (e.isSymbolicLink()) {
        try {
          target = realpathSync(path);
          const st = statSync(target);
          isDir = st.isDirectory();
          isFile = st.isFile();
        } catch {
          continue; // A dangling link or a loop the kernel refuses: nothing there.
        }
        if (!isInside(root, target)) {
          if (isDir || opts.accept(e.name)) opts.notes?.push({ path, reason: `leads outside ${opts.within} through a symbolic link; not followed` });
          continue;
        }
      }
      if (isDir) {
        if (depth >= maxDepth) opts.notes?.push({ path, reason: `more than ${maxDepth} folders deep; not read` });
        else visit(path, target, depth + 1);
      } else if (isFile && opts.accept(e.name) && !seenFiles.has(target)) {
        seenFiles.add(target);
        out.push(path);
      }
    }
  };
  visit(dir, start, 0);
  return out.sort((a, b) => relative(dir, a).localeCompare(relative(dir, b)));
}
