import { offers, whyNotOffered, type WriteAction } from "../core/session/capabilities";
import type { SessionReader } from "../core/session/session-reader";
import { Session } from "../core/formats/pi/pi-session";
import { CliError } from "./cli-error";
import { openSession } from "../core/formats/registry";

/*
 * Only `ase compact` and `ase branch` still take pi's own session class: they move to the
 * format's writer (issue 26, h-compact), and this file goes with them at the merge.
 */

/** Loads a session for a command that only pi sessions have so far; any other format is refused by name. */
export async function loadPiSession(path: string, what: string, action?: WriteAction): Promise<Session> {
  // Not load.ts's loadSession: load.ts re-exports this file, and an import back would be a cycle.
  const session = await openSession(path).catch((err: Error) => {
    throw new CliError(err.message);
  });
  return piOnly(session, what, action);
}

/** A loaded session as pi's, or the refusal naming its format (and, for a write it does not offer, the format's reason). */
export function piOnly(session: SessionReader, what: string, action?: WriteAction): Session {
  if (session instanceof Session) return session;
  const f = session.format;
  const why = action && !offers(f, action) ? ` (${whyNotOffered(f, action)})` : "";
  throw new CliError(`${session.path}: a ${f.agent} session; ${what} is offered for pi sessions only${why}; nothing written`);
}
