import { stat } from "node:fs/promises";
import { FORMATS, detectFormat, firstObjects } from "../formats/registry";
import type { PlainCopy, SearchHooks } from "../session/search-hooks";
import type { SessionFormat } from "../session/session-format";
import { type SessionScanner, type SessionSummary, type SubagentSummary, sessionFiles } from "../store/discover";
import { linesEnd } from "../store/head-lines";
import { openRegularAsync } from "../util/safe-open";

/** A file to search, known by its stat alone (the cheap part, done for every file first). */
export interface SearchTarget {
  path: string;
  size: number;
  mtimeMs: number;
}

/** What the search needs to know of a file before reading it: read from its first lines. */
export interface PreparedTarget extends SearchTarget {
  format: SessionFormat;
  hooks: SearchHooks;
  cwd: string;
  version: number;
  /** The values of the first lines (what the format was detected from). */
  objects: unknown[];
}

export interface TargetOptions {
  /** Search these files rather than the stores. */
  files?: readonly string[];
  /** Explicit store roots by format id; the rest come from the environment or home. */
  dirs?: Record<string, string | undefined>;
  /** Only these format ids. */
  only?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** The roots each agent's store is searched under, as `ase list` lists them. */
export function searchRoots(opts: TargetOptions): Array<{ agent: string; root: string; dir: string; accepts?: (name: string) => boolean; files?: SessionScanner["files"] }> {
  const env = opts.env ?? process.env;
  // A store that lists itself (rows, not files) is searched by search-rows.ts.
  return FORMATS.filter((f) => f.discovery && f.search && !f.discovery.scanner.listOwn && (!opts.only || opts.only.includes(f.id))).map((f) => {
    const d = f.discovery as NonNullable<SessionFormat["discovery"]>;
    const root = d.root(opts.dirs?.[f.id], env);
    return { agent: f.id, root, dir: d.scanner.projectsDir(root), accepts: d.scanner.accepts, files: d.scanner.files };
  });
}

/**
 * Every file to search, newest first (the sessions a person most likely means come
 * first, and so do their hits). Files that cannot be stat'ed, or are no regular files,
 * are skipped with the reason.
 */
export async function findTargets(opts: TargetOptions): Promise<{ targets: SearchTarget[]; skipped: Array<{ path: string; reason: string }> }> {
  const paths: string[] = [];
  if (opts.files) paths.push(...opts.files);
  // A store not laid out as one folder per project lists its own files (Gemini CLI, Codex).
  else for (const r of searchRoots(opts)) paths.push(...(r.files ? await r.files(r.root, []) : await sessionFiles(r.dir, r.accepts, false)));
  const skipped: Array<{ path: string; reason: string }> = [];
  const targets: SearchTarget[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    if (seen.has(path)) continue;
    seen.add(path);
    try {
      const st = await stat(path);
      // A FIFO or device named *.jsonl would block the read for ever.
      if (!st.isFile()) throw new Error("not a regular file");
      targets.push({ path, size: st.size, mtimeMs: st.mtimeMs });
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      skipped.push({ path, reason: e.code === "ENOENT" ? "no such file" : e.message });
    }
  }
  targets.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return { targets, skipped };
}

/** The plain copy to read in place of a file its agent stores compressed (the first format that claims it), or undefined. */
export function plainCopyOf(path: string): Promise<PlainCopy> | undefined {
  for (const f of FORMATS) {
    const copy = f.search?.plainCopy?.(path);
    if (copy) return copy;
  }
  return undefined;
}

/** Non-blank lines detection looks at (the registry's count). */
const FIRST_LINES = 5;

/** A target's format, search hooks, cwd and version, from its head (the first chunk's start); a string says why it is not searched, null that the agent filter leaves it out. */
export function prepareHead(t: SearchTarget, head: Buffer, complete: boolean, only?: readonly string[]): PreparedTarget | string | null {
  const cut = linesEnd(head, FIRST_LINES);
  const first = { path: t.path, objects: firstObjects(head.toString("utf8", 0, cut ?? head.length), cut !== undefined || complete) };
  const format = detectFormat(first);
  if (only && !only.includes(format.id)) return null;
  if (!format.search) return `${format.agent} sessions cannot be searched`;
  const header = format.index.header?.accept(first.objects[0], 1);
  const version = header && typeof header === "object" ? header.version : 0;
  return { ...t, format, hooks: format.search, cwd: format.search.cwd(first.objects), version, objects: first.objects };
}

/**
 * The sub-agent transcripts of a session, in files of their own, as its store lists them
 * (Claude Code: <sessionId>/subagents/**, or agent-*.jsonl beside it naming the session);
 * none for a format without them or a head the store does not take for a session.
 */
export async function subagentFiles(t: PreparedTarget): Promise<SubagentSummary[]> {
  const scanner = t.format.discovery?.scanner;
  if (!scanner?.subagents) return [];
  try {
    // The first lines usually say which session it is; else (metadata lines first) the whole head.
    let facts: ReturnType<typeof scanner.head>;
    try {
      facts = scanner.head(t.objects.filter((o): o is Record<string, unknown> => !!o && typeof o === "object" && !Array.isArray(o)), t.size);
    } catch {
      facts = scanner.head(await headObjects(t), t.size);
    }
    const session: SessionSummary = { ...facts, path: t.path, agent: t.format.id, entryCount: 0, size: t.size, mtimeMs: t.mtimeMs };
    // Inline ones (no file of their own) are lines of the session's file, searched with it.
    return (await scanner.subagents(t.path, session, [])).filter((a) => a.path !== t.path && a.entryId === undefined);
  } catch {
    return [];
  }
}

const TITLE_HEAD = 256 * 1024;

/** The objects of a target's head as its store's scanner reads them (up to 256 KiB, a cut last line dropped). */
async function headObjects(t: PreparedTarget): Promise<Array<Record<string, unknown>>> {
  const fh = await openRegularAsync(t.path);
  try {
    const buf = Buffer.allocUnsafe(Math.min(TITLE_HEAD, t.size));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const lines = buf.toString("utf8", 0, bytesRead).split("\n");
    // The last piece of a head cut mid-line is no line.
    if (bytesRead < t.size) lines.pop();
    const objects: Array<Record<string, unknown>> = [];
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        const o = JSON.parse(line) as unknown;
        if (o && typeof o === "object" && !Array.isArray(o)) objects.push(o as Record<string, unknown>);
      } catch {
        // Not JSON: the reader reports it; facts come from what parses.
      }
    }
    return objects;
  } finally {
    await fh.close();
  }
}

/** The title a store lists for a session (its name, else its first prompt), read from its head; undefined when none. */
export async function titleOf(t: PreparedTarget): Promise<string | undefined> {
  const scanner = t.format.discovery?.scanner;
  if (!scanner) return undefined;
  try {
    const facts = scanner.head(await headObjects(t), t.size);
    return facts.name ?? (facts.firstMessage || undefined);
  } catch {
    return undefined;
  }
}
