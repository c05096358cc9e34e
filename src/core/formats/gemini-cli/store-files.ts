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

/**
 * Files this size or smaller are replayed whole while listing, to hide stubs: a stub is a
 * metadata line and the session context (about 1 KiB; a directory listing of Gemini's 200
 * items at most keeps it well under this). Larger files are taken as resumable, as Gemini's
 * list would show them unless every message was rewound away. Replaying every file of a
 * store at each listing cost more than the rest of a warm `ase list` (npm run bench).
 */
const REPLAYED_MAX = 32 * 1024;
/** Bytes read first from a larger file's start and end for its id and last update... */
const EDGE_BYTES = 4 * 1024;
/** ...and read again, this many, when the first read did not hold them (a long last line). */
const EDGE_BYTES_MAX = 64 * 1024;

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

async function readEdges(path: string, size: number): Promise<{ id?: string; firstLine: string; lastUpdated: string }> {
  const fh = await openRegularAsync(path);
  const read = async (at: "head" | "tail", bytes: number) => {
    const buf = Buffer.alloc(Math.min(size, bytes));
    await fh.read(buf, 0, buf.length, at === "head" ? 0 : size - buf.length);
    return buf.toString("utf8");
  };
  try {
    let head = await read("head", EDGE_BYTES);
    let id = /"sessionId"\s*:\s*"([^"]+)"/.exec(head)?.[1];
    if (!id && size > EDGE_BYTES) {
      head = await read("head", EDGE_BYTES_MAX);
      id = /"sessionId"\s*:\s*"([^"]+)"/.exec(head)?.[1];
    }
    const last = (tail: string) => [...tail.matchAll(/"lastUpdated"\s*:\s*"([^"]+)"/g)].at(-1)?.[1];
    let lastUpdated = last(await read("tail", EDGE_BYTES));
    if (lastUpdated === undefined && size > EDGE_BYTES) lastUpdated = last(await read("tail", EDGE_BYTES_MAX));
    return { id, firstLine: head.split("\n")[0], lastUpdated: lastUpdated ?? "" };
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
  const { id, firstLine, lastUpdated } = await readEdges(path, st.size);
  if (!id || /"kind"\s*:\s*"subagent"/.test(firstLine)) return undefined;
  return { path, sessionId: id, lastUpdated, mtimeMs: st.mtimeMs };
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
    const names = (await entries(join(projectDir, "chats"), unread)).filter((f) => SESSION_NAME.test(f.name) && (f.isFile() || f.isSymbolicLink())).map((f) => f.name);
    const newest = new Map<string, Candidate>();
    for (const c of await candidates(names.map((n) => join(projectDir, "chats", n)))) {
      const old = newest.get(c.sessionId);
      if (!old || c.lastUpdated > old.lastUpdated || (c.lastUpdated === old.lastUpdated && c.mtimeMs > old.mtimeMs)) newest.set(c.sessionId, c);
    }
    for (const c of newest.values()) out.push(c.path);
  }
  return out;
}

/** The candidates of some files, in their order; a few read at a time to overlap the I/O. */
async function candidates(paths: string[]): Promise<Candidate[]> {
  const found: Array<Candidate | undefined> = new Array(paths.length);
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < paths.length; k = next++) found[k] = await candidate(paths[k]).catch(() => undefined);
  };
  await Promise.all(Array.from({ length: Math.min(8, paths.length) }, worker));
  return found.filter((c): c is Candidate => c !== undefined);
}
