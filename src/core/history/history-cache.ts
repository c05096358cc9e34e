// The history index's cache file: each session's touches by its file's stamp, written
// compactly (a thousand sessions make over half a million touches): each session's paths
// and prompts once in a table, the touches grouped by entry, and an edit's texts as their
// places in the session file (edit-texts.ts), so the file stays tens of MB, not hundreds.

import { constants } from "node:buffer";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { NewFileWriter } from "../store/atomic-file";
import { readTextFile } from "../util/safe-open";
import type { TextAt } from "./edit-texts";
import type { FileOperation } from "./file-touch";
import type { PlacedTexts, StoredTouch, TouchFacts, TouchSink } from "./session-touches";

/**
 * One session's part of the index, remembered by its file's stamp. Its touches are kept as
 * the cache file writes them (one JSON text) and made into objects at the first lookup that
 * needs them (recordTouches): a cold index of 1,000 sessions held 600,000 touch objects the
 * collector went over again and again, and a one-off `ase history` from the cache parsed
 * and made every one of them to answer one file.
 */
export interface SessionRecord {
  agent: string;
  size: number;
  mtimeMs: number;
  cwd: string;
  title: string;
  /** The files its touches name, each once (the index finds a file's sessions by these). */
  paths: string[];
  /** Its touches as the JSON text of their tables (RowWriter), made where the session was read. */
  rows: string;
  /** The touches, once made (recordTouches). */
  touches?: StoredTouch[];
}

/**
 * 2: compact rows, edits' texts as places in their session files; 3: the places' digests of
 * the bytes (bytesDigest); 4: lines, two a session (its facts, then its rows as they are);
 * 5: the digests lane-digest.ts's numbers; 6: an entry's touches flat in its row.
 */
const CACHE_VERSION = 6;

const OPERATIONS: readonly FileOperation[] = ["read", "write", "edit"];
/** Each operation's number in a row: its place in OPERATIONS. */
const OPERATION_CODES = Object.fromEntries(OPERATIONS.map((o, k) => [o, k])) as Record<FileOperation, number>;

/**
 * One entry's touches: [entry id, time ("" for none), prompt (index in prompts, -1 for none)],
 * then each touch flat (no array of its own: a cold index makes 600,000): its operation (in
 * OPERATIONS), its path (index in paths), then its old and its new text, each -1 for none,
 * the text itself, or its place as three numbers: at, bytes, digest (edit-texts.ts's TextAt).
 */
type EntryRow = [string, string, number, ...Array<number | string>];

/** A session's touches in a cache row: its paths and prompts once each, its touches by entry. */
export interface RowTables {
  paths: string[];
  prompts: string[];
  entries: EntryRow[];
}

/** A session's first line in the cache file: its facts and the files it touched (its rows are the next line). */
interface RecordFacts {
  path: string;
  agent: string;
  size: number;
  mtimeMs: number;
  cwd: string;
  title: string;
  paths: string[];
}

/** The index's cache file in the product's cache folder. */
export function historyCacheFile(cacheDir: string): string {
  return join(cacheDir, "history-cache.json");
}

/** A table of strings, each kept once, named by its position. */
class Table {
  readonly list: string[] = [];
  private readonly at = new Map<string, number>();
  of(s: string): number {
    let k = this.at.get(s);
    if (k === undefined) this.at.set(s, (k = this.list.push(s) - 1));
    return k;
  }
}

const NO_TEXT = -1;

/** A touch's text in its entry's row: its place, else the text, else NO_TEXT. */
function putCell(row: EntryRow, text: string | undefined, at: TextAt | undefined): void {
  if (at) row.push(at.at, at.bytes, at.digest);
  else row.push(text ?? NO_TEXT);
}

/**
 * A session's touches made into its cache row as they come (touch, in the order read), then
 * its JSON text (text): each touch written flat into its entry's row, so no touch object
 * (nor its texts' places) lives until the session's end.
 */
export class RowWriter implements TouchSink {
  private readonly paths = new Table();
  private readonly prompts = new Table();
  private readonly entries: EntryRow[] = [];
  private last: EntryRow | undefined;

