import { randomBytes } from "node:crypto";
import { closeSync } from "node:fs";
import { basename } from "node:path";
import { appendLines } from "../../store/append-line";
import { writeNewSession } from "../../store/atomic-file";
import { readAt } from "../../store/file-stamp";
import type { JsonlSession } from "../../session/jsonl-session";
import type { ForkResult, FormatWriter, WriteCapabilities } from "../../session/session-format";
import type { FileStamp, SessionReader } from "../../session/session-reader";
import { lineProblem, type Seed000Line } from "./line";
import { appendRecords } from "../../session/append-records";
import { seed000IndexHooks } from "./index-hooks";
import { openRegular } from "../../util/safe-open";

export const SEED000_CAPABILITIES: WriteCapabilities = {
  fork: true,
  label: false,
  compact: false,
  why: "seed-000 files have no label or compaction lines; its strategies (truncate, compress, smart) shape the context sent, they write nothing",
  reasons: {
    label: "seed-000 files have no label lines",
    compact: "seed-000 sessions are never compacted in the file: the agent shrinks the context it sends (truncate, compress, smart; see Preview Context)",
    continue: "seed-000 files have no branch summaries: fork the session to go on from an earlier entry",
  },
};

/** `<source name>-fork-<8 hex>.jsonl`: a fresh name beside the source, never an existing one. */
export function forkFileName(sourcePath: string): string {
  return `${basename(sourcePath).replace(/\.jsonl$/, "")}-fork-${randomBytes(4).toString("hex")}.jsonl`;
}

/**
 * A new file in the source's directory (or `dir`) holding the lines root..entry, each
 * record as read (same ids, same parents), written whole or not at all and never over
 * an existing file. The source is only read. `now` is accepted for the writer interface;
 * a seed-000 fork carries no time of its own.
 */
export function forkSeed000(session: SessionReader, entryId: string, opts: { dir?: string; now?: Date } = {}): ForkResult {
  if (!session.complete) throw new Error(`${session.path}: only part of it is read yet; wait for the load to finish before forking`);
  const at = session.requireIndex(entryId);
  const lines = session.tree.path(at).map((i) => JSON.stringify(session.entryAt(i)));
  const name = forkFileName(session.path);
  return { path: writeNewSession(session.path, opts.dir, name, lines), sessionId: name.replace(/\.jsonl$/, ""), entryCount: lines.length };
}

/**
 * Appends whole lines to a seed-000 file, under its lock, only if the file is still as
 * `stamp` describes (else StaleSessionError: reload first). Each line is checked first;
 * a file whose last line has no newline gets one before ours, so no line is joined.
 */
export function appendSeed000Lines(path: string, stamp: FileStamp, entries: readonly Seed000Line[]): void {
  checkLines(path, entries);
  if (!entries.length) return;
  const text = entries.map((e) => JSON.stringify(e)).join("\n");
  appendLines(path, stamp, `${endsWithNewline(path, stamp.size) ? "" : "\n"}${text}\n`);
}

/**
 * Appends new entries to a loaded seed-000 session, then reads them in: each id must be
 * new and each parent an entry of the session or an earlier new one (null for a root),
 * so the tree stays whole. The file must be as loaded (checked again under the lock).
 */
export async function appendSeed000Entries(session: JsonlSession, entries: readonly Seed000Line[]): Promise<void> {
  checkLines(session.path, entries);
  await appendRecords(session, entries as unknown as ReadonlyArray<Record<string, unknown>>, { index: seed000IndexHooks });
}

/** Each new line well-formed, or an error naming which one and what is wrong. */
function checkLines(path: string, entries: readonly Seed000Line[]): void {
  entries.forEach((e, k) => {
    const problem = lineProblem(e as unknown as Record<string, unknown>);
    if (problem) throw new Error(`nothing written: ${path}: new line ${k + 1} of ${entries.length}: ${problem}`);
  });
}

/** Whether the first `size` bytes of the file end in a newline (an empty file counts as ended). */
function endsWithNewline(path: string, size: number): boolean {
  if (size === 0) return true;
  let fd: number;
  try {
    fd = openRegular(path);
  } catch {
    return true; // appendLines says what is wrong with the file (gone, unreadable).
  }
  try {
    // A stale stamp reads some other byte here; appendLines then refuses before writing.
    return readAt(fd, size - 1, 1)[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

export const seed000Writer: FormatWriter = {
  capabilities: SEED000_CAPABILITIES,
  fork: forkSeed000,
  append: (session, records) => appendSeed000Entries(session as JsonlSession, records as unknown as Seed000Line[]),
};
