/**
 * Gemini CLI's record replay (docs/gemini-cli-format.md sections 2 and 5), kept as a tree:
 * Gemini itself keeps only the current message list; we also keep what a `$rewindTo` or a
 * checkpoint dropped, as abandoned branches, so nothing the file holds is lost from view.
 *
 * - A metadata line (string sessionId and projectHash) merges into the metadata.
 * - A message (string id) appends, or replaces the message with that id in place.
 * - `{$set}` merges into the metadata; `$set.messages` replaces the whole list (a checkpoint).
 *   Messages of a checkpoint that continue the current path (same id, same parent) update it
 *   in place; the first one that does not starts a new branch from there.
 * - `{$rewindTo: id}` drops that message and every later one (an unknown id drops all).
 */

import { type FileLinesRead, forEachFileLine, forEachLineOf, type TakeLineBytes } from "../../util/chunked-lines";
import { readTextFile } from "../../util/safe-open";
import { MessageTexts } from "./checkpoint-reuse";
import { isSessionContext } from "./native-context";

/** One message of the replay, with its place in the tree. */
export interface ReplayNode {
  /** Unique in the session: the message id, or id#n when the id is seen again on another branch. */
  key: string;
  parentKey: string | null;
  /** The message as Gemini holds it (its latest version on this branch). */
  message: Record<string, unknown>;
  /** 1-based line of the record that last wrote it. */
  line: number;
  /** Set on a checkpoint's first new message when the checkpoint dropped messages it did not keep. */
  checkpoint?: { line: number; replacedLeaf: string | null; compression: boolean };
}

export interface ReplayProblem {
  line: number;
  message: string;
}

export interface Replay {
  meta: Record<string, unknown>;
  nodes: ReplayNode[];
  /** Keys of the current list, in order: what Gemini would resume. */
  current: string[];
  problems: ReplayProblem[];
  /** Lines that were metadata-only starts of a process (resumes), 1-based. */
  starts: number[];
  /** Records of a kind this reader does not know: kept, named, never fatal. */
  unknown: Array<{ line: number; keys: string[] }>;
  /** True when the file is one legacy JSON object. */
  legacy: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isMeta = (r: Record<string, unknown>) => typeof r.sessionId === "string" && typeof r.projectHash === "string";

/** Whether a user message is the compression's state snapshot (section 7). */
export function isStateSnapshot(m: Record<string, unknown>): boolean {
  if (m.type !== "user") return false;
  const c = m.content;
  const text = typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => (isObject(p) && typeof p.text === "string" ? p.text : "")).join("") : "";
  return text.trimStart().startsWith("<state_snapshot>");
}

class Builder {
  readonly nodes: ReplayNode[] = [];
  private readonly byKey = new Map<string, ReplayNode>();
  private readonly copies = new Map<string, number>();
  current: string[] = [];

  /** A copy to replay more lines into: this builder, and the nodes it handed out, stay as they are. */
  clone(): Builder {
    const b = new Builder();
    for (const n of this.nodes) {
      const copy = { ...n };
      b.nodes.push(copy);
      b.byKey.set(copy.key, copy);
    }
    for (const [id, n] of this.copies) b.copies.set(id, n);
    b.current = [...this.current];
    return b;
  }

  private newKey(id: string): string {
    if (!this.byKey.has(id)) return id;
    const n = (this.copies.get(id) ?? 1) + 1;
    this.copies.set(id, n);
    return `${id}#${n}`;
  }

  private add(message: Record<string, unknown>, parentKey: string | null, line: number): ReplayNode {
    const node: ReplayNode = { key: this.newKey(String(message.id)), parentKey, message, line };
    this.nodes.push(node);
    this.byKey.set(node.key, node);
    return node;
  }

  /** Where each message id first sits in the current list; rebuilt after the list is replaced. */
  private positions: Map<string, number> | undefined;

  private setCurrent(next: string[]): void {
    this.current = next;
    this.positions = undefined;
  }

  /** The position of id in the current list, -1 if it is not there (a map: a scan per line made long sessions quadratic). */
  private inCurrent(id: string): number {
    if (!this.positions) {
      const positions = new Map<string, number>();
      this.current.forEach((k, i) => {
        const mid = this.byKey.get(k)?.message.id;
        if (typeof mid === "string" && !positions.has(mid)) positions.set(mid, i);
      });
      this.positions = positions;
    }
    return this.positions.get(id) ?? -1;
  }

  message(m: Record<string, unknown>, line: number): void {
    const at = this.inCurrent(String(m.id));
    if (at >= 0) {
      const node = this.byKey.get(this.current[at])!;
      node.message = m;
      node.line = line;
      return;
    }
    this.current.push(this.add(m, this.current.at(-1) ?? null, line).key);
    if (this.positions && !this.positions.has(String(m.id))) this.positions.set(String(m.id), this.current.length - 1);
  }

