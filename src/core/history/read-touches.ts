import { openSession } from "../formats/registry";
import { placer, SessionBytes } from "./edit-texts";
import { touchRows } from "./history-cache";
import { sessionTouches, type StoredTouch } from "./session-touches";

/** What the history takes from one read of a session: its touches (and their cache rows), and the name it gives itself (its listing may not have read it). */
export interface SessionRead {
  touches: StoredTouch[];
  rows: string;
  name?: string;
}

/**
 * One session's touches, as the history index keeps them: only the lines holding a file
 * operation or a prompt parsed whole (IndexHooks.skim), edits' texts as their places in
 * the file. The same on the main thread and on the history's second thread (with which a
 * large session is not split across threads again: both cores are busy already).
 */
export async function readSessionTouches(path: string, cwd: string, opts: { signal?: AbortSignal; secondThread?: boolean } = {}): Promise<SessionRead> {
  const session = await openSession(path, { signal: opts.signal, secondThread: opts.secondThread, skim: true });
  const bytes = new SessionBytes(path);
  try {
    const touches = sessionTouches(session, cwd, placer(session.metas, bytes));
    const name = session.format.info(session).name;
    const rows = touchRows(touches);
    return name ? { touches, rows, name } : { touches, rows };
  } finally {
    bytes.close();
  }
}
