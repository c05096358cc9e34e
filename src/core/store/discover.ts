import { mkdirSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { cleanStaleTemps, writeNewFile } from "./atomic-file";
import { openRegularAsync, readTextFile } from "../util/safe-open";
import { readHead } from "./head-lines";

/** What the sessions list shows for one file, read without parsing the whole file. */
export interface SessionSummary {
  path: string;
  /** Format id of the agent that wrote it ("pi", "clawdcode", ...). */
  agent: string;
  id: string;
  cwd: string;
  /** The format's version of the file, when it has one. */
  version?: number;
  parentSession?: string;
  created: string;
  name?: string;
  firstMessage: string;
  /** Entries: lines after the header that are JSON objects (by their first and last non-blank byte). */
  entryCount: number;
  size: number;
  mtimeMs: number;
  /** Sub-agent transcripts in files of their own (formats that have them). */
  subagents?: SubagentSummary[];
  /**
   * The file is a sub-agent's own session (Codex: a spawned thread's rollout, found by its
   * head): the id of the session that started it. Listed under that session, not on its own,
   * when that session is listed too.
   */
  subagentOf?: { parent: string; agentType?: string };
  /**
   * Listed from its head alone (ListOptions.headsOnly): its entryCount is unknown (-1) and a
   * name a later line sets is not read. Only a caller that reads the whole file itself (the
   * per-file history) lists so; the Sessions view and `ase list` never get such a summary.
   */
  headsOnly?: true;
}

/** A sub-agent's transcript, listed under the session that started it. */
export interface SubagentSummary {
  /** Its transcript; for a sub-agent written inline, the session's own file. */
  path: string;
  /** Written inline in the session's file (Claude Code 1.0.x sidechains): the first of its lines. */
  entryId?: string;
  agentId: string;
  /** What it was asked to do, when its agent recorded it. */
  description?: string;
  agentType?: string;
  size: number;
  mtimeMs: number;
}

export interface ProjectGroup {
  cwd: string;
  sessions: SessionSummary[];
}

export interface CacheRecord extends SessionSummary {
  /** Bytes scanned; an append-only file that grew is scanned from here on. */
  scanned: number;
  /** Whether a first user message was found (else it is looked for again). */
  firstFound: boolean;
  /** Terminated lines up to `scanned` that are JSON objects, the header included. */
  lines: number;
  /** Sub-agents written inline in the file (SessionScanner.inlineOf), in file order. */
  inline?: Array<{ agentId: string; description?: string }>;
}

interface CacheFile {
  version: typeof CACHE_VERSION;
  records: Record<string, CacheRecord>;
}

/** 2: entryCount counts JSON-object lines only (1 counted every non-blank line); 3: records name their agent; 4: inline sub-agents; 5: subagentOf. */
const CACHE_VERSION = 5;
const HEAD_BYTES = 256 * 1024;
/**
 * What a heads-only listing reads of a head first: the lines that settle a session's facts
 * (SessionScanner.headDone) are near its start, and 256 KiB of each of a thousand sessions
 * was most of the history's listing. Where they are not settled within it, HEAD_BYTES are
 * read (the same facts either way: headObjects stops at the line that settles them).
 */
const SMALL_HEAD_BYTES = 16 * 1024;

/** What a session starts with, as a format reads it from the first lines. */
export type HeadFacts = Omit<SessionSummary, "path" | "agent" | "entryCount" | "size" | "mtimeMs">;

/**
 * How one agent's store is listed: where its files are, what its first lines say, and
 * which later lines rename a session. The walk, the cache and the line count are shared.
 */
export interface SessionScanner {
  readonly formatId: string;
  /** The folder holding one folder per project (pi: the sessions dir; others: root/projects). */
  projectsDir(root: string): string;
  /** Facts from the parsed objects of the head, in order; throws (saying why) when the file is not a session of this format. */
  head(objects: Array<Record<string, unknown>>, size: number): HeadFacts;
  /**
   * Whether the objects so far (the last one just parsed) settle what head() makes of the
   * file: the rest of the head is then not parsed. Left out: every line of the head is.
   */
  headDone?(objects: ReadonlyArray<Record<string, unknown>>): boolean;
  /** Which .jsonl file names are sessions (default: all); e.g. Claude Code's sub-agent files are not. */
  accepts?(name: string): boolean;
  /** Sub-agent files that belong to a session (read fresh each listing: a few directory reads); what it would not follow goes to `notes`. */
  subagents?(sessionPath: string, session: SessionSummary, notes: Unread[]): Promise<SubagentSummary[]>;
  /** Lines that are not entries at the start of a file (pi's header: 1). */
  readonly headerLines: number;
  /** Bytes a renaming line must hold (a fast pre-check), and the name it sets, if any. */
  readonly nameMarker?: Buffer;
  nameOf?(obj: Record<string, unknown>): string | undefined;
  /**
   * Bytes a line starting a sub-agent written inline must hold, and what it says of it
   * (Claude Code before 2.1: sidechain lines in the session's own file). Found while the
   * lines are counted, kept in the cache like names.
   */
  readonly inlineMarker?: Buffer;
  inlineOf?(obj: Record<string, unknown>): { agentId: string; description?: string } | undefined;
  /**
   * What its tail scan finds is the names only (nameOf; no inline sub-agents), and a loaded
   * session of the format names itself the same (SessionFormat.info(...).name): a heads-only
   * listing (ListOptions.headsOnly) leaves the tails to the caller that loads the files anyway.
   */
  readonly namesInLoad?: boolean;
  /** The session files under the root, for stores not laid out as one folder per project (Codex: sessions/YYYY/MM/DD). */
  files?(root: string, unread: Unread[]): Promise<string[]>;
  /** A file's facts read its own way (a compressed file), or undefined to scan it as text. */
  summarizeOwn?(path: string, size: number, mtimeMs: number): Promise<(HeadFacts & { entryCount: number }) | undefined>;
  /** Names by session id from a file beside the sessions (Codex's session_index.jsonl), read fresh each listing. */
  titles?(root: string): Promise<ReadonlyMap<string, string>>;
  /**
   * The whole listing done the store's own way, for a store whose sessions are not files
   * (OpenCode: rows of a SQLite database, addressed `<db>#<id>`); the walk and cache are skipped.
   */
  listOwn?(root: string, opts: ListOptions): Promise<ListResult>;
}

export interface ListOptions {
  /** JSON file that remembers summaries by path, size and mtime. */
  cacheFile?: string;
  signal?: AbortSignal;
  /**
   * For a caller that reads every session whole itself (the per-file history): the stores
   * whose scanner allows it (namesInLoad) are listed from the files' heads, no tail scanned
   * (SessionSummary.headsOnly). The listing's cacheFile is then read, never written (its
   * records are whole); these partial ones go to a cache file of their own, `cacheFile` here.
   */
  headsOnly?: { cacheFile?: string };
  /** Told of each session as it is summarized, before the listing ends (the per-file history starts reading them). */
  onSummary?: (s: SessionSummary) => void;
}

export interface ListResult {
  projects: ProjectGroup[];
  /** Files that are not sessions, with the reason (for the log; never fatal). */
  skipped: Array<{ path: string; reason: string }>;
  /**
   * What the listing left out that a person would want to know of: folders it cannot read
   * (their sessions are missing), links out of the store and ids from lines it would not
   * follow. Shown (stderr of `ase list`, a note in the Sessions view), never fatal.
   */
  notes: Unread[];
  stats: { files: number; fromCache: number; scannedBytes: number };
}

/** Lists every session of one agent under its root, grouped by cwd, newest first. */
export async function listWith(scanner: SessionScanner, root: string, opts: ListOptions = {}): Promise<ListResult> {
  if (scanner.listOwn) return scanner.listOwn(root, opts);
  const sessionsDir = scanner.projectsDir(root);
  const heads = scanner.namesInLoad ? opts.headsOnly : undefined;
  const cache = loadCache(opts.cacheFile);
  // A heads-only listing also takes the partial records of the last one (never the other way round).
  if (heads) for (const [file, rec] of Object.entries(loadCache(heads.cacheFile).records)) cache.records[file] ??= rec;
  const next: CacheFile = { version: CACHE_VERSION, records: {} };
  const skipped: ListResult["skipped"] = [];
  const notes: Unread[] = [];
  const stats = { files: 0, fromCache: 0, scannedBytes: 0 };
  const files = scanner.files ? await scanner.files(root, notes) : await sessionFiles(sessionsDir, scanner.accepts, true, notes);
  const summaries: SessionSummary[] = [];
  const inlineByFile = new Map<string, NonNullable<CacheRecord["inline"]>>();
  // A few files at a time: enough to overlap I/O without thousands of open handles.
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      opts.signal?.throwIfAborted();
      stats.files++;
      let found: SessionSummary | undefined;
      try {
        const st = await stat(file);
        // A FIFO or device named *.jsonl would block the read for ever.
        if (!st.isFile()) throw new Error("not a regular file");
        const old = cache.records[file];
        let rec: CacheRecord;
        if (old && old.size === st.size && old.mtimeMs === st.mtimeMs && (heads || !old.headsOnly)) {
          rec = old;
          stats.fromCache++;
        } else {
          // Session files only grow: a grown file is scanned from where we stopped.
          const grown = old && old.size < st.size && old.firstFound && !old.headsOnly && !heads ? old : undefined;
          const own = await scanner.summarizeOwn?.(file, st.size, st.mtimeMs);
          rec = own ? { path: file, agent: scanner.formatId, ...own, size: st.size, mtimeMs: st.mtimeMs, scanned: st.size, firstFound: true, lines: own.entryCount } : await summarize(scanner, file, st.size, st.mtimeMs, grown, !!heads);
          stats.scannedBytes += rec.headsOnly ? rec.scanned : st.size - (grown ? grown.scanned : 0);
        }
        next.records[file] = rec;
        found = publicPart(rec);
        summaries.push(found);
        if (rec.inline?.length) inlineByFile.set(file, rec.inline);
      } catch (err) {
        skipped.push({ path: file, reason: (err as Error).message });
      }
      // Outside the file's try: what the caller does with it is not this file's problem.
      if (found) opts.onSummary?.(found);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  // The listing's own cache holds whole records only: a heads-only listing keeps to its own.
  const cacheFile = heads ? heads.cacheFile : opts.cacheFile;
  if (cacheFile) saveCache(cacheFile, next);
  const titles = scanner.titles ? await scanner.titles(root) : undefined;
  for (const s of summaries) {
    const title = titles?.get(s.id);
    if (title) s.name = title;
    const subs = scanner.subagents ? await scanner.subagents(s.path, s, notes).catch(() => []) : [];
    // Inline ones open the session's own file at their first line.
    for (const a of inlineByFile.get(s.path) ?? []) subs.push({ path: s.path, agentId: a.agentId, entryId: a.agentId, ...(a.description ? { description: a.description } : {}), size: 0, mtimeMs: s.mtimeMs });
    if (subs.length) s.subagents = subs;
  }
  return { projects: group(nestSpawned(summaries)), skipped, notes, stats };
}

/**
 * Sessions that are sub-agents of another listed session (SessionSummary.subagentOf) go
 * under the top session of their line (a sub-agent's sub-agent too: the list nests one
 * level), in start order. One whose parent is not listed, or whose parents make a loop
 * (hostile heads), stays on its own, so nothing disappears from the list.
 */
function nestSpawned(summaries: SessionSummary[]): SessionSummary[] {
  if (!summaries.some((s) => s.subagentOf)) return summaries;
  const byId = new Map(summaries.map((s) => [s.id, s]));
  const topOf = (s: SessionSummary): SessionSummary | undefined => {
    const seen = new Set<SessionSummary>([s]);
    let at = s;
    for (let p = byId.get(at.subagentOf?.parent ?? ""); p; p = byId.get(at.subagentOf?.parent ?? "")) {
      if (seen.has(p)) return undefined;
      seen.add(p);
      at = p;
    }
    return at === s ? undefined : at;
  };
  const nested = new Set<SessionSummary>();
  // Start order; sub-agents started in the same instant by id, so the order never depends on the file system.
  for (const c of [...summaries].sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id))) {
    const top = c.subagentOf ? topOf(c) : undefined;
    if (!top) continue;
    const sub: SubagentSummary = { path: c.path, agentId: c.id, ...(c.firstMessage ? { description: c.firstMessage } : {}), ...(c.subagentOf?.agentType ? { agentType: c.subagentOf.agentType } : {}), size: c.size, mtimeMs: c.mtimeMs };
    (top.subagents ??= []).push(sub);
    nested.add(c);
  }
  return summaries.filter((s) => !nested.has(s));
}

