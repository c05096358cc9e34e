// What a reader that needs only some lines of a session (the per-file history: the lines
// holding a file operation or a user's prompt) uses to leave the rest unparsed: the
// leading members of a line, which name its place in the tree (id, parent, type) and its
// kind (a message's role) before its bulky content. The lead is parsed by JSON.parse, so
// an escaped name or value ("\u0075ser") reads as it would in the whole line; no byte
// pattern is trusted.

import { MAX_JSON_DEPTH } from "../util/json-depth";
import { isValidJson, skipSpace } from "./json-valid";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Bytes of a line's leading scalar members looked at, at most: past that the line is parsed whole. */
export const LEAD_CAP = 4096;

/** The position after the string whose opening quote is at p, or -1 when it does not close before `end`. */
function skipString(buf: Buffer, p: number, end: number): number {
  for (let i = p + 1; i < end; i++) {
    const c = buf[i];
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/** The position after a number, true, false or null starting at p (its bytes only; JSON.parse judges them). */
function skipLiteral(buf: Buffer, p: number, end: number): number {
  const from = p;
  while (p < end) {
    const c = buf[p];
    const word = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x45;
    if (!word) break;
    p++;
  }
  return p > from ? p : -1;
}

/**
 * The leading members of the JSON object on buf[start, end), parsed: its scalar members
 * before its first object or array value, and when that value is an object, its own
 * leading members the same way (`{"type":"message","id":"a1","parentId":null,
 * "message":{"role":"toolResult","content":[...]}}` gives type, id, parentId and
 * message.role). Undefined when there are none, when the object holds no array or object
 * in its first LEAD_CAP bytes (it is small: parse it), or when anything before is not as
 * JSON has it. Nothing after the cut is read, so a later member of the same name (JSON
 * keeps the last) is not seen: the formats' writers never repeat one.
 */
export function leadingMembers(buf: Buffer, start: number, end: number): Record<string, unknown> | undefined {
  const stop = Math.min(end, start + LEAD_CAP);
  let p = skipSpace(buf, start, stop);
  if (buf[p] !== 0x7b) return undefined;
  p++;
  let depth = 1;
  // Where the lead is cut (after a value, or just inside an object opened), and how many objects are open there.
  let cut = -1;
  let cutDepth = 0;
  let first = true;
  for (;;) {
    p = skipSpace(buf, p, stop);
    if (!first) {
      if (buf[p] !== 0x2c) return undefined;
      p = skipSpace(buf, p + 1, stop);
    }
    if (buf[p] !== QUOTE) return undefined;
    p = skipString(buf, p, stop);
    if (p < 0) return undefined;
    p = skipSpace(buf, p, stop);
    if (buf[p] !== 0x3a) return undefined;
    p = skipSpace(buf, p + 1, stop);
    if (p >= stop) return undefined;
    const c = buf[p];
    if (c === 0x5b) break;
    if (c === 0x7b) {
      p++;
      depth++;
      cut = p;
      cutDepth = depth;
      p = skipSpace(buf, p, stop);
      // An empty object: the whole line is parsed rather than read past it.
      if (buf[p] === 0x7d) return undefined;
      first = true;
      continue;
    }
    p = c === QUOTE ? skipString(buf, p, stop) : skipLiteral(buf, p, stop);
    if (p < 0) return undefined;
    cut = p;
    cutDepth = depth;
    first = false;
  }
  if (cut < 0) return undefined;
  try {
    const lead = JSON.parse(buf.toString("utf8", start, cut) + "}".repeat(cutDepth)) as unknown;
    return lead && typeof lead === "object" && !Array.isArray(lead) ? (lead as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the line's last byte other than JSON whitespace closes an object (a line cut short rarely does). */
export function closesObject(buf: Buffer, start: number, end: number): boolean {
  let p = end - 1;
  while (p >= start && (buf[p] === 32 || buf[p] === 9 || buf[p] === 13)) p--;
  return p >= start && buf[p] === 0x7d;
}

/**
 * Whether a line about to be indexed from its first members (IndexHooks.fromLead: on every
 * load, so it must be the entry a full parse gives) is one a full read would take: JSON as
 * JSON.parse has it (every comma, literal, number and escape, not only its brackets), nested
 * no deeper than a full read allows (see json-depth.ts), its own keys and its members' each
 * once and unescaped. A torn, cut or otherwise bad line fails this and is parsed whole, to
 * be reported the way a full read reports it. (A history's skim does without: SkimHooks.)
 */
export function skimmable(buf: Buffer, start: number, end: number): boolean {
  return isValidJson(buf, start, end, MAX_JSON_DEPTH, { ownKeysOnce: true });
}
