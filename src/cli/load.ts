import { openSession } from "../core/formats/registry";
import type { SessionReader } from "../core/session/session-reader";
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

/** The position of an entry given by a flag, or the format's default leaf. */
export function requireEntry(session: SessionReader, id: string | undefined, flag: string): number {
  if (id === undefined) return session.format.defaultLeaf(session);
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