/** A folder a listing could not read, with the reason: reported, never fatal to the rest. */
export type Unread = { path: string; reason: string };

function unreadReason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return `cannot read this folder (${code ?? (err as Error).message}); its sessions are not listed`;
}

/**
 * The .jsonl session files under a store's projects folder (one level of project folders;
 * links to folders are not followed). A listing also removes leftover temp files of ours;
 * a read-only caller (search) passes clean = false. A folder that cannot be read (the
 * root or a project) goes to `unread` with the reason, so the listing can say so.
 */
export async function sessionFiles(root: string, accepts?: (name: string) => boolean, clean = true, unread?: Unread[]): Promise<string[]> {
  let dirents;
  try {
    dirents = await readdir(root, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    if (!unread) throw err;
    unread.push({ path: root, reason: unreadReason(err) });
    return [];
  }
  // Leftover temp files of ours (a writer killed mid-way) go; listings never show them.
  if (clean) cleanStaleTemps(root);
  const out: string[] = [];
  // Regular files and links (checked by stat later); FIFOs, sockets and devices never.
  const candidate = (d: { name: string; isFile(): boolean; isSymbolicLink(): boolean }) => d.name.endsWith(".jsonl") && (d.isFile() || d.isSymbolicLink()) && (!accepts || accepts(d.name));
  for (const d of dirents) {
    const p = join(root, d.name);
    if (d.isDirectory()) {
      let inner;
      try {
        inner = await readdir(p, { withFileTypes: true });
      } catch (err) {
        // Gone since the root was read: nothing to say. Anything else hides sessions: say so.
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") unread?.push({ path: p, reason: unreadReason(err) });
        continue;
      }
      if (clean) cleanStaleTemps(p);
      for (const f of inner) if (candidate(f)) out.push(join(p, f.name));
    } else if (candidate(d)) out.push(p);
  }
  return out;
}

/** Sessions grouped by cwd, newest first (also to merge the lists of several agents). */
export function group(summaries: SessionSummary[]): ProjectGroup[] {
  const byCwd = new Map<string, SessionSummary[]>();
  for (const s of summaries) {
    const list = byCwd.get(s.cwd) ?? [];
    list.push(s);
    byCwd.set(s.cwd, list);
  }
  const groups = [...byCwd].map(([cwd, sessions]) => ({
    cwd,
    sessions: sessions.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path)),
  }));
  return groups.sort((a, b) => b.sessions[0].mtimeMs - a.sessions[0].mtimeMs || a.cwd.localeCompare(b.cwd));
}

