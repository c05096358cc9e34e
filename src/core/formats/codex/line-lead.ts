import type { LeadHooks } from "../../store/index-hooks";

/**
 * A third of a 0.169.0 rollout's bytes are lines the index keeps only the name of:
 * world_state snapshots (~6 KB each) and the item_completed and thread_settings_applied
 * events (a 100 MB rollout: 34k lines, 33 MB). Their id, time and names stand first, as
 * Codex writes every line:
 *
 *   {"ordinal":8,"timestamp":"2026-11-26T06:09:54.620Z","type":"event_msg","payload":{"type":"item_completed",...
 *
 * Those members are read here, byte by byte and strictly: anything not written exactly
 * so (a space, an escape, another key order, a number that is no plain index) is left to
 * the full parse, so what is read is what JSON.parse would give. The line's bulk is then
 * only checked for shape (IndexBuilder: closed strings and brackets, not too deep). A name
 * repeated later in the line or in its payload (JSON keeps the last) makes the line one the
 * check refuses (json-valid.ts), so it is parsed whole.
 */

/** Line types whose content the index reads (every other type is indexed by its name alone). */
const READ_TYPES = new Set(["session_meta", "response_item", "compacted", "turn_context", "event_msg", "token_usage_record"]);
/** Events whose content the index reads: turns, rollbacks, usage and the window. */
const READ_EVENTS = new Set(["task_started", "turn_started", "task_complete", "turn_complete", "turn_aborted", "thread_rolled_back", "token_count"]);

const ORDINAL = Buffer.from('{"ordinal":');
const TIMESTAMP = Buffer.from(',"timestamp":"');
const TYPE = Buffer.from(',"type":"');
const PAYLOAD_TYPE = Buffer.from(',"payload":{"type":"');
const QUOTE = 0x22;

/** Whether buf holds `word` at `at` (before `end`). */
function has(buf: Buffer, at: number, end: number, word: Uint8Array): boolean {
  if (at + word.length > end) return false;
  for (let k = 0; k < word.length; k++) if (buf[at + k] !== word[k]) return false;
  return true;
}

/** Where the plain string starting at `at` ends (its closing quote): printable ASCII, no escape; -1 otherwise. */
function plainStringEnd(buf: Buffer, at: number, end: number): number {
  for (let i = at; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) return i;
    if (c < 0x20 || c > 0x7e || c === 0x5c) return -1;
  }
  return -1;
}

/** Whether the string at buf[at, q) is one of `names`. */
function oneOf(buf: Buffer, at: number, q: number, names: readonly Uint8Array[]): boolean {
  for (const name of names) if (name.length === q - at && has(buf, at, q, name)) return true;
  return false;
}

const bytesOf = (names: Iterable<string>) => [...names].map((n) => Buffer.from(n));
const READ_TYPE_BYTES = bytesOf(READ_TYPES);
const READ_EVENT_BYTES = bytesOf(READ_EVENTS);
const EVENT_MSG = Buffer.from("event_msg");

/** Whether the byte after a member's value lets the object go on or end there. */
const goesOn = (c: number) => c === 0x2c || c === 0x7d;

export const codexFromLead: LeadHooks = {
  read(buf, start, end) {
    if (!has(buf, start, end, ORDINAL)) return undefined;
    let p = start + ORDINAL.length;
    // A plain index: digits, no leading zero, no sign, fraction or exponent.
    let ordinal = 0;
    const digits = p;
    while (p < end && buf[p] >= 0x30 && buf[p] <= 0x39 && p - digits < 15) ordinal = ordinal * 10 + (buf[p++] - 0x30);
    if (p === digits || (buf[digits] === 0x30 && p > digits + 1) || !has(buf, p, end, TIMESTAMP)) return undefined;
    const ts = p + TIMESTAMP.length;
    const tsEnd = plainStringEnd(buf, ts, end);
    if (tsEnd < 0 || !has(buf, tsEnd + 1, end, TYPE)) return undefined;
    const ty = tsEnd + 1 + TYPE.length;
    const tyEnd = plainStringEnd(buf, ty, end);
    // Names are compared as bytes: most lines are ones the index reads, and need no string.
    if (tyEnd <= ty) return undefined;
    if (!(tyEnd - ty === EVENT_MSG.length && has(buf, ty, tyEnd, EVENT_MSG))) {
      if (!goesOn(buf[tyEnd + 1]) || oneOf(buf, ty, tyEnd, READ_TYPE_BYTES)) return undefined;
      return { ordinal, timestamp: buf.toString("latin1", ts, tsEnd), type: buf.toString("latin1", ty, tyEnd) };
    }
    if (!has(buf, tyEnd + 1, end, PAYLOAD_TYPE)) return undefined;
    const ev = tyEnd + 1 + PAYLOAD_TYPE.length;
    const evEnd = plainStringEnd(buf, ev, end);
    if (evEnd <= ev || !goesOn(buf[evEnd + 1]) || oneOf(buf, ev, evEnd, READ_EVENT_BYTES)) return undefined;
    return { ordinal, timestamp: buf.toString("latin1", ts, tsEnd), type: "event_msg", payload: { type: buf.toString("latin1", ev, evEnd) } };
  },
};
