import { closeSync, readSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { realFolderInside, realPathInside } from "../../util/path-inside";
import type { ClawdcodeContextItem } from "./context";
import { toolKind, toolPaths } from "./tool-files";
import { openRegular } from "../../util/safe-open";

/** A file the summarized messages touched, with what ranks it. */
export interface RankedFile {
  /** As the tool input named it. */
  path: string;
  /** Written or edited by a tool call. */
  modified: boolean;
  /** Messages whose content names the path (its tool calls included). */
  mentions: number;
  /** Position (in the summarized messages) of the last one naming it. */
  lastSeen: number;
}

/** A file read for the summary prompt. */
export interface IncludedFile {
  path: string;
  text: string;
  /** Lines read, and lines the file has (more when it was cut). */
  lines: number;
  totalLines: number;
}

export const MAX_FILES = 5;
export const MAX_FILE_LINES = 1000;
/** Bytes read per file at most: 1,000 very long lines must not fill the prompt. */
const MAX_FILE_BYTES = 256 * 1024;

/**
 * Files named by the tool calls of the summarized messages, ranked: modified first, then
 * by how many messages mention them, then the most recently mentioned; ties by path.
 */
export function rankFiles(items: readonly ClawdcodeContextItem[]): RankedFile[] {
  const files = new Map<string, RankedFile>();
  for (const it of items) {
    if (it.line.type !== "tool_use") continue;
    const kind = toolKind(it.line.tool?.name);
    const modified = kind === "written" || kind === "edited";
    for (const path of toolPaths(it.line.tool?.input)) {
      const f = files.get(path) ?? { path, modified: false, mentions: 0, lastSeen: -1 };
      f.modified ||= modified;
      files.set(path, f);
    }
  }
  if (!files.size) return [];
  items.forEach((it, k) => {
    const text = JSON.stringify(it.message.content) ?? "";
    for (const f of files.values()) {
      if (!text.includes(JSON.stringify(f.path).slice(1, -1))) continue;
      f.mentions++;
      f.lastSeen = k;
    }
  });
  return [...files.values()].sort((a, b) => Number(b.modified) - Number(a.modified) || b.mentions - a.mentions || b.lastSeen - a.lastSeen || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The files a compaction may send, and the ranked files it must not read, with why. */
export interface FileChoice {
  included: IncludedFile[];
  notRead: Array<{ path: string; reason: string }>;
}

/** Why a file is not read; the dry run shows it after the path. */
export const OUTSIDE = "outside the project";

/**
 * The first MAX_FILES ranked files that exist inside the session's cwd, each cut to
 * MAX_FILE_LINES lines, when that cwd lies inside one of `project` (the folders the user
 * opened: the VS Code workspace, the CLI's working directory). The session file is
 * untrusted: its cwd ("/") and its tool paths ("/etc/passwd", a link out) must not choose
 * what leaves the machine. Paths are resolved through every symlink before the check;
 * ranked files outside are listed in `notRead`, never read. No cwd, no files.
 */
export function readRankedFiles(cwd: string, ranked: readonly RankedFile[], project: readonly string[], max = MAX_FILES): FileChoice {
  const out: FileChoice = { included: [], notRead: [] };
  if (!cwd || !isAbsolute(cwd)) return out;
  const cwdInside = realFolderInside(cwd, project);
  for (const f of ranked) {
    if (!cwdInside) {
      out.notRead.push({ path: f.path, reason: OUTSIDE });
      continue;
    }
    const check = realPathInside(resolve(cwd, f.path), [cwd]);
    if (!check.inside) {
      // A missing or odd file is passed over as before; one that leads out is named.
      if (check.leadsOut) out.notRead.push({ path: f.path, reason: check.leadsOut === "link" ? `${OUTSIDE}, through a symbolic link` : OUTSIDE });
      continue;
    }
    if (out.included.length >= max) continue;
    const read = headOf(check.real);
    if (read) out.included.push({ path: f.path, ...read });
  }
  return out;
}

function headOf(path: string): Omit<IncludedFile, "path"> | undefined {
  let fd: number;
  try {
    fd = openRegular(path);
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.allocUnsafe(MAX_FILE_BYTES);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (!n) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    // Binary files say nothing to a summary.
    if (bytes.includes(0)) return undefined;
    const all = bytes.toString("utf8").split("\n");
    if (all.length > 1 && all[all.length - 1] === "") all.pop();
    const cut = got === MAX_FILE_BYTES;
    const lines = all.slice(0, MAX_FILE_LINES);
    // A file cut by bytes has an unknown number of lines: at least what was seen.
    return { text: lines.join("\n"), lines: lines.length, totalLines: cut ? Math.max(all.length, lines.length + 1) : all.length };
  } finally {
    closeSync(fd);
  }
}
