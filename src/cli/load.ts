import { offers, whyNotOffered, type WriteAction } from "../core/session/capabilities";
import { formatOf, openSession } from "../core/formats/registry";
import type { SessionReader } from "../core/session/session-reader";
import { Session } from "../core/formats/pi/pi-session";
import { CliError } from "./cli-error";
import { safeText } from "./format";

/** Loads a session of any known format for a command, turning every load failure into a one-line error. */
export async function loadSession(path: string): Promise<SessionReader> {
  try {
    return await openSession(path);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** Loads a session for a command that only pi sessions have so far; any other format is refused by name. */
export async function loadPiSession(path: string, what: string, action?: WriteAction): Promise<Session> {
  return piOnly(await loadSession(path), what, action);
}

/** A loaded session as pi's, or the refusal naming its format (and, for a write it does not offer, the format's reason). */
export function piOnly(session: SessionReader, what: string, action?: WriteAction): Session {
  if (session instanceof Session) return session;
  const f = formatOf(session);
  const why = action && !offers(f, action) ? ` (${whyNotOffered(f, action)})` : "";
  throw new CliError(`${session.path}: a ${f.agent} session; ${what} is offered for pi sessions only${why}; nothing written`);
}

/** The position of an entry given by a flag, or the format's default leaf. */
export function requireEntry(session: SessionReader, id: string | undefined, flag: string): number {
  if (id === undefined) return formatOf(session).defaultLeaf(session);
  const i = session.tree.indexOf(id);
  if (i === undefined) throw new CliError(`${session.path}: no entry with id "${id}" (given by --${flag})`);
  return i;
}

/** Bad lines are reported on stderr, never silently dropped. */
export function reportProblems(session: SessionReader, err: (text: string) => void): void {
  const count = session.problemCount;
  if (!count) return;
  err(`${safeText(session.path)}: ${count} problem(s) while reading:\n`);
  const shown = session.problems.slice(0, 20);
  for (const p of shown) err(`  ${safeText(p.message)}\n`);
  if (count > shown.length) err(`  ... and ${count - shown.length} more\n`);
}
