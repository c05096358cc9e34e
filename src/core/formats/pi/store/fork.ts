import { resolve } from "node:path";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../model/entries";
import { UnknownVersionError } from "./append";
import { writeNewSession } from "../../../store/atomic-file";
import { newEntryId, newSessionId, sessionFileName } from "../../../store/ids";
import type { Session } from "../pi-session";

export interface ForkResult {
  path: string;
  sessionId: string;
  entryCount: number;
}

/**
 * pi's /fork (createBranchedSession): a new file in the same directory with a fresh
 * header (version 3, same cwd, parentSession = source path), the path root..entry copied
 * minus label entries (parents re-chained over them), then fresh label entries for the
 * labels on that path, each with the timestamp of the label entry that set it.
 * Written to a hidden temp file and linked into place, so a reader never sees half a
 * fork and no existing file is replaced. parentSession is absolute, as pi writes it.
 */
export function forkSession(session: Session, entryId: string, opts: { dir?: string; now?: Date } = {}): ForkResult {
  if (session.version > CURRENT_SESSION_VERSION) throw new UnknownVersionError(session.path, session.version);
  const tree = session.tree;
  const at = session.requireIndex(entryId);
  const path = tree.path(at).filter((i) => session.metas[i].type !== "label");
  const timestamp = (opts.now ?? new Date()).toISOString();
  const sessionId = newSessionId();
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: sessionId,
    timestamp,
    cwd: session.header.cwd,
    parentSession: resolve(session.path),
  };
  const lines: string[] = [JSON.stringify(header)];
  const ids = new Set<string>();
  // Dropping label entries would orphan their children, so each kept entry is re-chained
  // to the previous kept one (as later pi builds do); a compaction that kept from a
  // dropped label keeps from the entry after it instead.
  const full = tree.path(at);
  const nextKept = new Map<string, string>();
  for (let k = full.length - 1, next = ""; k >= 0; k--) {
    const m = session.metas[full[k]];
    if (m.type === "label") nextKept.set(m.id, next);
    else next = m.id;
  }
  let prev: string | null = null;
  for (const i of path) {
    let entry = session.entryAt(i);
    if (entry.parentId !== prev) entry = { ...entry, parentId: prev };
    const kept: string | undefined = entry.type === "compaction" ? nextKept.get(String(entry.firstKeptEntryId)) : undefined;
    if (kept) entry = { ...entry, firstKeptEntryId: kept };
    lines.push(JSON.stringify(entry));
    ids.add(entry.id);
    prev = entry.id;
  }
  let parentId: string | null = path.length ? session.metas[path[path.length - 1]].id : null;
  for (const [targetId, label] of tree.labels) {
    if (!ids.has(targetId)) continue;
    const id = newEntryId(ids);
    // The label keeps the time it was set, as pi's fork does (the tree shows it).
    const setAt = tree.labelEntries.get(targetId);
    const labelTime = setAt === undefined ? undefined : session.entryAt(setAt).timestamp;
    const entry: SessionEntry = { type: "label", id, parentId, timestamp: typeof labelTime === "string" ? labelTime : timestamp, targetId, label };
    lines.push(JSON.stringify(entry));
    ids.add(id);
    parentId = id;
  }
  const target = writeNewSession(session.path, opts.dir, sessionFileName(timestamp, sessionId), lines);
  return { path: target, sessionId, entryCount: lines.length - 1 };
}
