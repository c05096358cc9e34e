// The byte-level twin of leadingMembers (store/line-skim.ts) for the lines pi writes: a
// line's first members read straight from its bytes when they are plain (strings of
// printable ASCII without escapes, and null), so the per-file history's read of a pi file
// makes no string to parse per line. Anything else (an escape, a number, a space, a long
// lead) is not read here: the caller falls back to leadingMembers, which reads it exactly.

import { KnownNames } from "../../store/known-names";
import { LEAD_CAP } from "../../store/line-skim";
import { plainStringEnd } from "../../store/plain-items";
import { hexIdAt } from "./entry-ids";

const QUOTE = 0x22;

/**
 * What the history's read takes from a line's lead: its type, id and parent, and its
 * message's role (a skimmed line's time is not needed). An id or parent of 8 lowercase hex
 * digits (pi's own) is given as its number (idKey, parentKey; entry-ids.ts) and as HEX_ID in
 * place of the string, which is not made; else the key is -1.
 */
export interface PlainLead {
  type: string | null | undefined;
  id: string | null | undefined;
  idKey: number;
  /** Whether the lead has a parentId member (null included). */
  hasParentId: boolean;
  parentId: string | null | undefined;
  parentKey: number;
  role: string | null | undefined;
}

/** What a lead holds as the id or parent whose number it gives instead (a string, as the id is one). */
export const HEX_ID = "(8 hex digits)";

export function emptyLead(): PlainLead {
  return { type: undefined, id: undefined, idKey: -1, hasParentId: false, parentId: undefined, parentKey: -1, role: undefined };
}

