import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { cleanStaleTemps, writeNewFile } from "../../store/atomic-file";
import type { ForkResult } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { homeOf } from "./files";
import { asObj, str } from "./lines";
import { codexFacts } from "./session";

/** A UUIDv7 as Codex's thread ids are: 48 bits of ms time, version 7, variant 10, random rest. */
export function uuidV7(now: Date): string {
  const b = randomBytes(16);
  const ms = BigInt(now.getTime());
  for (let k = 0; k < 6; k++) b[k] = Number((ms >> BigInt(8 * (5 - k))) & 0xffn);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const FORK_KEYS = new Set(["forked_from_id", "forked_from_ordinal_exclusive", "history_base"]);

/** The parent's session_meta payload as a fork's: new ids and time, the fork fields where Codex puts them. */
function forkMeta(meta: Record<string, unknown>, id: string, now: string, parent: string, end: number, endByte: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) {
    if (FORK_KEYS.has(k)) continue;
    out[k] = k === "id" || k === "session_id" ? id : k === "timestamp" ? now : v;
    if (k === "id") Object.assign(out, { forked_from_id: parent, forked_from_ordinal_exclusive: end });
    if (k === "history_mode") out.history_base = { thread_id: parent, end_ordinal_exclusive: end, end_byte_offset: endByte };
  }
  out.history_base ??= { thread_id: parent, end_ordinal_exclusive: end, end_byte_offset: endByte };
  return out;
}

function isRollback(session: SessionReader, i: number): boolean {
  return session.table.typeAt(i) === "event_msg" && session.table.roleAt(i) === "thread_rolled_back";
}

/** A copied line without its ordinal: the copy is a file of the older, ordinal-less kind. */
function withoutOrdinal(line: Record<string, unknown>): Record<string, unknown> {
  const { ordinal: _ordinal, ...rest } = line;
  return rest;
}

/** Local time as Codex names its files and day folders: 2026-11-26T05-55-16. */
function stamp(d: Date): { day: string[]; name: string } {
  const p = (n: number) => String(n).padStart(2, "0");
  const day = [String(d.getFullYear()), p(d.getMonth() + 1), p(d.getDate())];
  return { day, name: `${day.join("-")}T${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}` };
}

/**
 * A fork at an entry the way `codex exec fork` writes one in 0.169.0 (docs/codex-format.md
 * sections 6 and 10): a new rollout whose session_meta names this thread in
 * `history_base` up to and including the entry (by ordinal and byte offset), so that
 * `codex resume <new id>` sends this thread's history up to it; then the last
 * turn_context before the entry, so the fork resumes with the same model and cwd. No line
 * of this thread is copied, and this file is only read. An entry without an ordinal (an
 * older build's file) or on a rolled-back branch cannot be named so: that fork copies the
 * lines of the path instead, as older builds did. Written in the same Codex home
 * (sessions/YYYY/MM/DD), whole or not at all.
 */
export function forkCodex(session: SessionReader, entryId: string, opts: { dir?: string; now?: Date } = {}): ForkResult {
  const at = session.requireIndex(entryId);
  const ord = /^o(\d+)$/.exec(entryId);
  const path = session.tree.path(at);
  const facts = codexFacts(session);
  const parent = str(facts.meta.id);
  if (!parent) throw new Error(`${session.path}: its session_meta names no thread id`);
  const now = opts.now ?? new Date();
  const id = uuidV7(now);
  const time = now.toISOString();
  let lines: Array<Record<string, unknown>>;
  if (ord && path.length === at + 1) {
    // The last turn_context before the entry, else the thread's first (lines before any turn).
    const turn = [...path].reverse().find((i) => session.table.typeAt(i) === "turn_context") ?? session.metas.findIndex((_, i) => session.table.typeAt(i) === "turn_context");
    if (turn < 0) throw new Error(`${session.path}: no turn_context line: nothing says which model and cwd a fork resumes with`);
    const end = Number(ord[1]) + 1;
    const m = session.metas[at];
    const head = { timestamp: time, ordinal: end, type: "session_meta", payload: forkMeta(facts.meta, id, time, parent, end, m.offset + m.length + 1) };
    lines = [head, { timestamp: time, ordinal: end + 1, type: "turn_context", payload: asObj(session.entryAt(turn).payload) ?? {} }];
  } else {
    // No ordinals (older builds) or a rolled-back branch: a fork that copies the path's lines, as
    // older builds wrote forks (section 6); a rollback on the path is applied already, not copied.
    const meta: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(facts.meta)) if (!FORK_KEYS.has(k)) meta[k] = k === "id" || k === "session_id" ? id : k === "timestamp" ? time : v;
    meta.forked_from_id = parent;
    const copied = path.filter((i) => !isRollback(session, i)).map((i) => withoutOrdinal(session.entryAt(i)));
    lines = [{ timestamp: time, type: "session_meta", payload: meta }, ...copied];
  }
  const s = stamp(now);
  const home = homeOf(resolve(session.path));
  const dir = opts.dir ?? (home ? join(home, "sessions", ...s.day) : dirname(resolve(session.path)));
  mkdirSync(dir, { recursive: true });
  cleanStaleTemps(dir);
  const target = join(dir, `rollout-${s.name}-${id}.jsonl`);
  writeNewFile(target, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`, { replace: false });
  return { path: target, sessionId: id, entryCount: lines.length - 1 };
}
