import { openSession } from "../formats/registry";
import { placer, SessionBytes } from "./edit-texts";
import { sessionTouches, type StoredTouch } from "./session-touches";

/**
 * One session's touches, as the history index keeps them: only the lines holding a file
 * operation or a prompt parsed whole (IndexHooks.skim), edits' texts as their places in
 * the file. The same on the main thread and on the history's second thread.
 */
export async function readSessionTouches(path: string, cwd: string, signal?: AbortSignal): Promise<StoredTouch[]> {
  const session = await openSession(path, { signal, skim: true });
  const bytes = new SessionBytes(path);
  try {
    return sessionTouches(session, cwd, placer(session.metas, bytes));
  } finally {
    bytes.close();
  }
}