function publicPart(rec: CacheRecord): SessionSummary {
  const { scanned: _s, firstFound: _f, lines: _l, inline: _i, ...rest } = rec;
  return rest;
}

/** Reads the head for the format's facts, then (unless `headsOnly`) counts lines and finds names. */
async function summarize(scanner: SessionScanner, path: string, size: number, mtimeMs: number, prev: CacheRecord | undefined, headsOnly: boolean): Promise<CacheRecord> {
  // A file swapped for a FIFO after the stat must not hang the listing.
  const fh = await openRegularAsync(path);
  try {
    let rec: CacheRecord;
    if (prev) {
      rec = { ...prev, size, mtimeMs };
    } else {
      // The first line whole even when it is a long pasted prompt (as detection reads it).
      let head = readHead(fh.fd, path, size, { lines: 1, minBytes: headsOnly && scanner.headDone ? SMALL_HEAD_BYTES : HEAD_BYTES });
      let objects = headObjects(scanner, head.bytes);
      // Not settled in a small head (a long prompt, many lines before it): the whole head, as a full listing reads it.
      if (head.bytes.length < HEAD_BYTES && !head.whole && !(objects.length && scanner.headDone?.(objects))) {
        head = readHead(fh.fd, path, size, { lines: 1, minBytes: HEAD_BYTES });
        objects = headObjects(scanner, head.bytes);
      }
      const facts = scanner.head(objects, size);
      rec = { path, agent: scanner.formatId, ...facts, entryCount: 0, size, mtimeMs, scanned: 0, firstFound: facts.firstMessage !== "", lines: 0 };
      // What was read of the file, its line count unknown (see SessionSummary.headsOnly).
      if (headsOnly) return { ...rec, entryCount: -1, scanned: head.bytes.length, headsOnly: true };
    }
    await scanTail(scanner, fh, rec, size);
    return rec;
  } finally {
    await fh.close();
  }
}

