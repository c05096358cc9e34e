import { homedir } from "node:os";
import { open, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { detectClawdcode } from "./detect";
import { previewOf } from "./index-hooks";
import { type ClawdcodeLine, contentText } from "./lines";

/** What the sessions list shows for one clawdcode file, read without parsing all of it. */
export interface ClawdcodeSessionSummary {
  path: string;
  id: string;
  /** From the lines (the folder name cannot be turned back: "-" stands for "/" and itself). */
  cwd: string;
  /** The first line's timestamp ("" when the head has none). */
  created: string;
  firstMessage: string;
  /** Lines that look like JSON objects (first and last non-blank byte), counted without parsing. */
  entryCount: number;
  size: number;
  mtimeMs: number;
}

export interface ClawdcodeListing {
  root: string;
  sessions: ClawdcodeSessionSummary[];
  /** Files that are not clawdcode sessions, with the reason (never fatal). */
  skipped: Array<{ path: string; reason: string }>;
}

export interface DiscoverOptions {
  /** An explicit store root (the folder holding `projects/`). */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  signal?: AbortSignal;
}

/** Lines of the head parsed for the summary, at most. */
const PARSE_LIMIT = 1024 * 1024;
const CHUNK = 64 * 1024;

/** The store root: the explicit dir, else $CLAWDCODE_DIR, else ~/.clawdcode. */
export function clawdcodeRoot(opts: Pick<DiscoverOptions, "dir" | "env" | "home"> = {}): string {
  const env = opts.env ?? process.env;
  if (opts.dir) return resolve(opts.dir);
  if (env.CLAWDCODE_DIR) return resolve(env.CLAWDCODE_DIR);
  return join(opts.home ?? homedir(), ".clawdcode");
}

/** Every `projects/<folder>/*.jsonl` under the root, newest first; non-sessions skipped with a reason. */
export async function discoverClawdcodeSessions(opts: DiscoverOptions = {}): Promise<ClawdcodeListing> {
  const root = clawdcodeRoot(opts);
  const out: ClawdcodeListing = { root, sessions: [], skipped: [] };
  const projects = join(root, "projects");
  let folders;
  try {
    folders = await readdir(projects, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return out;
    throw new Error(`${projects}: cannot list the clawdcode projects: ${(err as Error).message}`);
  }
  for (const f of folders) {
    if (!f.isDirectory()) continue;
    const dir = join(projects, f.name);
    for (const d of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      // Our hidden temp files end in .ase-tmp, never .jsonl.
      if (!d.name.endsWith(".jsonl") || d.isDirectory()) continue;
      opts.signal?.throwIfAborted();
      const path = join(dir, d.name);
      try {
        const s = await summarize(path);
        if (typeof s === "string") out.skipped.push({ path, reason: s });
        else out.sessions.push(s);
      } catch (err) {
        out.skipped.push({ path, reason: `cannot read it: ${(err as Error).message}` });
      }
    }
  }
  out.sessions.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
  return out;
}

/** Counts object-like lines over the bytes; parses only complete lines of the head, as asked. */
class LineCounter {
  count = 0;
  private first = -1;
  private last = -1;

  feed(buf: Buffer, n: number): void {
    for (let k = 0; k < n; k++) {
      const c = buf[k];
      if (c === 10) this.end();
      else if (c !== 32 && c !== 9 && c !== 13) {
        if (this.first < 0) this.first = c;
        this.last = c;
      }
    }
  }

  end(): void {
    if (this.first === 123 && this.last === 125) this.count++;
    this.first = this.last = -1;
  }
}

async function summarize(path: string): Promise<ClawdcodeSessionSummary | string> {
  const st = await stat(path);
  // A FIFO or device named *.jsonl would block the read for ever.
  if (!st.isFile()) return "not a regular file";
  if (st.size === 0) return "the file is empty";
  const fh = await open(path, "r");
  const counter = new LineCounter();
  const head: unknown[] = [];
  let firstMessage: string | undefined;
  let cwd = "";
  let created = "";
  let id = "";
  let pending = "";
  let parsed = 0;
  const parseLine = (text: string) => {
    if (!text.trim()) return;
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      obj = undefined;
    }
    if (head.length < 5) head.push(obj);
    const l = obj as ClawdcodeLine | undefined;
    if (!l || typeof l !== "object") return;
    if (!id && typeof l.sessionId === "string") id = l.sessionId;
    if (!cwd && typeof l.cwd === "string") cwd = l.cwd;
    if (!created && typeof l.timestamp === "string") created = l.timestamp;
    if (firstMessage === undefined && l.type === "user" && !l.isCompactSummary) firstMessage = previewOf(contentText(l.message?.content));
  };
  const parsing = () => parsed < PARSE_LIMIT && (firstMessage === undefined || !cwd || !id || !created);
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let pos = 0; ; ) {
      const { bytesRead } = await fh.read(buf, 0, CHUNK, pos);
      if (!bytesRead) break;
      pos += bytesRead;
      counter.feed(buf, bytesRead);
      if (parsing()) {
        // Split on newline bytes before decoding: a character cut by the chunk edge waits in `pending`.
        parsed += bytesRead;
        pending += buf.toString("latin1", 0, bytesRead);
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const raw of lines) parseLine(Buffer.from(raw, "latin1").toString("utf8"));
        if (!parsing()) pending = "";
      }
    }
    if (pending) parseLine(Buffer.from(pending, "latin1").toString("utf8"));
    counter.end();
  } finally {
    await fh.close();
  }
  if (!detectClawdcode({ path, objects: head })) {
    return head.some((o) => o !== undefined) ? "not a clawdcode session: its first JSON line has no uuid, parentUuid, sessionId, type and message as 15.2 lays them out" : "not a clawdcode session: no JSON line at its start";
  }
  return {
    path,
    id: id || path.slice(path.lastIndexOf("/") + 1).replace(/\.jsonl$/, ""),
    cwd,
    created,
    firstMessage: firstMessage ?? "",
    entryCount: counter.count,
    size: st.size,
    mtimeMs: st.mtimeMs,
  };
}
