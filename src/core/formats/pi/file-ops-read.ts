// The per-file history's own read of a pi file (SessionFormat.fileOps): the entries that
// called read, write or edit, with their time and their turn's prompt, and the session's
// name, in one pass over the file's bytes and without the session's index. It gives what
// a whole load (skimmed the way the history loads, IndexHooks.skim) gives through `files`,
// `toolCalls`, the tree and the metas; a file it does not take as it stands (see `Bail`)
// is left to that load. test/core/history-quick-read.test.ts and history-read-same.test.ts
// hold the two to the same answer.

import { FileTally } from "../../session/file-tally";
import type { FileOpsEntry } from "../../session/session-format";
import { TurnPrompts } from "../../session/turn-prompts";
import { ByteStrings } from "../../store/byte-strings";
import { HEAD_CAP } from "../../store/head-lines";
import { DEEP_LINE_BYTES } from "../../store/index-builder";
import { isBlank } from "../../store/line-scanner";
import { cutNumber, LineCutter } from "../../store/cut-parse";
import { LineWalker, valueAt } from "../../store/json-walk";
import { plainItems } from "../../store/plain-items";
import { closesObject, leadingMembers } from "../../store/line-skim";
import { isoTextOf } from "../../util/iso-time";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "../../util/json-depth";
import { FileTooLargeError, openRegularAsync, readBytesFile, readBytesInto } from "../../util/safe-open";
import { tallyBlocks } from "./file-ops";
import { EntryIds, type IdKey, keyOf } from "./entry-ids";
import { isPiHeader, piSkims, piSkimsLead, v1EntryId } from "./index-hooks";
import { entryPreviewCodes } from "./model/preview";
import { AREA_BYTES, KIND_ROLES, LEAD_KINDS, lineLeads, NO_IDS, REST_KEYS, SCAN_CAP, SLACK, type LineLeads } from "./line-leads";
import { bytesAt, emptyLead, HEX_ID, readPlainLead, type PlainLead } from "./plain-lead";

/**
 * Bytes read at a time from a file larger than SMALL_FILE; a line longer than a chunk's room
 * gets a buffer of its own (readChunked). Each read is awaited: a few milliseconds of lines
 * apart, the thread's other work (the reader threads' answers to hand on) is not held up by
 * a large file. The next chunk is read while a chunk's lines are (the thread waited on each
 * read: 7% of its time).
 */
const CHUNK = 2 ** 20;

/** A line this read does not take as a whole load would (the load reports or refuses it): the file is left to that load. */
class Bail extends Error {}

/** Whether UTF-16 codes hold a lone surrogate (which the index's preview column stores as bytes that read back otherwise). */
function hasLoneSurrogate(codes: Uint16Array): boolean {
  for (let k = 0; k < codes.length; k++) {
    const c = codes[k];
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && k + 1 < codes.length && codes[k + 1] >= 0xdc00 && codes[k + 1] <= 0xdfff) k++;
    else return true;
  }
  return false;
}

/** A user entry's preview as the index's metas give it back (EntryTable keeps it as bytes in a ByteStrings column). */
function storedPreview(e: Record<string, unknown>): string {
  const codes = entryPreviewCodes(e);
  if (!hasLoneSurrogate(codes)) return String.fromCharCode.apply(null, codes as unknown as number[]);
  const column = new ByteStrings();
  column.setCodes(0, codes);
  return column.get(0);
}

/**
 * What an assistant's line holds as text the history never reads as such: thinking, its
 * answer, and the texts of pi's edit and write calls (their places are what it keeps).
 */
const CUT_KEYS = ["thinking", "thinkingSignature", "text", "oldText", "newText", "content"];

/** Texts shorter than this (quotes included) are parsed: cutting them saves nothing. */
export const CUT_BYTES = 64;

/** This thread's cutter: its buffer is reused line after line. */
const cutter = new LineCutter(CUT_KEYS, CUT_BYTES);

/**
 * An assistant's line as the walk reads it (json-walk.ts): the entry's own members and its
 * content's blocks (its type and its message's role are the lead's: PiFileOpsRead.walked).
 */
