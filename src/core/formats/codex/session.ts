import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { LineProblem } from "../../store/entry-meta";
import { type FileStamp, JsonlSession, type LoadOptions, type RefreshOptions, StaleSessionError } from "../../session/jsonl-session";
import type { IndexBuilder } from "../../store/index-builder";
import type { ContextMessage } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { findRollout, homeOf } from "./files";
import { rebuildHistory } from "./history";
import { CodexIndexHooks } from "./index-hooks";
import { asObj, str } from "./lines";
import type { Decompressed } from "./zst";
import { streamRollout } from "./zst-stream";

/** What a loaded rollout knows beyond its entries: its session_meta and, for a fork, its parent's part. */
export interface CodexFacts {
  meta: Record<string, unknown>;
  /** The history a fork starts from (its parent's, up to history_base), rebuilt. */
  base: ContextMessage[];
  /** The parent's rollout, when this is a fork whose parent was found. */
  parentPath?: string;
  parentId?: string;
  /** A fork of an older build that copied its parent's lines: the parent's turn ids, and each entry's turn. */
  copied?: { parentTurns: ReadonlySet<string>; turnOf: { get(i: number): string | undefined } };
}

const facts = new WeakMap<SessionReader, CodexFacts>();

/** Whether a reader is a rollout loaded by loadCodex (an in-memory reader of its records is not). */
export function hasCodexFacts(session: SessionReader): boolean {
  return facts.has(session);
}

/** The facts of a rollout loaded by loadCodex (an empty meta for any other reader). */
export function codexFacts(session: SessionReader): CodexFacts {
  return facts.get(session) ?? { meta: {}, base: [] };
}

/** A plain rollout read by the indexed JSONL reader, with problems of its own (a missing parent, a bad .zst). */
export class CodexFileSession extends JsonlSession {
  notes: LineProblem[] = [];

  /** This file's line hooks, which kept the turn of every entry. */
  hooks = new CodexIndexHooks();

  static async open(path: string, opts: LoadOptions = {}): Promise<CodexFileSession> {
    // Hooks per file: they follow turns and the model as the lines go by (index-hooks.ts).
    const hooks = new CodexIndexHooks();
    const s = await JsonlSession.loadWith((...args: [string, IndexBuilder, number, number, boolean, FileStamp]) => new CodexFileSession(...args), path, hooks, opts);
    s.hooks = hooks;
    return s;
  }

  override get problems(): LineProblem[] {
    return [...this.notes, ...super.problems];
  }

  override get problemCount(): number {
    return this.notes.length + super.problemCount;
  }
}