  checkpoint(list: unknown[], line: number, problems: ReplayProblem[], isContext: (m: Record<string, unknown>) => boolean): void {
    const valid: Array<Record<string, unknown>> = [];
    list.forEach((raw, k) => {
      if (isObject(raw) && typeof raw.id === "string") valid.push(raw);
      else problems.push({ line, message: `line ${line}: message ${k} of the $set.messages checkpoint has no string id (skipped)` });
    });
    const before = this.current;
    // A start writes the session context alone before the full checkpoint of the session it
    // resumes (section 4): in the resumed file itself when the minute is the same. The full
    // checkpoint follows; reading the first as a reset would show every resume as a branch.
    if (valid.length && valid.length < before.length && valid.every(isContext)) return;
    // After a /rewind the CLI checkpoints what is left without the session context (recorded
    // `rewind` fixture); the path still starts at the stored one, which a resume regenerates.
    const head = before.length ? this.byKey.get(before[0])!.message : undefined;
    if (head && isContext(head) && valid.length && !valid.some(isContext)) valid.unshift(head);
    const ids = before.map((k) => this.byKey.get(k)!.message.id);
    // A resume writes the history again, converted, with the results of tool calls as
    // messages of their own: every message kept, in order, some inserted. Same path.
    let matched = 0;
    for (const m of valid) if (matched < ids.length && m.id === ids[matched]) matched++;
    if (before.length && matched === ids.length) {
      const next: string[] = [];
      let k = 0;
      for (const m of valid) {
        const parentKey = next.at(-1) ?? null;
        if (k < before.length && m.id === ids[k]) {
          const node = this.byKey.get(before[k++])!;
          if (node.message !== m) node.line = line;
          node.message = m;
          node.parentKey = parentKey;
          next.push(node.key);
        } else next.push(this.add(m, parentKey, line).key);
      }
      this.setCurrent(next);
      return;
    }
    // Otherwise the path goes on as far as it is the same, and the rest is a new branch; the
    // old path's end stays where it was (a compression's snapshot names it as what it replaced).
    const next: string[] = [];
    let firstNew: ReplayNode | undefined;
    for (const m of valid) {
      const same = firstNew === undefined && next.length < before.length && ids[next.length] === m.id;
      if (same) {
        const node = this.byKey.get(before[next.length])!;
        if (node.message !== m) node.line = line;
        node.message = m;
        next.push(node.key);
        continue;
      }
      const node = this.add(m, next.at(-1) ?? null, line);
      firstNew ??= node;
      next.push(node.key);
    }
    if (firstNew && before.length > next.indexOf(firstNew.key)) {
      firstNew.checkpoint = { line, replacedLeaf: before.at(-1) ?? null, compression: valid.some(isStateSnapshot) };
    }
    this.setCurrent(next);
  }

  /** False when the id is not in the list (Gemini then drops everything). */
  rewind(id: string): boolean {
    const at = this.inCurrent(id);
    this.setCurrent(at < 0 ? [] : this.current.slice(0, at));
    return at >= 0;
  }
}

/** Whether a byte is JSON whitespace (a line's text is compared without its trailing spaces or CR). */
const isSpace = (c: number) => c === 0x20 || c === 0x0d || c === 0x09;

/** Feeds the lines of a session to the replay: as bytes (the file, or a buffer), or as text. */
type Feed = (bytes: TakeLineBytes, text: (raw: string, line: number) => void) => void;

/**
 * The replay of the lines `feed` gives; `wholeText` is the file as one string, read only
 * when no line was a session's metadata (a legacy session is one JSON object over many
 * lines). Bytes are decoded a line at a time: a whole-file string is two bytes a character
 * as soon as one character is not ASCII (every session context has some), which made the
 * decode and each line's parse far slower. Checkpoint lines reuse the messages read before
 * them (checkpoint-reuse.ts) instead of parsing them again.
 */