const TOP = ["id", "parentId", "timestamp"] as const;
const [ID, PARENT, TIME] = [0, 1, 2];
const walker = new LineWalker({ top: TOP, outer: "message", inner: [], list: "content", itemKey: "type", cutKeys: CUT_KEYS, cutBytes: CUT_BYTES, limit: MAX_JSON_DEPTH, restKeys: REST_KEYS });
const TOOL_CALL = Buffer.from('"toolCall"');

/** Whether buf[from, to) is a string without an escape (which could spell "toolCall"). */
function isPlainString(buf: Buffer, from: number, to: number): boolean {
  if (buf[from] !== 0x22) return false;
  for (let i = from + 1; i < to; i++) if (buf[i] === 0x5c) return false;
  return true;
}

/** mayBeCalls' answer, written again by each call (it is read before the next; a list emptied lets its storage go). */
const callPlaces: number[] = [];

/** The places of the blocks that may be tool calls: all but those whose type is plainly another (a thought, a text). */
function mayBeCalls(buf: Buffer, items: readonly number[], types: readonly number[]): number[] {
  const out = callPlaces;
  let n = 0;
  for (let j = 0; j < items.length; j += 2) {
    const from = types[j];
    const to = types[j + 1];
    if (from >= 0 && !holds(buf, from, to, TOOL_CALL) && isPlainString(buf, from, to)) continue;
    out[n++] = items[j];
    out[n++] = items[j + 1];
  }
  out.length = n;
  return out;
}

/** Whether buf[from, to) holds exactly `lit` (bytesAt: Buffer's compare allocated, checking its arguments). */
function holds(buf: Buffer, from: number, to: number, lit: Buffer): boolean {
  return from >= 0 && to - from === lit.length && bytesAt(buf, from, lit);
}

/**
 * FileOpsEntry.cutAt of a line (from `start` of the buffer) with these cuts: made out here, so
 * that no line's read holds a closure's context for it.
 */
function cutsIn(cuts: readonly number[], start: number): (text: string) => [number, number] | undefined {
  return (text) => {
    const k = cutNumber(text, cuts.length / 2);
    return k < 0 ? undefined : [cuts[2 * k] - start, cuts[2 * k + 1] - start];
  };
}

function isAssistantMessage(v: unknown): boolean {
  const e = v as { type?: unknown; message?: { role?: unknown } } | null;
  return !!e && typeof e === "object" && e.type === "message" && !!e.message && typeof e.message === "object" && e.message.role === "assistant";
}

/** One pass over a pi file's lines: the tree's parents, the prompts, and the entries with file operations handed on. */
class PiFileOpsRead {
  private version = 0;
  private headerSeen = false;
  private count = 0;
  private parents = new Int32Array(4096);
  private readonly byId = new EntryIds();
  /** The id of the last entry. */
  private lastId: IdKey | undefined;
  /** Parent ids not yet in the file where they were named: a later entry with one of them would make the tree differ (read whole instead). */
  private readonly unknownParents: IdKey[] = [];
  private readonly userWords = new Map<number, string>();
  private readonly prompts = new TurnPrompts(
    (k) => this.parents[k],
    (k) => this.userWords.get(k),
    () => this.count,
  );
  private readonly lead: PlainLead = emptyLead();
  name: string | undefined;

  constructor(private readonly onEntry: (e: FileOpsEntry) => void) {}

  /** One line, buf[start, end), at `offset` of the file. */
  line(buf: Buffer, start: number, end: number, offset: number, lineNo: number, terminated: boolean): void {
    if (isBlank(buf, start, end)) return;
    if (!this.headerSeen) return this.header(buf, start, end);
    const lead = this.lead;
    if (!readPlainLead(buf, start, end, lead) && !this.slowLead(buf, start, end)) lead.type = undefined;
    // The history's load skims the same lines (IndexHooks.skim, skimPi): their lead is all it reads of them.
    if (terminated && piSkims(lead.type, lead.role, lead.id, lead.hasParentId, this.version, buf, start, end) && closesObject(buf, start, end)) {
      this.add(lead.idKey >= 0 ? lead.idKey : lead.id, lead.parentKey >= 0 ? lead.parentKey : lead.parentId);
      return;
    }
    this.whole(buf, start, end, offset, lineNo, lead.type === "message" && lead.role === "assistant");
  }

