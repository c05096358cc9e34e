import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { readTextFile } from "../util/safe-open";

/** The checkout a path lies in and what names its repository. */
export interface RepoOf {
  /** The checkout's root (the folder holding `.git`). */
  root: string;
  /** Same for every checkout of one repository: its remote's URL, else its shared git folder. */
  key: string;
}

/** .git files and configs are small; a bigger one is not ours to read whole. */
const GIT_FILE_CAP = 256 * 1024;

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function readSmall(p: string): string | undefined {
  try {
    return readTextFile(p, GIT_FILE_CAP);
  } catch {
    return undefined;
  }
}

/** The git folder a `.git` entry stands for: itself, or where a worktree's `.git` file points ("gitdir: ..."). */
function gitDirOf(dotGit: string): string | undefined {
  if (isDir(dotGit)) return dotGit;
  const text = isFile(dotGit) ? readSmall(dotGit) : undefined;
  const m = text && /^gitdir:\s*(.+)$/m.exec(text);
  return m ? resolve(dirname(dotGit), m[1].trim()) : undefined;
}

/** A worktree's git folder names the repository's shared one in `commondir`. */
function commonDirOf(gitDir: string): string {
  const text = readSmall(join(gitDir, "commondir"));
  return text?.trim() ? resolve(gitDir, text.trim()) : gitDir;
}

/**
 * A remote URL the same for every spelling of one repository: scp-like `git@host:o/r.git`
 * and `https://host/o/r` meet as `host/o/r`, lower-cased host, no `.git`, no trailing slash.
 */
export function normalizedRemote(url: string): string {
  let u = url.trim();
  const scp = /^([^@/:]+@)?([^/:]+):(?!\/)(.+)$/.exec(u);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) u = `${scp[2]}/${scp[3]}`;
  else u = u.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/^[^@/]+@/, "");
  u = u.replace(/\/+$/, "").replace(/\.git$/, "");
  const slash = u.indexOf("/");
  return slash < 0 ? u.toLowerCase() : u.slice(0, slash).toLowerCase() + u.slice(slash);
}

/** The URL of the config's "origin" remote, else of its first remote. */
export function remoteUrl(config: string): string | undefined {
  let section = "";
  let first: string | undefined;
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    const head = /^\[\s*remote\s+"([^"]*)"\s*\]$/.exec(line);
    if (head || line.startsWith("[")) {
      section = head ? head[1] : "";
      continue;
    }
    const url = section ? /^url\s*=\s*(.+)$/.exec(line) : null;
    if (!url) continue;
    if (section === "origin") return url[1].trim();
    first ??= url[1].trim();
  }
  return first;
}

/**
 * The checkout holding `dir` and its repository's identity, found by reading `.git`, its
 * `commondir` and `config` (no git process: a lookup runs on every editor switch). Memoized
 * per folder in `memo`, since the sessions of one project share their cwd.
 */
export function repoOf(dir: string, memo: Map<string, RepoOf | null> = new Map()): RepoOf | undefined {
  const seen: string[] = [];
  let found: RepoOf | null = null;
  for (let d = resolve(dir); ; d = dirname(d)) {
    const known = memo.get(d);
    if (known !== undefined) {
      found = known;
      break;
    }
    seen.push(d);
    const gitDir = gitDirOf(join(d, ".git"));
    if (gitDir) {
      const common = commonDirOf(gitDir);
      const config = readSmall(join(common, "config"));
      const remote = config ? remoteUrl(config) : undefined;
      found = { root: d, key: remote ? `remote:${normalizedRemote(remote)}` : `gitdir:${common}` };
      break;
    }
    if (dirname(d) === d) break;
  }
  for (const d of seen) memo.set(d, found);
  return found ?? undefined;
}