function replayLines(feed: Feed, wholeText: () => string, from?: ReplayEnd): { replayed: Replay; builder: Builder } {
  const isContext = isSessionContext;
  // Going on from an earlier replay: its session keeps what it was given, unchanged.
  const problems: ReplayProblem[] = from ? [...from.replayed.problems] : [];
  const unknown: Replay["unknown"] = from ? [...from.replayed.unknown] : [];
  const starts: number[] = from ? [...from.replayed.starts] : [];
  const b = from ? from.builder.clone() : new Builder();
  let meta: Record<string, unknown> = from ? from.replayed.meta : {};
  const parse = (raw: string, line: number): unknown => {
    if (!raw.trim()) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      problems.push({ line, message: `line ${line}: not JSON (expected one Gemini CLI record per line; skipped)` });
      return undefined;
    }
  };
  /** Replays one record; true when it was a message. */
  const take = (r: unknown, line: number): boolean => {
    if (!isObject(r)) {
      problems.push({ line, message: `line ${line}: a JSON ${Array.isArray(r) ? "array" : typeof r}, expected a record object (skipped)` });
      return false;
    }
    if (isMeta(r)) {
      if (Object.keys(meta).length) starts.push(line);
      meta = { ...meta, ...r };
    } else if (isObject(r.$set)) {
      const { messages, ...rest } = r.$set;
      meta = { ...meta, ...rest };
      if (Array.isArray(messages)) b.checkpoint(messages, line, problems, isContext);
      else if (messages !== undefined) problems.push({ line, message: `line ${line}: $set.messages is not an array (ignored)` });
    } else if ("$rewindTo" in r) {
      if (typeof r.$rewindTo === "string") {
        if (!b.rewind(r.$rewindTo)) problems.push({ line, message: `line ${line}: $rewindTo names ${JSON.stringify(r.$rewindTo)}, no message of the list: Gemini CLI drops every message (kept here as a branch)` });
      }
      else problems.push({ line, message: `line ${line}: $rewindTo is not a message id (ignored)` });
    } else if (typeof r.id === "string") {
      b.message(r, line);
      return true;
    } else unknown.push({ line, keys: Object.keys(r).slice(0, 8) });
    return false;
  };
  const texts = new MessageTexts();
  feed(
    (buf, start, end, line) => {
      const checkpoint = texts.checkpoint(buf, start, end);
      if (checkpoint) {
        take(checkpoint, line);
        return;
      }
      const r = parse(buf.toString("utf8", start, end), line);
      if (r !== undefined && take(r, line)) {
        let to = end;
        while (to > start && isSpace(buf[to - 1])) to--;
        texts.note(r as Record<string, unknown>, buf, start, to);
      }
    },
    (raw, line) => {
      const r = parse(raw, line);
      if (r !== undefined) take(r, line);
    },
  );
  if (!isMeta(meta)) {
    const legacy = legacyRecord(wholeText());
    if (legacy) {
      const lb = new Builder();
      lb.checkpoint(legacy.messages, 1, problems, isContext);
      const { messages: _m, ...rest } = legacy;
      return { replayed: { meta: rest, nodes: lb.nodes, current: lb.current, problems, starts, unknown, legacy: true }, builder: lb };
    }
  }
  return { replayed: { meta, nodes: b.nodes, current: b.current, problems, starts, unknown, legacy: false }, builder: b };
}

/** Where a replay of a file ended (after a newline): lines appended since go on from here. */
export class ReplayEnd {
  constructor(
    readonly replayed: Replay,
    readonly builder: Builder,
    /** Bytes read, and the number of the next line. */
    readonly offset: number,
    readonly nextLine: number,
  ) {}
}

/** Replays the lines of a `.jsonl` session (or parses a legacy `.json` one), given as text or bytes. */
export function replay(input: string | Buffer, path: string): Replay {
  if (typeof input === "string") return replayLines((_bytes, text) => input.split("\n").forEach((raw, k) => text(raw, k + 1)), () => input).replayed;
  return replayLines((bytes) => forEachLineOf(input, bytes), () => input.toString("utf8")).replayed;
}

/**
 * Replays a session file read in chunks, up to its size when opened (at most maxBytes), or
 * only the lines after `from` (a replay of the file before it grew). `size`: bytes read in
 * all; `end`: where a later read can go on from (none after a line with no newline yet,
 * nor for a legacy file).
 */
export function replayFile(path: string, maxBytes: number, from?: ReplayEnd): { replayed: Replay; size: number; end?: ReplayEnd } {
  let read: FileLinesRead = { end: from?.offset ?? 0, nextLine: from?.nextLine ?? 1, endsWithNewline: true };
  const { replayed, builder } = replayLines(
    (bytes) => {
      read = forEachFileLine(path, maxBytes, bytes, { from: from?.offset, fromLine: from?.nextLine });
    },
    () => readTextFile(path, maxBytes),
    from,
  );
  const end = read.endsWithNewline && !replayed.legacy && isMeta(replayed.meta) ? new ReplayEnd(replayed, builder, read.end, read.nextLine) : undefined;
  return { replayed, size: read.end, end };
}

/** A legacy session: one JSON object with sessionId, projectHash and messages (section 5). */
function legacyRecord(text: string): (Record<string, unknown> & { messages: unknown[] }) | undefined {
  try {
    const r: unknown = JSON.parse(text);
    if (isObject(r) && isMeta(r) && Array.isArray(r.messages)) return r as Record<string, unknown> & { messages: unknown[] };
  } catch {
    /* not one JSON object */
  }
  return undefined;
}