  /**
   * A whole line whose lead line-leads.ts read (`kind`, not OTHER; pi's `id` and `parent` as
   * numbers), as line() reads it: the lead readPlainLead gives, and piSkims' answer for it
   * (piSkimsLead, the scan having found the marker).
   */
  leadRead(buf: Buffer, start: number, end: number, offset: number, lineNo: number, kind: number, id: number, parent: number, leads: LineLeads, leadEnd: number): void {
    if (!this.headerSeen) return this.line(buf, start, end, offset, lineNo, true);
    const lead = this.lead;
    const ids = (kind & NO_IDS) === 0;
    kind &= ~NO_IDS;
    // A prompt of one text, as pi writes one: its text read alone (the line is the JSON it would parse to).
    const text = kind === LEAD_KINDS.USER ? leads.promptText(buf, leadEnd, end) : undefined;
    if (text !== undefined) {
      const i = this.add(ids ? id : undefined, ids ? parent : undefined);
      if (i >= 0) this.userWords.set(i, storedPreview({ type: "message", message: { role: "user", content: [{ type: "text", text }] } }));
      return;
    }
    const role = KIND_ROLES[kind];
    if (piSkimsLead("message", role, ids ? HEX_ID : undefined, ids, this.version, kind === LEAD_KINDS.ASSISTANT_MARKED) && closesObject(buf, start, end)) {
      this.add(ids ? id : undefined, ids ? parent : undefined);
      return;
    }
    // The lead, for the line's whole read (an assistant's walk takes its parent from there).
    lead.type = "message";
    lead.id = lead.parentId = ids ? HEX_ID : undefined;
    lead.idKey = ids ? id : -1;
    lead.parentKey = ids ? parent : -1;
    lead.hasParentId = ids;
    lead.role = role;
    this.whole(buf, start, end, offset, lineNo, kind === LEAD_KINDS.ASSISTANT || kind === LEAD_KINDS.ASSISTANT_MARKED);
  }

  /** The lead as leadingMembers reads it, into this.lead: false when it gives none. */
  private slowLead(buf: Buffer, start: number, end: number): boolean {
    const got = leadingMembers(buf, start, end);
    if (!got) return false;
    const lead = this.lead;
    const m = got.message;
    lead.type = got.type as PlainLead["type"];
    lead.role = (m && typeof m === "object" ? (m as { role?: unknown }).role : undefined) as PlainLead["role"];
    lead.id = got.id as PlainLead["id"];
    lead.hasParentId = "parentId" in got;
    lead.parentId = got.parentId as PlainLead["parentId"];
    lead.idKey = lead.parentKey = -1;
    return true;
  }

  private header(buf: Buffer, start: number, end: number): void {
    // The load's head read refuses a first line past its cap; this read leaves such a file to it.
    if (end - start >= HEAD_CAP / 16) throw new Bail();
    let obj: unknown;
    try {
      obj = JSON.parse(buf.toString("utf8", start, end));
    } catch {
      throw new Bail();
    }
    if (!isPiHeader(obj)) throw new Bail();
    this.version = typeof obj.version === "number" ? obj.version : 1;
    this.headerSeen = true;
  }

  /**
   * An entry; its position. `id` and `parentId` as identify() takes them from the line
   * (a string id as its key, see entry-ids.ts; version 1: ids from line numbers, each
   * entry's parent the one before).
   */
  private add(id: unknown, parentId: unknown): number {
    let parent = -1;
    if (this.version < 2) parent = this.count - 1;
    else {
      // identify() skips an entry without an id; the tree keeps the last of two with one id (read whole instead).
      const own = typeof id === "number" ? id : typeof id === "string" && id ? keyOf(id) : undefined;
      if (own === undefined) return -1;
      const up = typeof parentId === "number" ? parentId : typeof parentId === "string" ? keyOf(parentId) : undefined;
      if (up !== undefined && up !== own) {
        // Most entries follow the one before.
        const p = up === this.lastId ? this.count - 1 : this.byId.get(up);
        if (p === undefined) this.unknownParents.push(up);
        else parent = p;
      }
      if (!this.byId.add(own, this.count)) throw new Bail();
      this.lastId = own;
    }
    if (this.count === this.parents.length) {
      const grown = new Int32Array(this.parents.length * 2);
      grown.set(this.parents);
      this.parents = grown;
    }
    this.parents[this.count] = parent;
    return this.count++;
  }

