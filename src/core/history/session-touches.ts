import { isAbsolute, resolve } from "node:path";
import type { FileOpsEntry } from "../session/session-format";
import { TurnPrompts } from "../session/turn-prompts";
import type { SessionReader } from "../session/session-reader";
import { toolEdits, type ToolEdit } from "../session/tool-summary";
import type { FileOperation, FileTouch } from "./file-touch";
import type { TextAt, TextPlacer } from "./edit-texts";
import { patchEdits } from "./patch-edits";

/**
 * What a touch holds of its session beside the session's own facts (agent, path, title):
 * an edit's texts themselves, or their places in the session file (see edit-texts.ts).
 */
export type StoredTouch = Omit<FileTouch, "agent" | "sessionPath" | "sessionTitle" | "otherCheckout" | "textNote"> & { oldAt?: TextAt; newAt?: TextAt };

/**
 * Old or new text longer than this is left out of the index: the index is kept in a cache
 * file for every session, and blame matches lines, which a megabyte write rarely leaves intact.
 */
export const TEXT_CAP = 64 * 1024;

/** Paths made absolute lately, by the cwd they were made against: a session names the same files again and again. */
const resolved = new Map<string, Map<string, string>>();
let resolvedCount = 0;
/** Paths kept in `resolved` at most (it is emptied past this). */
const RESOLVED_CAP = 65_536;

/** A file path as the session named it, made absolute against the session's cwd. */
export function absoluteIn(path: string, cwd: string): string {
  // Without a cwd, a relative path is resolved against the process's, which may change: not kept.
  if (!cwd) return resolve(path);
  let paths = resolved.get(cwd);
  const known = paths?.get(path);
  if (known !== undefined) return known;
  const abs = isAbsolute(path) ? resolve(path) : resolve(cwd, path);
  if (++resolvedCount > RESOLVED_CAP) {
    resolved.clear();
    resolvedCount = 1;
    paths = undefined;
  }
  if (!paths) resolved.set(cwd, (paths = new Map()));
  paths.set(path, abs);
  return abs;
}

type Texts = { oldText?: string; newText?: string };

/** A text kept only under the cap (`lengthOf` a text: its own length but for a stand-in, FileOpsEntry.cutAt). */
function capped(t: Texts, lengthOf: (text: string) => number): Texts {
  const out: Texts = {};
  if (t.oldText !== undefined && lengthOf(t.oldText) <= TEXT_CAP) out.oldText = t.oldText;
  if (t.newText !== undefined && lengthOf(t.newText) <= TEXT_CAP) out.newText = t.newText;
  return out;
}

const ownLength = (text: string) => text.length;

const WRITE_KEYS = ["content", "file_text", "text", "contents"];

/** The text a write-like call puts in its file, when its input holds it. */
function writtenText(input: unknown): string | undefined {
  if (!input || typeof input !== "object") return undefined;
  const o = input as Record<string, unknown>;
  for (const k of WRITE_KEYS) if (typeof o[k] === "string") return o[k] as string;
  return undefined;
}

/** A call's input, with the edits the call makes (toolEdits, else patchEdits), worked out once for all its entry's files. */
type ReadCall = { input: unknown; edits: ToolEdit[] | undefined };

function readCalls(calls: ReadonlyArray<{ name: unknown; input: unknown }>): ReadCall[] {
  return calls.map(({ name, input }) => ({ input, edits: toolEdits(name, input) ?? patchEdits(name, input) }));
}

/**
 * The texts of the calls of an entry that wrote or edited `abs` (`op`), one item per edit
 * (a multi-edit call makes several), through the neutral detail view of the entry.
 */
function textsOf(calls: readonly ReadCall[], abs: string, cwd: string, op: FileOperation): Texts[] {
  const out: Texts[] = [];
  for (const { input, edits } of calls) {
    if (edits) {
      for (const e of edits) if (e.path !== undefined && absoluteIn(e.path, cwd) === abs) out.push(e);
      continue;
    }
    if (op !== "write" || !input || typeof input !== "object") continue;
    const o = input as Record<string, unknown>;
    const p = typeof o.file_path === "string" ? o.file_path : typeof o.path === "string" ? o.path : undefined;
    const text = writtenText(input);
    if (p !== undefined && text !== undefined && absoluteIn(p, cwd) === abs) out.push({ newText: text });
  }
  return out;
}

/** The tool calls of entry i, from the format, else through the neutral detail view of the entry (built once per entry: it is not cheap). */
function callsOf(session: SessionReader, i: number): Array<{ name: unknown; input: unknown }> {
  const f = session.format;
  const own = f.toolCalls?.(session, i);
  if (own) return own;
  if (!f.details) return [];
  const out: Array<{ name: unknown; input: unknown }> = [];
  for (const b of f.details(session, i).blocks) if (b.call) out.push({ name: b.call.name, input: b.call.input });
  return out;
}

