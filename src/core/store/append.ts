import { closeSync, fstatSync, openSync, writeSync } from "node:fs";
import { CURRENT_SESSION_VERSION, type SessionEntry } from "../model/entries";
import { newEntryId } from "./ids";
import { type Session, StaleSessionError } from "./session";

export class OldVersionError extends Error {
  constructor(path: string, version: number) {
    super(
      `${path} is a version ${version} session; appending would confuse the agent that owns it (pi rewrites old files with new ids). Fork it to a new version ${CURRENT_SESSION_VERSION} file first (ase fork).`,
    );
    this.name = "OldVersionError";
  }
}

/** Fields every appended entry gets from appendEntry. */
export type NewEntry = Omit<SessionEntry, "id" | "timestamp"> & { parentId: string | null };

/**
 * Appends one entry as one whole line with a single write, after checking that the file
 * is exactly as loaded (size and mtime) and is a current-version file. Returns the entry
 * as written; the session is refreshed so it includes it.
 */
export async function appendEntry(session: Session, fields: NewEntry): Promise<SessionEntry> {
  if (session.version < CURRENT_SESSION_VERSION) throw new OldVersionError(session.path, session.version);
  session.checkUnchanged();
  const entry = {
    type: fields.type,
    id: newEntryId(session.tree.byId),
    parentId: fields.parentId,
    timestamp: new Date().toISOString(),
    ...stripBase(fields),
  } as SessionEntry;
  // A last line without newline (torn write) must not swallow ours.
  const line = `${session.endsWithNewline ? "" : "\n"}${JSON.stringify(entry)}\n`;
  const fd = openSync(session.path, "a");
  try {
    const st = fstatSync(fd);
    if (st.size !== session.stamp.size) {
      throw new StaleSessionError(session.path, `size ${session.stamp.size} -> ${st.size} just before writing`);
    }
    const buf = Buffer.from(line, "utf8");
    const written = writeSync(fd, buf, 0, buf.length);
    if (written !== buf.length) throw new Error(`${session.path}: short write (${written} of ${buf.length} bytes)`);
  } finally {
    closeSync(fd);
  }
  await session.refresh();
  return entry;
}

function stripBase(fields: NewEntry): Record<string, unknown> {
  const { type: _t, parentId: _p, ...rest } = fields as Record<string, unknown>;
  return rest;
}