  /**
   * A line the load parses whole: a prompt, a call of a file tool, a name, or any line not
   * skimmed. An assistant's (by its lead) is walked, else parsed with its texts cut out (CUT_KEYS).
   */
  private whole(buf: Buffer, start: number, end: number, offset: number, lineNo: number, assistant: boolean): void {
    if (assistant && this.walked(buf, start, end, offset, lineNo)) return;
    // Its text (latin1, a byte a character) serves the cut parse.
    const text = assistant ? buf.toString("latin1", start, end) : undefined;
    const deep = end - start >= DEEP_LINE_BYTES;
    let obj: unknown;
    let cuts: number[] = [];
    try {
      if (text !== undefined) {
        const got = cutter.parse(buf, start, end, deep, text);
        if (!got) throw new Bail();
        ({ value: obj, cuts } = got);
        // Not an assistant's message as parsed (a member repeated after the lead): its texts are read after all.
        if (cuts.length && !isAssistantMessage(obj)) {
          obj = JSON.parse(buf.toString("utf8", start, end));
          cuts = [];
        }
      } else {
        if (deep && jsonDeeperThan(buf, start, end)) throw new Bail();
        obj = JSON.parse(buf.toString("utf8", start, end));
      }
    } catch (err) {
      if (err instanceof SyntaxError) throw new Bail();
      throw err;
    }
    // Not an object, or the header again: the load reports or passes it, no entry.
    if (!obj || typeof obj !== "object" || Array.isArray(obj)) return;
    const e = obj as Record<string, unknown>;
    if (e.type === "session") return;
    const i = this.add(e.id, e.parentId);
    if (i < 0) return;
    if (e.type === "session_info") {
      if (typeof e.name === "string" && e.name.trim()) this.name = e.name.trim();
      return;
    }
    if (e.type !== "message") return;
    const m = e.message;
    const role = m && typeof m === "object" ? (m as { role?: unknown }).role : undefined;
    // Version 2's hookMessage (v3's custom) is neither a prompt nor a call.
    if (role === "user") {
      this.userWords.set(i, storedPreview(e));
      return;
    }
    if (role !== "assistant") return;
    // The id the load gives the entry (add() took it: a string, but in version 1).
    const id = this.version < 2 ? v1EntryId(lineNo) : (e.id as string);
    this.assistant(i, id, typeof e.timestamp === "string" ? e.timestamp : "", (m as { content?: unknown }).content, buf, start, end, offset, cuts);
  }

  /**
   * An assistant's line read by a walk (json-walk.ts) instead of a parse: its members checked
   * where they are, only its content's blocks read (their long texts cut out: CUT_KEYS), from
   * their bytes where pi wrote them plainly (plain-items.ts), else parsed. False when the walk
   * does not take the line (it is read as before).
   */
  private walked(buf: Buffer, start: number, end: number, offset: number, lineNo: number): boolean {
    // A line in the line scan's area: the walk stops at its content's end where the rest is as pi writes it (line-leads.ts, REST), and scans its strings there.
    const leads = lineLeads();
    const inArea = leads?.holds(buf);
    if (!walker.walk(buf, start, end, leads?.rest, inArea ? leads?.strings : undefined)) return false;
    // Its lead said a message of the assistant's (why it is walked), and the walk took each of
    // its members and its message's once: their first values, which the lead read, are their only ones.
    const { top, cuts } = walker.walked;
    const lead = this.lead;
    const items = mayBeCalls(buf, walker.walked.items, walker.walked.itemKeys);
    const id = top[2 * ID] < 0 ? undefined : valueAt(buf, top[2 * ID], top[2 * ID + 1]);
    // A parent of 8 hex digits, as the lead read it: its key (entry-ids.ts), no string made.
    const parentId = lead.parentKey >= 0 ? lead.parentKey : top[2 * PARENT] < 0 ? undefined : valueAt(buf, top[2 * PARENT], top[2 * PARENT + 1]);
    // A key of another kind than a string (entry-ids.ts takes numbers for keys): read as before.
    if (typeof id === "number" || (typeof parentId === "number" && lead.parentKey < 0)) return false;
    const content = items.length ? (plainItems(buf, items, cuts) ?? cutter.parseItems(buf, start, end, buf.toString("latin1", start, end), items, cuts)) : [];
    if (!content) return false;
    const i = this.add(id, parentId);
    if (i < 0) return true;
    const t = top[2 * TIME] < 0 ? undefined : valueAt(buf, top[2 * TIME], top[2 * TIME + 1]);
    this.assistant(i, this.version < 2 ? v1EntryId(lineNo) : (id as string), typeof t === "string" ? t : "", content, buf, start, end, offset, cuts);
    return true;
  }

