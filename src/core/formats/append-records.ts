import { appendLines, NothingWrittenError } from "../store/append-line";
import type { JsonlSession } from "../store/session";
import type { SessionFormat } from "./session-format";

/**
 * Appends whole lines in the format's own shape to a session file, all or nothing: each
 * record is read by the format's own index hooks first (it must be an entry, its id new,
 * its parent an entry of the session or an earlier record, null for a root), the file must
 * be as loaded (checked again under the lock), and a short write is undone. The session
 * is refreshed so it holds the new entries. `format` is the writer's own (the registry is
 * not asked: the formats' folders never import it).
 */
export async function appendRecords(session: JsonlSession, records: ReadonlyArray<Record<string, unknown>>, format: SessionFormat): Promise<void> {
  if (session.formatId !== format.id) throw new Error(`nothing written: ${session.path} is read as ${session.formatId}, not ${format.id}`);
  const refused = format.writer?.refuses?.(session);
  if (refused) throw new Error(`nothing written: ${session.path}: ${refused}`);
  session.checkUnchanged();
  const fresh = new Set<string>();
  let prevId = session.metas.length ? session.metas[session.metas.length - 1].id : null;
  records.forEach((r, k) => {
    const where = `nothing written: ${session.path}: new line ${k + 1} of ${records.length}`;
    const got = format.index.identify(structuredClone(r), 0, { version: session.version, prevId });
    if (got === null || typeof got === "string") throw new Error(`${where}: not a ${format.agent} entry${typeof got === "string" ? ` (${got})` : ""}`);
    if (session.tree.indexOf(got.id) !== undefined || fresh.has(got.id)) throw new Error(`${where}: id ${got.id} is already used`);
    if (got.parentId !== null && session.tree.indexOf(got.parentId) === undefined && !fresh.has(got.parentId)) throw new Error(`${where}: parent ${got.parentId} is not an entry of the session`);
    fresh.add(got.id);
    prevId = got.id;
  });
  if (!records.length) return;
  const text = records.map((r) => JSON.stringify(r)).join("\n");
  try {
    // A last line without newline (a torn write) must not swallow the first of ours.
    appendLines(session.path, session.stamp, `${session.endsWithNewline ? "" : "\n"}${text}\n`);
  } catch (err) {
    // Cut back to the same bytes: the file has a new mtime only, still the session as loaded.
    const after = err instanceof NothingWrittenError ? err.stampAfter : undefined;
    if (after && after.size === session.stamp.size && after.ino === session.stamp.ino) session.stamp = after;
    throw err;
  }
  await session.refresh();
}
