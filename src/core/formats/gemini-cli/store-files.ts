import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Unread } from "../../store/discover";
import { openRegularAsync, readTextFile } from "../../util/safe-open";
import { isResumable } from "./native-context";
import { replay } from "./replay";

/**
 * Gemini CLI's store (docs/gemini-cli-format.md sections 1 and 4): `.gemini/tmp/<project>/chats/
 * session-*.jsonl` (and legacy `.json`), one folder per project named by a slug (older ones by
 * the sha256 of the project root). Sub-agent transcripts sit in `chats/<parentId>/`: not sessions.
 */

/** Files this size or smaller are replayed whole while listing, to hide stubs; a stub is < 2 KiB. */
const REPLAYED_MAX = 256 * 1024;
/** Bytes read from a larger file's start and end for its id and last update. */
const EDGE_BYTES = 64 * 1024;

/**
 * Project roots by projectHash (sha256 of the root's path): filled from projects.json and
 * every `.project_root` a listing meets. The hash is a pure function of the path, so one
 * map serves every store and never holds a wrong pair.
 */
export const rootsByHash = new Map<string, string>();

export function projectHash(root: string): string {
  return createHash("sha256").update(root).digest("hex");
}

function learnRoot(root: string): void {
  const r = root.trim();
  if (r) rootsByHash.set(projectHash(r), r);
}

/** The `.gemini` folder of a root: the root's own `.gemini`, or the root itself when it is one. */
export function geminiDir(root: string): string {
  const inner = join(root, ".gemini");
  return existsSync(inner) || !existsSync(join(root, "tmp")) ? inner : root;
}

const SESSION_NAME = /^session-.*\.jsonl?$/;

interface Candidate {
  path: string;
  sessionId: string;
  lastUpdated: string;
  mtimeMs: number;
}

async function readEdges(path: string, size: number): Promise<{ head: string; tail: string }> {
  const fh = await openRegularAsync(path);
  try {
    const head = Buffer.alloc(Math.min(size, EDGE_BYTES));
    await fh.read(head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(size, EDGE_BYTES));
    await fh.read(tail, 0, tail.length, size - tail.length);
    return { head: head.toString("utf8"), tail: tail.toString("utf8") };
  } finally {
    await fh.close();
  }
}

/** What the listing needs of one file: its id, last update, and whether Gemini would offer it. */
async function candidate(path: string): Promise<Candidate | undefined> {
  const st = await stat(path);
  if (!st.isFile()) return undefined;
  if (st.size <= REPLAYED_MAX) {
    const r = replay(readTextFile(path), path);
    if (typeof r.meta.sessionId !== "string" || r.meta.kind === "subagent") return undefined;
    const byKey = new Map(r.nodes.map((n) => [n.key, n.message]));
    // Gemini CLI's own list skips files with nothing to resume (the stubs a resume leaves).
    if (!r.current.some((k) => isResumable(byKey.get(k) ?? {}))) return undefined;
    return { path, sessionId: r.meta.sessionId, lastUpdated: String(r.meta.lastUpdated ?? ""), mtimeMs: st.mtimeMs };
  }
  const { head, tail } = await readEdges(path, st.size);
  const id = /"sessionId"\s*:\s*"([^"]+)"/.exec(head)?.[1];
  if (!id || /"kind"\s*:\s*"subagent"/.test(head.split("\n")[0])) return undefined;
  const updates = [...tail.matchAll(/"lastUpdated"\s*:\s*"([^"]+)"/g)];
  return { path, sessionId: id, lastUpdated: updates.at(-1)?.[1] ?? "", mtimeMs: st.mtimeMs };
}

async function entries(dir: string, unread: Unread[]) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") unread.push({ path: dir, reason: `cannot read this folder (${code ?? (err as Error).message}); its sessions are not listed` });
    return [];
  }
}

/**
 * The session files Gemini CLI itself would list: per project, one file per sessionId (the
 * newest lastUpdated, then mtime), files without resumable content (stubs) and sub-agent
 * transcripts left out. Project roots met on the way are learned (rootsByHash).
 */
export async function geminiSessionFiles(root: string, unread: Unread[]): Promise<string[]> {
  const dir = geminiDir(root);
  try {
    const reg = JSON.parse(readTextFile(join(dir, "projects.json"))) as { projects?: Record<string, unknown> };
    for (const p of Object.keys(reg.projects ?? {})) learnRoot(p);
  } catch {
    // No registry (an older store): the .project_root files and the metadata say the rest.
  }
  const out: string[] = [];
  for (const project of await entries(join(dir, "tmp"), unread)) {
    if (!project.isDirectory()) continue;
    const projectDir = join(dir, "tmp", project.name);
    try {
      learnRoot(readTextFile(join(projectDir, ".project_root")));
    } catch {
      // A hash-named folder has no marker.
    }
    const newest = new Map<string, Candidate>();
    for (const f of await entries(join(projectDir, "chats"), unread)) {
      if (!SESSION_NAME.test(f.name) || !(f.isFile() || f.isSymbolicLink())) continue;
      const c = await candidate(join(projectDir, "chats", f.name)).catch(() => undefined);
      if (!c) continue;
      const old = newest.get(c.sessionId);
      if (!old || c.lastUpdated > old.lastUpdated || (c.lastUpdated === old.lastUpdated && c.mtimeMs > old.mtimeMs)) newest.set(c.sessionId, c);
    }
    for (const c of newest.values()) out.push(c.path);
  }
  return out;
}