/**
 * The JSON objects of a head's whole lines (all of it when it holds no newline), in order,
 * up to the one that settles the scanner's facts (SessionScanner.headDone): the lines after
 * it are neither decoded nor parsed (most of a head's 256 KiB, for pi's sessions).
 */
function headObjects(scanner: SessionScanner, bytes: Buffer): Array<Record<string, unknown>> {
  const objects: Array<Record<string, unknown>> = [];
  const last = bytes.lastIndexOf(10);
  for (let from = 0; from < bytes.length; ) {
    const nl = bytes.indexOf(10, from);
    const to = nl === -1 ? bytes.length : nl;
    // A head with newlines ends at its last one (a line cut by the read is not looked at).
    if (last !== -1 && from > last) break;
    const line = bytes.toString("utf8", from, to);
    from = to + 1;
    if (!line.trim()) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      // Not JSON: the reader reports it; the list looks at what parses.
      continue;
    }
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) continue;
    objects.push(obj as Record<string, unknown>);
    if (scanner.headDone?.(objects)) break;
  }
  return objects;
}

/**
 * Counts the lines that are JSON objects and picks up session_info names from rec.scanned
 * to size. Whether a line is an object is judged by its first and last non-blank byte
 * ('{' and '}'), not by parsing: the listing reads gigabytes and must stay a scan; a
 * torn line, a `null` or other junk does not count. rec.scanned stops at the start of
 * an unterminated last line, so a writer finishing it is seen next time; that line
 * counts now (when it looks whole) but not in rec.lines.
 */