/** Whether buf[from, to) spells `word`. */
function spells(buf: Buffer, from: number, to: number, word: string): boolean {
  if (to - from !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (buf[from + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** The first-level key a member sets, by its bytes (0: none kept). */
function topKey(buf: Buffer, from: number, to: number): number {
  switch (to - from) {
    case 2:
      return spells(buf, from, to, "id") ? 1 : 0;
    case 4:
      return spells(buf, from, to, "type") ? 2 : 0;
    case 7:
      return spells(buf, from, to, "message") ? 5 : 0;
    case 8:
      return spells(buf, from, to, "parentId") ? 3 : 0;
    default:
      return 0;
  }
}

/** Interned names: a line's type and role are few, and need no new string each. */
const NAMES = new KnownNames(["message", "user", "assistant", "toolResult", "bashExecution", "custom", "compaction", "branch_summary"]);

function nameAt(buf: Buffer, from: number, to: number): string {
  return NAMES.nameIn(buf, from, to) ?? buf.toString("latin1", from, to);
}

/** Whether buf holds `lit` at p (the caller knows p + lit.length is within the line). */
export function bytesAt(buf: Buffer, p: number, lit: Uint8Array): boolean {
  for (let k = 0; k < lit.length; k++) if (buf[p + k] !== lit[k]) return false;
  return true;
}

/** The leads pi writes, piece by piece: version 2 and 3 (an id and a parent of 8 hex digits), and version 1. */
const TYPE_ID = Buffer.from('{"type":"message","id":"');
const PARENT = Buffer.from('","parentId":"');
const TIME = Buffer.from('","timestamp":"');
const TYPE_TIME = Buffer.from('{"type":"message","timestamp":"');
const ROLE = Buffer.from('","message":{"role":"');

/**
 * The lead of a message line in the exact layout pi writes, read by comparing its bytes
 * with that layout: the position after its role's closing quote (`out` then holds what the
 * members up to there give, as the general read would), or -1 for any other line (nothing
 * kept). The general read goes on from there to the first array.
 */
function piLayout(buf: Buffer, start: number, stop: number, out: PlainLead): number {
  let p = start;
  let id = -1;
  let parent = -1;
  if (p + TYPE_ID.length + 8 + PARENT.length + 8 + TIME.length < stop && bytesAt(buf, p, TYPE_ID)) {
    p += TYPE_ID.length;
    id = hexIdAt(buf, p, p + 8);
    if (id < 0 || !bytesAt(buf, p + 8, PARENT)) return -1;
    p += 8 + PARENT.length;
    parent = hexIdAt(buf, p, p + 8);
    if (parent < 0 || !bytesAt(buf, p + 8, TIME)) return -1;
    p += 8 + TIME.length;
  } else if (p + TYPE_TIME.length < stop && bytesAt(buf, p, TYPE_TIME)) p += TYPE_TIME.length;
  else return -1;
  // The time: a plain string (its value is not kept), then the message's role.
  p = plainStringEnd(buf, p - 1, stop);
  if (p < 0 || p - 1 + ROLE.length >= stop || !bytesAt(buf, p - 1, ROLE)) return -1;
  const r0 = p - 1 + ROLE.length;
  const r = plainStringEnd(buf, r0 - 1, stop);
  if (r < 0 || r >= stop) return -1;
  out.type = "message";
  if (id >= 0) {
    out.id = out.parentId = HEX_ID;
    out.idKey = id;
    out.parentKey = parent;
    out.hasParentId = true;
  }
  out.role = nameAt(buf, r0, r - 1);
  return r;
}

/**
 * Reads the lead of the line buf[start, end) into `out`, as leadingMembers would give it
 * (its type, id, parentId and message.role): true when it could. False when the
 * lead is not plain, or is not over within LEAD_CAP bytes; `out` then holds nothing to use.
 */
export function readPlainLead(buf: Buffer, start: number, end: number, out: PlainLead): boolean {
  const stop = Math.min(end, start + LEAD_CAP);
  out.type = out.id = out.parentId = out.role = undefined;
  out.idKey = out.parentKey = -1;
  out.hasParentId = false;
  if (buf[start] !== 0x7b) return false;
  let p = start + 1;
  let depth = 1;
  let inMessage = false;
  let first = true;
  // leadingMembers gives nothing when no member comes before the first array.
  let any = false;
  // pi's own layout up to the role, compared whole; the members after it are read below.
  const laid = piLayout(buf, start, stop, out);
  if (laid >= 0) {
    p = laid;
    depth = 2;
    inMessage = true;
    first = false;
    any = true;
  }
  for (;;) {
    // Every byte looked at lies before the cap: near it, leadingMembers decides.
    if (p + 1 >= stop) return false;
    if (!first) {
      if (buf[p] !== 0x2c) return false;
      p++;
    }
    if (buf[p] !== QUOTE) return false;
    const k0 = p + 1;
    p = plainStringEnd(buf, p, stop);
    if (p < 0 || p + 1 >= stop || buf[p] !== 0x3a) return false;
    const key: number = depth === 1 ? topKey(buf, k0, p - 1) : inMessage && depth === 2 && spells(buf, k0, p - 1, "role") ? 6 : 0;
    p++;
    if (p >= stop) return false;
    const c = buf[p];
    // The first array ends the lead.
    if (c === 0x5b) return any;
    if (c === 0x7b) {
      p++;
      // An empty object: leadingMembers has the line parsed whole.
      if (buf[p] === 0x7d) return false;
      inMessage = key === 5;
      depth++;
      any = true;
      first = true;
      continue;
    }
    let value: string | null;
    let hex = -1;
    if (c === QUOTE) {
      const v0 = p + 1;
      p = plainStringEnd(buf, p, stop);
      if (p < 0) return false;
      if (key === 1 || key === 3) hex = hexIdAt(buf, v0, p - 1);
      value = key === 2 || key === 6 ? nameAt(buf, v0, p - 1) : hex >= 0 ? HEX_ID : key ? buf.toString("latin1", v0, p - 1) : "";
    } else if (c === 0x6e && p + 4 <= stop && buf[p + 1] === 0x75 && buf[p + 2] === 0x6c && buf[p + 3] === 0x6c) {
      value = null;
      p += 4;
    } else return false;
    // A key met again: JSON keeps its last value, and so does this.
    if (key === 1) {
      out.id = value;
      out.idKey = hex;
    } else if (key === 2) out.type = value;
    else if (key === 3) {
      out.parentId = value;
      out.parentKey = hex;
      out.hasParentId = true;
    } else if (key === 6) out.role = value;
    any = true;
    first = false;
  }
}
