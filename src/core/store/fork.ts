import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../model/entries";
import { newEntryId, newSessionId, sessionFileName } from "./ids";
import type { Session } from "./session";

export interface ForkResult {
  path: string;
  sessionId: string;
  entryCount: number;
}

/**
 * pi's /fork (createBranchedSession): a new file in the same directory with a fresh
 * header (version 3, same cwd, parentSession = source path), the path root..entry copied
 * unchanged minus label entries, then fresh label entries for labels on that path.
 * Written to a temp file and renamed, so a reader never sees half a fork.
 */
export function forkSession(session: Session, entryId: string, opts: { dir?: string; now?: Date } = {}): ForkResult {
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
    parentSession: session.path,
  };
  const lines: string[] = [JSON.stringify(header)];
  const ids = new Set<string>();
  for (const i of path) {
    const entry = session.entryAt(i);
    lines.push(JSON.stringify(entry));
    ids.add(entry.id);
  }
  let parentId: string | null = path.length ? session.metas[path[path.length - 1]].id : null;
  for (const [targetId, label] of tree.labels) {
    if (!ids.has(targetId)) continue;
    const id = newEntryId(ids);
    const entry: SessionEntry = { type: "label", id, parentId, timestamp: new Date().toISOString(), targetId, label };
    lines.push(JSON.stringify(entry));
    ids.add(id);
    parentId = id;
  }
  const dir = opts.dir ?? dirname(session.path);
  const target = join(dir, sessionFileName(timestamp, sessionId));
  writeFileAtomic(target, `${lines.join("\n")}\n`);
  return { path: target, sessionId, entryCount: lines.length - 1 };
}

/** Temp file in the same directory, fsync, rename: all or nothing. Never overwrites. */
export function writeFileAtomic(target: string, content: string): void {
  const tmp = join(dirname(target), `.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "wx");
  try {
    const buf = Buffer.from(content, "utf8");
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, target);
  } catch (err) {
    unlinkSync(tmp);
    throw err;
  }
}