async function scanTail(scanner: SessionScanner, fh: import("node:fs/promises").FileHandle, rec: CacheRecord, size: number): Promise<void> {
  const chunk = Buffer.allocUnsafe(1 << 20);
  let pos = rec.scanned;
  let lineStartAbs = pos;
  // Start of the current line when it is short enough to keep for a session_info check.
  let carry: Buffer | undefined = Buffer.alloc(0);
  // First and last non-blank byte of the current line so far (0: none yet).
  let first = 0;
  let last = 0;
  const see = (buf: Buffer, start: number, end: number) => {
    if (!first) first = firstNonBlank(buf, start, end);
    last = lastNonBlank(buf, start, end) || last;
  };
  while (pos < size) {
    const { bytesRead } = await fh.read(chunk, 0, Math.min(chunk.length, size - pos), pos);
    if (bytesRead === 0) break;
    const buf = chunk.subarray(0, bytesRead);
    let from = 0;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, from)) {
      see(buf, from, nl);
      if (first === OPEN && last === CLOSE) {
        rec.lines++;
        const line = carry ? (carry.length ? Buffer.concat([carry, buf.subarray(from, nl)]) : buf.subarray(from, nl)) : undefined;
        if (line) pickName(scanner, rec, line);
      }
      from = nl + 1;
      lineStartAbs = pos + from;
      carry = Buffer.alloc(0);
      first = last = 0;
    }
    if (from < bytesRead) {
      see(buf, from, bytesRead);
      // session_info lines are small; a long partial line is only counted.
      carry = carry && carry.length + bytesRead - from <= 65536 ? Buffer.concat([carry, buf.subarray(from)]) : undefined;
    }
    pos += bytesRead;
  }
  rec.scanned = lineStartAbs;
  const partial = first === OPEN && last === CLOSE ? 1 : 0;
  if (partial && carry) pickName(scanner, rec, carry);
  rec.entryCount = Math.max(0, rec.lines + partial - scanner.headerLines);
}

const OPEN = 0x7b;
const CLOSE = 0x7d;

function firstNonBlank(buf: Buffer, start: number, end: number): number {
  for (let i = start; i < end; i++) if (buf[i] > 32) return buf[i];
  return 0;
}

function lastNonBlank(buf: Buffer, start: number, end: number): number {
  for (let i = end - 1; i >= start; i--) if (buf[i] > 32) return buf[i];
  return 0;
}

function pickName(scanner: SessionScanner, rec: CacheRecord, line: Buffer): void {
  if (scanner.inlineMarker && scanner.inlineOf && line.indexOf(scanner.inlineMarker) !== -1) {
    try {
      const found = scanner.inlineOf(JSON.parse(line.toString("utf8")) as Record<string, unknown>);
      if (found) (rec.inline ??= []).push(found);
    } catch {
      // A bad line is the reader's to report, not the list's.
    }
  }
  if (!scanner.nameMarker || !scanner.nameOf || line.indexOf(scanner.nameMarker) === -1) return;
  try {
    const name = scanner.nameOf(JSON.parse(line.toString("utf8")) as Record<string, unknown>);
    if (name) rec.name = name;
  } catch {
    // A bad line is the reader's to report, not the list's.
  }
}

function loadCache(file?: string): CacheFile {
  if (!file) return { version: CACHE_VERSION, records: {} };
  try {
    const parsed = JSON.parse(readTextFile(file)) as CacheFile;
    if (parsed.version === CACHE_VERSION && parsed.records) return parsed;
  } catch {
    // Missing or unreadable cache: start over.
  }
  return { version: CACHE_VERSION, records: {} };
}

function saveCache(file: string, cache: CacheFile): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeNewFile(file, JSON.stringify(cache), { replace: true });
  } catch {
    // The cache is an optimisation; failing to save it must not fail the listing.
  }
}
