import { formatById, formatOfFile } from "../formats/registry";
import type { FileOpsEntry, SessionFormat } from "../session/session-format";
import { cutLength, placer, placeTexts, SessionBytes } from "./edit-texts";
import { RowWriter, rowsTouches } from "./history-cache";
import { entryTouches, sessionTouchesInto, TEXT_CAP, type StoredTouch } from "./session-touches";

/**
 * What the history takes from one read of a session: its touches as the cache file writes
 * them (SessionRecord.rows) and the files they name, and the name the session gives itself
 * (its listing may not have read it). `touches` makes them back from the rows (the tests ask
 * it; the index keeps the rows alone).
 */
export interface SessionRead {
  readonly touches: StoredTouch[];
  rows: string;
  paths: string[];
  name?: string;
}

/** A text's length, where it may stand for one left in the entry's line (FileOpsEntry.cutAt). */
function lengthIn(e: FileOpsEntry): ((text: string) => number) | undefined {
  const { cutAt, line } = e;
  if (!cutAt) return undefined;
  return (text) => {
    const cut = cutAt(text);
    return cut ? cutLength(line, cut, TEXT_CAP) : text.length;
  };
}

function sessionRead(written: RowWriter, name: string | undefined): SessionRead {
  const rows = written.text();
  let touches: StoredTouch[] | undefined;
  const read: SessionRead = {
    get touches() {
      return (touches ??= rowsTouches(rows));
    },
    rows,
    paths: written.pathList,
  };
  if (name) read.name = name;
  return read;
}

/** A format's own quick read of a file (SessionFormat.fileOps): undefined when it leaves the file to a whole load. */
async function quickRead(format: SessionFormat, path: string, cwd: string, signal: AbortSignal | undefined): Promise<SessionRead | undefined> {
  if (!format.fileOps) return undefined;
  // Each entry's touches made into the session's cache row as they come (RowWriter).
  const rows = new RowWriter();
  const got = await format.fileOps(
    path,
    // The entry's fields named one by one: a spread of it cost a microsecond an entry.
    (e) => entryTouches(rows, { id: e.id, timestamp: e.timestamp, prompt: e.prompt, activity: e.activity, calls: () => e.calls, lengthOf: lengthIn(e) }, cwd, (t) => placeTexts(t, e.line, e.offset, e.cutAt)),
    { signal },
  );
  return got ? sessionRead(rows, got.name) : undefined;
}

/**
 * One session's touches, as the history index keeps them, edits' texts as their places in
 * the file. Its format's own quick read when it has one and takes the file
 * (SessionFormat.fileOps), else a load that parses only the lines holding a file operation
 * or a prompt (IndexHooks.skim). The same on the main thread and on the history's reader
 * threads (with which a large session is not split across threads again: the cores are busy already).
 */
export async function readSessionTouches(path: string, cwd: string, opts: { signal?: AbortSignal; secondThread?: boolean; formatId?: string } = {}): Promise<SessionRead> {
  // The listing's format first (`formatId`): its quick read takes only a file detection gives
  // it (SessionFormat.fileOps), so the head need not be read twice; any other file is detected.
  const listed = opts.formatId === undefined ? undefined : formatById(opts.formatId);
  if (listed?.fileOps) {
    const got = await quickRead(listed, path, cwd, opts.signal);
    if (got) return got;
  }
  const format = formatOfFile(path);
  if (format.fileOps && format !== listed) {
    const got = await quickRead(format, path, cwd, opts.signal);
    if (got) return got;
  }
  const session = await format.load(path, { signal: opts.signal, secondThread: opts.secondThread, skim: true });
  const bytes = new SessionBytes(path);
  try {
    const rows = new RowWriter();
    sessionTouchesInto(rows, session, cwd, placer(session.metas, bytes));
    return sessionRead(rows, session.format.info(session).name);
  } finally {
    bytes.close();
  }
}