  /** One touch of entry `e`, after those of entries before it (touches of one entry come together). */
  touch(e: TouchFacts, operation: FileOperation, absolutePath: string, texts: PlacedTexts | undefined): void {
    const prompt = e.prompt ? this.prompts.of(e.prompt) : -1;
    const time = e.timestamp || "";
    let last = this.last;
    if (!last || last[0] !== e.id || last[1] !== time || last[2] !== prompt) this.entries.push((this.last = last = [e.id, time, prompt]));
    last.push(OPERATION_CODES[operation], this.paths.of(absolutePath));
    putCell(last, texts?.oldText, texts?.oldAt);
    putCell(last, texts?.newText, texts?.newAt);
  }

  /** The files the touches name, each once. */
  get pathList(): string[] {
    return this.paths.list;
  }

  /** The row's JSON text: its tables ({ paths, prompts, entries }), one JSON.stringify (one a row cost twice as much). */
  text(): string {
    const tables: RowTables = { paths: this.paths.list, prompts: this.prompts.list, entries: this.entries };
    return JSON.stringify(tables);
  }
}

/** A record's two lines in the cache file: its facts, then its rows (JSON text holds no line break). */
function recordLines(path: string, rec: SessionRecord): string {
  const facts: RecordFacts = { path, agent: rec.agent, size: rec.size, mtimeMs: rec.mtimeMs, cwd: rec.cwd, title: rec.title, paths: rec.paths };
  return `${JSON.stringify(facts)}\n${rec.rows}\n`;
}

const isIndex = (v: unknown, below: number): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) < below;

/**
 * A touch's text in `row` from `j` on, put in `t` as written (putCell): the position after
 * it, or -1 for a cell not as written.
 */
function takeCell(row: EntryRow, j: number, t: StoredTouch, text: "oldText" | "newText", place: "oldAt" | "newAt"): number {
  const v = row[j];
  if (v === NO_TEXT) return j + 1;
  if (typeof v === "string") {
    t[text] = v;
    return j + 1;
  }
  const [bytes, digest] = [row[j + 1], row[j + 2]];
  if (!Number.isSafeInteger(v) || (v as number) < 0 || !Number.isSafeInteger(bytes) || (bytes as number) < 0 || !isIndex(digest, 2 ** 32)) return -1;
  t[place] = { at: v as number, bytes: bytes as number, digest };
  return j + 3;
}

/** The touches of a row's tables, or undefined for tables not as written. */
function decode(row: RowTables): StoredTouch[] | undefined {
  const { paths, prompts, entries } = row;
  if (!Array.isArray(paths) || !Array.isArray(prompts) || !Array.isArray(entries)) return undefined;
  if (!paths.every((p) => typeof p === "string") || !prompts.every((p) => typeof p === "string")) return undefined;
  const touches: StoredTouch[] = [];
  for (const e of entries) {
    if (!Array.isArray(e) || typeof e[0] !== "string" || typeof e[1] !== "string" || !Number.isInteger(e[2]) || e[2] < -1 || e[2] >= prompts.length) return undefined;
    const [entryId, time, prompt] = e;
    for (let j = 3; j < e.length; ) {
      const [op, path] = [e[j], e[j + 1]];
      if (!isIndex(op, OPERATIONS.length) || !isIndex(path, paths.length)) return undefined;
      const t: StoredTouch = { entryId, operation: OPERATIONS[op], absolutePath: paths[path] };
      if (time) t.timestamp = time;
      if (prompt >= 0) t.prompt = prompts[prompt];
      j = takeCell(e, j + 2, t, "oldText", "oldAt");
      if (j >= 0) j = takeCell(e, j, t, "newText", "newAt");
      if (j < 0) return undefined;
      touches.push(t);
    }
  }
  return touches;
}

/** The touches of a row's JSON text (RowWriter.text), or undefined for text not as written. */
function touchesOfRows(rows: string): StoredTouch[] | undefined {
  let tables: RowTables | undefined;
  try {
    tables = JSON.parse(rows) as RowTables;
  } catch {
    return undefined;
  }
  return tables && typeof tables === "object" ? decode(tables) : undefined;
}

/** The touches of rows RowWriter wrote (a read's, SessionRead.touches). */
export function rowsTouches(rows: string): StoredTouch[] {
  const touches = touchesOfRows(rows);
  if (!touches) throw new Error("history rows not as written");
  return touches;
}

/**
 * A session's touches, made from its rows at the first ask and kept. Rows not as written
 * (a damaged cache file) give none, and the record's stamp is spoilt so that the next
 * refresh reads the session again.
 */
