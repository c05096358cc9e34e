import { writeNewSession } from "../../store/atomic-file";
import { newSessionId } from "../../store/ids";
import type { ForkResult } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";

/** A store file's name: the session id. */
export function clawdcodeFileName(sessionId: string): string {
  return `${sessionId}.jsonl`;
}

/**
 * A new session `<new sessionId>.jsonl` in the same project folder (or `opts.dir`) holding
 * the path root..entry: the same lines with the same uuids and parent links, sessionId
 * rewritten to the new one. Written to a hidden temp file and linked into place: never
 * half a file, never over an existing one; the source is only read.
 */
export function forkClawdcode(session: SessionReader, entryId: string, opts: { dir?: string; now?: Date } = {}): ForkResult {
  const at = session.requireIndex(entryId);
  const sessionId = newSessionId();
  const lines: string[] = [];
  for (const i of session.tree.path(at)) {
    const line = session.entryAt(i);
    // Spread keeps the key order: sessionId stays where the agent wrote it.
    lines.push(JSON.stringify({ ...line, sessionId }));
  }
  const target = writeNewSession(session.path, opts.dir, clawdcodeFileName(sessionId), lines);
  return { path: target, sessionId, entryCount: lines.length };
}
