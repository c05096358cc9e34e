import { CURRENT_SESSION_VERSION, type SessionEntry } from "../model/entries";
import { appendRecords } from "../../../session/append-records";
import { piIndexHooks } from "../index-hooks";
import { newEntryId } from "../../../store/ids";
import type { Session } from "../pi-session";

export class OldVersionError extends Error {
  constructor(path: string, version: number) {
    super(
      `${path} is a version ${version} session; appending would confuse the agent that owns it (pi rewrites old files with new ids). Fork it to a new version ${CURRENT_SESSION_VERSION} file first (ase fork).`,
    );
    this.name = "OldVersionError";
  }
}

/** A session of a version newer than we know: what its entries mean is not ours to guess. */
export class UnknownVersionError extends Error {
  constructor(path: string, version: number) {
    super(`nothing written: ${path}: unknown session version ${version} (this tool knows up to ${CURRENT_SESSION_VERSION}); writing into it could break it for the agent that wrote it`);
    this.name = "UnknownVersionError";
  }
}

/** Refuses a write into a file of a version we cannot write: older (fork it first) or newer. */
export function assertWritableVersion(session: { path: string; version: number }): void {
  if (session.version < CURRENT_SESSION_VERSION) throw new OldVersionError(session.path, session.version);
  if (session.version > CURRENT_SESSION_VERSION) throw new UnknownVersionError(session.path, session.version);
}

/** Fields every appended entry gets from appendEntry. */
export type NewEntry = Omit<SessionEntry, "id" | "timestamp"> & { parentId: string | null };

/**
 * Appends one entry as one whole line, after checking that the file is exactly as loaded
 * and is a current-version file; see appendLines for what a failure leaves on disk.
 * Returns the entry as written; the session is refreshed so it includes it.
 */
export async function appendEntry(session: Session, fields: NewEntry): Promise<SessionEntry> {
  assertWritableVersion(session);
  const entry = {
    type: fields.type,
    id: newEntryId(session.tree.byId),
    parentId: fields.parentId,
    timestamp: new Date().toISOString(),
    ...stripBase(fields),
  } as SessionEntry;
  // The one append helper: the file as loaded, the entry pi's own, its parent known, all or nothing.
  await appendRecords(session, [entry as unknown as Record<string, unknown>], { index: piIndexHooks });
  return entry;
}

function stripBase(fields: NewEntry): Record<string, unknown> {
  const { type: _t, parentId: _p, ...rest } = fields as Record<string, unknown>;
  return rest;
}