  /** An assistant's entry (at i, its id as the load gives it) with these content blocks: handed on when it has file operations. */
  private assistant(i: number, id: string, timestamp: string, content: unknown, buf: Buffer, start: number, end: number, offset: number, cuts: readonly number[]): void {
    const tally = new FileTally();
    tallyBlocks(tally, content, id);
    const activity = tally.list();
    if (!activity.length) return;
    const calls: Array<{ name: unknown; input: unknown }> = [];
    if (Array.isArray(content)) for (const b of content as Array<Record<string, unknown>>) if (b?.type === "toolCall") calls.push({ name: b.name, input: b.arguments });
    const cutAt = cuts.length ? cutsIn(cuts, start) : undefined;
    this.onEntry({ id, timestamp: isoTextOf(timestamp), prompt: this.prompts.of(i), activity, calls, line: buf.subarray(start, end), offset, cutAt });
  }

  /** At the end of the file: a parent named before its entry makes a tree this read did not build. */
  finish(): void {
    if (!this.headerSeen) throw new Bail();
    for (const id of this.unknownParents) if (this.byId.get(id) !== undefined) throw new Bail();
  }
}

/** Feeds the whole lines of buf[lo, hi) (the file's bytes from `base` on) to `read`: where the first line not whole starts, and the next line's number. */
function feedLines(read: PiFileOpsRead, buf: Buffer, lo: number, hi: number, base: number, lineNo: number, leads?: LineLeads): { from: number; lineNo: number } {
  if (leads?.holds(buf)) return feedScanned(read, leads, buf, lo, hi, base, lineNo);
  const view = buf.subarray(0, hi);
  let from = lo;
  for (let nl = view.indexOf(10, from); nl >= 0; nl = view.indexOf(10, from)) {
    read.line(buf, from, nl, base + from - lo, lineNo++, true);
    from = nl + 1;
  }
  return { from, lineNo };
}

/** feedLines for bytes in the module's area (line-leads.ts): the lines and the leads it found. */
function feedScanned(read: PiFileOpsRead, leads: LineLeads, buf: Buffer, lo: number, hi: number, base: number, lineNo: number): { from: number; lineNo: number } {
  let from = lo;
  for (;;) {
    const n = leads.scan(buf, from, hi);
    for (let k = 0; k < n; k++) {
      const start = leads.start(k);
      const end = leads.end(k);
      const kind = leads.kind(k);
      if (kind === LEAD_KINDS.OTHER) read.line(buf, start, end, base + start - lo, lineNo++, true);
      else read.leadRead(buf, start, end, base + start - lo, lineNo++, kind, leads.id(k), leads.parent(k), leads, leads.leadEnd(k));
      from = end + 1;
    }
    if (n < SCAN_CAP) return { from, lineNo };
  }
}

/** A file of at most this many bytes is read in one synchronous read: awaiting each of its steps left the thread idle a seventh of the time. */
const SMALL_FILE = 4 * 2 ** 20;

/** A small file's lines, read at once (into the module's area where this thread has one): false (nothing read) for a file past SMALL_FILE. */
function readSmall(read: PiFileOpsRead, path: string, leads: LineLeads | undefined, area: Buffer | undefined): boolean {
  let buf: Buffer;
  try {
    buf = area ? readBytesInto(path, area, SMALL_FILE) : readBytesFile(path, SMALL_FILE);
  } catch (err) {
    if (err instanceof FileTooLargeError) return false;
    throw err;
  }
  const { from, lineNo } = feedLines(read, buf, 0, buf.length, 0, 1, leads);
  if (from < buf.length) read.line(buf, from, buf.length, from, lineNo, false);
  return true;
}

/**
 * Room before a chunk in its buffer for what is left of the chunk before's last line: the
 * chunk is read into its buffer after this room and the rest of that line copied in front
 * of it, rather than the whole chunk copied behind the line (a megabyte each time). A
 * longer rest gets a buffer of its own.
 */