export function recordTouches(rec: SessionRecord): StoredTouch[] {
  if (rec.touches) return rec.touches;
  const touches = touchesOfRows(rec.rows);
  if (!touches) rec.size = -1;
  rec.touches = touches ?? [];
  return rec.touches;
}

/** Whether a facts line read back is as written. */
function isFacts(f: RecordFacts): boolean {
  return (
    !!f && typeof f === "object" && typeof f.path === "string" && typeof f.agent === "string" && typeof f.size === "number" && typeof f.mtimeMs === "number" &&
    typeof f.cwd === "string" && typeof f.title === "string" && Array.isArray(f.paths) && f.paths.every((p) => typeof p === "string")
  );
}

/**
 * The records of the cache file; none when it is missing, of another version or its facts
 * are not as written. Each session's rows are kept as their line's text, parsed at the
 * first lookup that needs them (recordTouches).
 */
export function readCache(file: string): Map<string, SessionRecord> {
  try {
    const lines = readTextFile(file).split("\n");
    const head = JSON.parse(lines[0]) as { version?: unknown };
    if (head?.version !== CACHE_VERSION) return new Map();
    const records = new Map<string, SessionRecord>();
    // A whole file ends with a line break: its last part is empty, every record has its two lines.
    if (lines.length % 2 !== 0 || lines[lines.length - 1] !== "") return new Map();
    for (let k = 1; k + 1 < lines.length; k += 2) {
      const f = JSON.parse(lines[k]) as RecordFacts;
      if (!isFacts(f)) return new Map();
      records.set(f.path, { agent: f.agent, size: f.size, mtimeMs: f.mtimeMs, cwd: f.cwd, title: f.title, paths: f.paths, rows: lines[k + 1] });
    }
    return records;
  } catch {
    // Missing or unreadable cache: every session is read again.
    return new Map();
  }
}

/**
 * The cache file's bytes, a record at a time; undefined past the longest string readCache
 * could read back.
 */
export function cacheBytes(records: ReadonlyMap<string, SessionRecord>): Buffer | undefined {
  const parts: Buffer[] = [Buffer.from(HEAD)];
  let bytes = parts[0].length;
  for (const [path, rec] of records) {
    const part = Buffer.from(recordLines(path, rec));
    bytes += part.length;
    if (bytes > constants.MAX_STRING_LENGTH) return undefined;
    parts.push(part);
  }
  return Buffer.concat(parts);
}

const HEAD = `{"version":${CACHE_VERSION}}\n`;

/**
 * The cache file written as a refresh reads: each session's record the moment it is read
 * (add; a cold index's 60 MB are then written while the other threads still read, not all
 * at its end), the records it did not read at the end (finish), the file put in place
 * whole. The cache is an optimisation: a failure of its own (a full disk, no folder, a file
 * past the longest string readCache could read back) leaves no cache file, never fails
 * the refresh.
 */
export class CacheWriter {
  private file: NewFileWriter | undefined;
  private readonly written = new Set<string>();

  constructor(target: string) {
    try {
      mkdirSync(dirname(target), { recursive: true });
      this.file = new NewFileWriter(target);
      this.put(HEAD);
    } catch {
      this.file = undefined;
    }
  }

  private put(text: string): void {
    if (!this.file) return;
    if (!this.file.put(text) || this.file.bytes > constants.MAX_STRING_LENGTH) this.drop();
  }

  /** A session's record, written now. */
  add(path: string, rec: SessionRecord): void {
    if (!this.file || this.written.has(path)) return;
    this.written.add(path);
    this.put(recordLines(path, rec));
  }

  /** The records not written yet, then the file put in place (a record added that is not among them, none in a refresh, would be dropped by the next refresh's listing). */
  finish(records: ReadonlyMap<string, SessionRecord>): void {
    for (const [path, rec] of records) this.add(path, rec);
    try {
      this.file?.finish({ replace: true });
    } catch {
      // No cache file: every session is read again next time.
    }
    this.file = undefined;
  }

  /** Nothing is written. */
  drop(): void {
    this.file?.drop();
    this.file = undefined;
  }
}

export function saveCache(file: string, records: ReadonlyMap<string, SessionRecord>): void {
  new CacheWriter(file).finish(records);
}