/** The prompt of an entry's turn: its nearest user ancestor's words (TurnPrompts over the session's tree). */
function promptsOf(session: SessionReader): TurnPrompts {
  const prompt = (k: number): string | undefined => {
    const meta = session.metas[k];
    // An assistant's entry is never the prompt; describing it (a tool call's summary diffs its edit) costs.
    if (meta.role === "assistant" || !meta.preview.trim()) return undefined;
    return session.format.describe(session, k).kind === "user" ? meta.preview : undefined;
  };
  return new TurnPrompts((k) => session.tree.parent[k], prompt, () => session.metas.length);
}

/**
 * What one entry with file activity gives the history, however it was read; `lengthOf` a
 * text of its calls where one may be a stand-in (FileOpsEntry.cutAt).
 */
export type TouchingEntry = Omit<FileOpsEntry, "line" | "offset" | "calls" | "cutAt"> & { calls: () => FileOpsEntry["calls"]; lengthOf?: (text: string) => number };

const NO_TEXTS: Texts[] = [];

/** What a touch takes of its entry. */
export type TouchFacts = { id: string; timestamp?: string; prompt?: string };

/** An edit's texts as a touch keeps them: themselves, or their places (TextPlacer). */
export type PlacedTexts = ReturnType<TextPlacer>;

/** Where an entry's touches go, one by one: a list (TouchList), or a session's cache row as it is written (history-cache.ts, RowWriter). */
export interface TouchSink {
  touch(e: TouchFacts, operation: FileOperation, absolutePath: string, texts: PlacedTexts | undefined): void;
}

/** Touches made into objects, in order. */
export class TouchList implements TouchSink {
  readonly list: StoredTouch[] = [];

  touch(e: TouchFacts, operation: FileOperation, absolutePath: string, texts: PlacedTexts | undefined): void {
    // Built field by field: spreading the texts into a copy of the touch cost more than the rest of it.
    const t: StoredTouch = { entryId: e.id, operation, absolutePath };
    if (e.timestamp) t.timestamp = e.timestamp;
    if (e.prompt) t.prompt = e.prompt;
    if (texts) {
      if (texts.oldText !== undefined) t.oldText = texts.oldText;
      if (texts.oldAt) t.oldAt = texts.oldAt;
      if (texts.newText !== undefined) t.newText = texts.newText;
      if (texts.newAt) t.newAt = texts.newAt;
    }
    this.list.push(t);
  }
}

/** The touches of one entry's operation `op` on `abs` with these texts (none: one touch without), handed to `out`. */
function opTouches(out: TouchSink, e: TouchingEntry, op: FileOperation, abs: string, texts: readonly Texts[], place: (t: Texts) => PlacedTexts): void {
  if (!texts.length) out.touch(e, op, abs, undefined);
  for (const t of texts) out.touch(e, op, abs, place(capped(t, e.lengthOf ?? ownLength)));
}

/**
 * The touches of one entry, handed to `out`: one per file and operation, strongest first
 * (an entry that read and edited a file did both; an edit call that made several edits,
 * one per edit), paths resolved against the session's cwd, the texts kept as `place` says.
 */
export function entryTouches(out: TouchSink, e: TouchingEntry, cwd: string, place: (t: Texts) => PlacedTexts): void {
  let calls: ReadCall[] | undefined;
  for (const a of e.activity) {
    const abs = absoluteIn(a.path, cwd);
    if (a.edited) opTouches(out, e, "edit", abs, textsOf((calls ??= readCalls(e.calls())), abs, cwd, "edit"), place);
    if (a.written) opTouches(out, e, "write", abs, textsOf((calls ??= readCalls(e.calls())), abs, cwd, "write"), place);
    if (a.read) opTouches(out, e, "read", abs, NO_TEXTS, place);
  }
}

/**
 * Every entry of a session that read, wrote or edited a file, from the file operations its
 * format extracts (`files`), paths resolved against the session's cwd. A format that
 * records none gives nothing. Only entries with file operations are read in full. An edit's
 * texts are kept as `place` says (as they are, by default).
 */
export function sessionTouches(session: SessionReader, cwd: string, place: TextPlacer = (_i, t) => t): StoredTouch[] {
  const out = new TouchList();
  sessionTouchesInto(out, session, cwd, place);
  return out.list;
}

/** sessionTouches, each touch handed to `out` as it is found. */
export function sessionTouchesInto(out: TouchSink, session: SessionReader, cwd: string, place: TextPlacer): void {
  const f = session.format;
  if (!f.files) return;
  const n = session.metas.length;
  const prompts = promptsOf(session);
  for (let i = 0; i < n; i++) {
    const activity = f.files(session, [i]);
    if (!activity.length) continue;
    // The entry's facts once, not per file and operation (its time is formatted on each ask).
    const meta = session.metas[i];
    entryTouches(out, { id: meta.id, timestamp: meta.timestamp, prompt: prompts.of(i), activity, calls: () => callsOf(session, i) }, cwd, (t) => place(i, t));
  }
}