const ROOM = 64 * 1024;
if (SMALL_FILE > AREA_BYTES || 2 * (ROOM + CHUNK) + SLACK > AREA_BYTES) throw new Error("file-ops-read: a small file or two chunks do not fit line-leads.ts's area");

/** A file's lines, a chunk at a time, the next chunk read (into the other of two buffers) while one's lines are read. */
async function readChunked(read: PiFileOpsRead, path: string, signal: AbortSignal | undefined, leads: LineLeads | undefined, area: Buffer | undefined): Promise<void> {
  const file = await openRegularAsync(path);
  // The read of the next chunk, made while this one's lines are read (awaited before the file is closed).
  let next: Promise<{ bytesRead: number }> | undefined;
  try {
    const size = (await file.stat()).size;
    const chunk = Math.min(CHUNK, Math.max(size, 1));
    // The two buffers in the module's area where this read has it (the module reads a few bytes past a buffer's end: a gap between them).
    const pair = area ? [area.subarray(0, ROOM + chunk), area.subarray(ROOM + chunk + SLACK, 2 * (ROOM + chunk) + SLACK)] : [Buffer.allocUnsafe(ROOM + chunk), Buffer.allocUnsafe(ROOM + chunk)];
    // cur[lo, hi) holds the file's bytes from `base` on; `pos` is where the next chunk starts.
    let cur = pair[0];
    let lo = ROOM;
    let hi = ROOM + (await file.read(cur, ROOM, chunk, 0)).bytesRead;
    let base = 0;
    let pos = hi - ROOM;
    let lineNo = 1;
    for (;;) {
      signal?.throwIfAborted();
      const into = cur === pair[0] ? pair[1] : pair[0];
      next = hi > lo ? file.read(into, ROOM, chunk, pos) : undefined;
      const fed = feedLines(read, cur, lo, hi, base, lineNo, leads);
      const from = fed.from;
      lineNo = fed.lineNo;
      const got = next ? (await next).bytesRead : 0;
      next = undefined;
      if (got === 0) {
        // The last line, without a newline.
        if (from < hi) read.line(cur, from, hi, base + from - lo, lineNo, false);
        return;
      }
      pos += got;
      base += from - lo;
      const left = hi - from;
      if (left <= ROOM) {
        cur.copy(into, ROOM - left, from, hi);
        cur = into;
        lo = ROOM - left;
        hi = ROOM + got;
      } else {
        // A line longer than the room: a buffer of its own holds it and the new chunk, grown
        // twice at a time while the line goes on (a line of many chunks is copied a few times, not once a chunk).
        let own = cur === pair[0] || cur === pair[1] ? undefined : cur;
        if (!own || own.length < left + got) {
          const grown = Buffer.allocUnsafe(Math.max(left + got, 2 * (own?.length ?? ROOM + chunk)));
          cur.copy(grown, 0, from, hi);
          own = grown;
        } else if (from > 0) own.copy(own, 0, from, hi);
        into.copy(own, left, ROOM, ROOM + got);
        cur = own;
        lo = 0;
        hi = left + got;
      }
    }
  } finally {
    await next?.catch(() => undefined);
    await file.close();
  }
}

/**
 * pi's SessionFormat.fileOps: the file's entries with file operations handed to `onEntry`
 * in file order (each line valid during its call only), and the session's name; undefined
 * when the file is left to a whole load (see Bail).
 */
export async function readPiFileOps(path: string, onEntry: (e: FileOpsEntry) => void, opts: { signal?: AbortSignal } = {}): Promise<{ name?: string } | undefined> {
  const read = new PiFileOpsRead(onEntry);
  try {
    opts.signal?.throwIfAborted();
    const leads = lineLeads();
    // The file's bytes go into the module's area, where the line scan reads them: this
    // thread's reads take turns with it (LineLeads.takeInTurn).
    const area = leads?.take() ?? (await leads?.takeInTurn());
    try {
      if (readSmall(read, path, leads, area)) {
        // A turn of the event loop: a thread reading small files one after another must still
        // hear its reader threads (their answers, and their asks for more, are messages).
        await new Promise<void>((resolve) => setImmediate(resolve));
      } else await readChunked(read, path, opts.signal, leads, area);
    } finally {
      if (area) leads?.give();
    }
    read.finish();
    return read.name === undefined ? {} : { name: read.name };
  } catch (err) {
    if (err instanceof Bail) return undefined;
    throw err;
  }
}