/** The identity of a file on disk: a .zst is never appended to, only replaced (Codex compresses anew). */
function zstStamp(path: string): FileStamp {
  const st = statSync(path);
  return { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
}

/**
 * A `.jsonl.zst` rollout: read through its decompressed copy, named by its own path. It
 * reads on as a plain rollout does (the explorer keeps it open): the rest of a first part
 * comes from the copy; a .zst replaced on disk is stale, and the explorer reloads it.
 */
export class CodexZstSession implements SessionReader {
  readonly formatId = "codex";
  /** The .zst as it was when decompressed. */
  private readonly zst: FileStamp;
  constructor(
    readonly path: string,
    /** The decompressed copy, read as a plain rollout. */
    readonly file: CodexFileSession,
  ) {
    this.zst = zstStamp(path);
  }
  /** Decompressed bytes indexed so far, and the copy's stamp: what a first part's progress counts. */
  get size(): number {
    return this.file.size;
  }
  get stamp(): FileStamp {
    return this.file.stamp;
  }
  get threads(): number {
    return this.file.threads;
  }
  get workerFailure(): string | undefined {
    return this.file.workerFailure;
  }
  async refresh(opts: RefreshOptions = {}): Promise<{ added: number }> {
    const now = zstStamp(this.path);
    if (now.size !== this.zst.size || now.mtimeMs !== this.zst.mtimeMs || now.ino !== this.zst.ino) throw new StaleSessionError(this.path, "the .zst was replaced");
    return this.file.refresh(opts);
  }
  private get inner(): CodexFileSession {
    return this.file;
  }
  get format() {
    return this.inner.format;
  }
  get metas() {
    return this.inner.metas;
  }
  get table() {
    return this.inner.table;
  }
  get tree() {
    return this.inner.tree;
  }
  get problems() {
    return this.inner.problems;
  }
  get problemCount() {
    return this.inner.problemCount;
  }
  get complete() {
    return this.inner.complete;
  }
  get headerRecord() {
    return this.inner.headerRecord;
  }
  entryAt(i: number) {
    return this.inner.entryAt(i);
  }
  requireIndex(id: string) {
    const i = this.inner.tree.indexOf(id);
    if (i === undefined) throw new Error(`${this.path}: no entry with id ${id}`);
    return i;
  }
  meta(id: string) {
    return this.inner.meta(id);
  }
}

/** The line hooks a rollout was indexed with (undefined for a reader of another kind). */
function hooksOf(session: SessionReader): CodexIndexHooks | undefined {
  const file = session instanceof CodexZstSession ? session.file : session instanceof CodexFileSession ? session : undefined;
  return file?.hooks;
}

/** The model response entry i came from: its items and its usage record share it. */
export function codexResponseOf(session: SessionReader, i: number): string | undefined {
  return hooksOf(session)?.responseOf.get(i);
}

/** The context window the rollout recorded last at or before entry `leaf`. */
export function codexWindow(session: SessionReader, leaf: number): number | undefined {
  return hooksOf(session)?.windowAt(leaf);
}

/** Forks nested deeper than this are not followed (a cycle of ids in hostile files). */
const MAX_FORK_DEPTH = 32;

/** The homes a fork's parent is looked for in: the fork's own, then $CODEX_HOME or ~/.codex. */
export function parentHomes(path: string, env: NodeJS.ProcessEnv): string[] {
  const own = homeOf(path);
  const configured = env.CODEX_HOME || join(env.HOME || homedir(), ".codex");
  return [...new Set([own, configured].filter((h): h is string => !!h))];
}

/**
 * The part of its parent a fork resumes with (docs/codex-format.md section 6): the
 * parent's history over its lines with ordinal < history_base.end_ordinal_exclusive.
 * A parent that cannot be found or read is a problem named on the fork; its own part stays.
 */
async function forkBase(session: SessionReader, meta: Record<string, unknown>, notes: LineProblem[], depth: number, env: NodeJS.ProcessEnv): Promise<Partial<CodexFacts>> {
  const hb = asObj(meta.history_base);
  const parentId = str(hb?.thread_id) ?? (hb ? str(meta.forked_from_id) : undefined);
  if (!hb || !parentId) return {};
  const end = typeof hb.end_ordinal_exclusive === "number" ? hb.end_ordinal_exclusive : Number.POSITIVE_INFINITY;
  const say = (why: string) => notes.push({ kind: "unknown-parent", line: 1, message: `line 1: ${session.path} is a fork of thread ${parentId}: ${why}; only the fork's own part is shown` });
  if (depth >= MAX_FORK_DEPTH) {
    say(`forks nest deeper than ${MAX_FORK_DEPTH}, not followed`);
    return { parentId };
  }
  const parentPath = findRollout(parentHomes(session.path, env), parentId, session.path);
  if (!parentPath || parentPath === session.path) {
    say(`no rollout of that thread beside it or under ${parentHomes(session.path, env).join(" or ")}`);
    return { parentId };
  }
  let parent: SessionReader;
  try {
    parent = await loadCodexAt(parentPath, {}, depth + 1, env);
  } catch (err) {
    say(`its rollout ${parentPath} cannot be read (${(err as Error).message})`);
    return { parentId, parentPath };
  }
  // The parent's own lines before the cut, on its resumed path (its last line's branch).
  const t = parent.table;
  let leaf = -1;
  for (let i = 0; i < parent.metas.length; i++) {
    const id = t.idAt(i);
    const ord = id.startsWith("o") ? Number(id.slice(1)) : Number.NaN;
    if (!(ord < end)) break;
    leaf = i;
  }
  const own = leaf < 0 ? [] : parent.tree.path(leaf);
  const base = rebuildHistory(parent, own, codexFacts(parent).base);
  return { parentId, parentPath, base };
}

/**
 * A fork of an older build (forked_from_id, no history_base) holds copies of its parent's
 * lines (docs/codex-format.md section 6): they are its history as they stand, but their
 * usage is the parent's. The copies are known by their turn ids, which the parent has too.
 */
async function copiedTurns(session: SessionReader, file: CodexFileSession, meta: Record<string, unknown>, notes: LineProblem[], depth: number, env: NodeJS.ProcessEnv): Promise<CodexFacts["copied"] & { parentId: string; parentPath?: string } | undefined> {
  const parentId = str(meta.forked_from_id);
  if (!parentId || meta.history_base !== undefined) return undefined;
  const parentPath = depth < MAX_FORK_DEPTH ? findRollout(parentHomes(session.path, env), parentId, session.path) : undefined;
  const say = (why: string) => notes.push({ kind: "unknown-parent", line: 1, message: `line 1: ${session.path} is a fork of thread ${parentId} that copied its lines: ${why}; the copied lines' usage is counted as the fork's own` });
  if (!parentPath || parentPath === session.path) {
    say(`no rollout of that thread beside it or under ${parentHomes(session.path, env).join(" or ")}`);
    return { parentId, parentTurns: new Set(), turnOf: file.hooks.turnOf };
  }
  try {
    const parent = await loadCodexAt(parentPath, {}, depth + 1, env);
    const inner = parent instanceof CodexZstSession ? parent.file : (parent as CodexFileSession);
    return { parentId, parentPath, parentTurns: inner.hooks.turnOf.distinct(), turnOf: file.hooks.turnOf };
  } catch (err) {
    say(`its rollout ${parentPath} cannot be read (${(err as Error).message})`);
    return { parentId, parentPath, parentTurns: new Set(), turnOf: file.hooks.turnOf };
  }
}

async function loadCodexAt(path: string, opts: LoadOptions, depth: number, env: NodeJS.ProcessEnv): Promise<SessionReader> {
  let session: SessionReader;
  let file: CodexFileSession;
  if (path.endsWith(".zst")) {
    // Indexed as another thread decompresses it, or from the copy made before.
    const z = streamRollout(path, opts.signal);
    let d: Decompressed | undefined;
    try {
      if (!z.chunks) d = await z.copy;
      if (d?.bytes === 0) throw new Error(d.error ?? `${path}: the .zst file holds no data`);
      file = await CodexFileSession.open(d?.plain ?? z.plain, z.chunks ? { ...opts, stream: z.chunks } : opts);
      d = await z.copy;
    } catch (err) {
      const got = d ?? (await z.copy.catch(() => undefined));
      if (got?.bytes === 0) throw new Error(got.error ?? `${path}: the .zst file holds no data`);
      // Errors name the decompressed copy: the user knows the .zst.
      const copy = got?.plain ?? z.plain;
      throw new Error(copy ? (err as Error).message.split(copy).join(path) : (err as Error).message);
    }
    if (d.error) file.notes.push({ kind: "torn-line", line: file.metas.length ? file.metas[file.metas.length - 1].line : 1, message: d.error });
    session = new CodexZstSession(path, file);
  } else {
    file = await CodexFileSession.open(path, opts);
    session = file;
  }
  const meta = asObj(file.headerRecord?.payload) ?? {};
  const copy = await copiedTurns(session, file, meta, file.notes, depth, env);
  const fork = copy ?? (await forkBase(session, meta, file.notes, depth, env));
  const base = "base" in fork ? fork.base : undefined;
  facts.set(session, {
    meta,
    base: base ?? [],
    ...(fork.parentPath ? { parentPath: fork.parentPath } : {}),
    ...(fork.parentId ? { parentId: fork.parentId } : {}),
    ...(copy ? { copied: { parentTurns: copy.parentTurns, turnOf: copy.turnOf } } : {}),
  });
  return session;
}

/** Loads a Codex rollout, plain or .zst, and the part of its parent a fork starts from. */
export function loadCodex(path: string, opts: LoadOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<SessionReader> {
  return loadCodexAt(path, opts, 0, env);
}
