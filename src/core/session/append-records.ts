import { withArticle } from "../util/human";
import { appendToSession } from "../store/append-line";
import type { JsonlSession } from "./jsonl-session";
import type { IndexHooks } from "../store/index-hooks";
import type { FormatWriter } from "./session-format";
import type { SessionReader } from "./session-reader";

/**
 * What an append needs of a format: its index hooks (id, agent, what a line is) and its
 * writer's refusal of a file. A SessionFormat is one; a format's own writer code passes
 * its hooks alone, so no writer imports its format's module (no import cycle).
 */
export interface AppendingFormat {
  readonly index: IndexHooks;
  readonly writer?: Pick<FormatWriter, "refuses">;
}

/**
 * Appends whole lines in the format's own shape to a session file, all or nothing: each
 * record is read by the format's own index hooks first (it must be an entry, its id new,
 * its parent an entry of the session or an earlier record, null for a root), the file must
 * be as loaded (checked again under the lock), and a short write is undone. The session
 * is refreshed so it holds the new entries. `format` is the writer's own (the registry is
 * not asked: the formats' folders never import it). The one helper every writer appends
 * whole records by (pi's entries, clawdcode's and seed-000's lines).
 */
export async function appendRecords(session: JsonlSession, records: ReadonlyArray<Record<string, unknown>>, format: AppendingFormat): Promise<void> {
  const id = format.index.formatId;
  if (session.formatId !== id) throw new Error(`nothing written: ${session.path} is read as ${session.formatId}, not ${id}`);
  const refused = format.writer?.refuses?.(session);
  if (refused) throw new Error(`nothing written: ${session.path}: ${refused}`);
  session.checkUnchanged();
  let prevId = session.metas.length ? session.metas[session.metas.length - 1].id : null;
  const links = records.map((r, k) => {
    const got = format.index.identify(structuredClone(r), 0, { version: session.version, prevId });
    if (got === null || typeof got === "string") throw new Error(`nothing written: ${session.path}: new line ${k + 1} of ${records.length}: not ${withArticle(format.index.agent)} entry${typeof got === "string" ? ` (${got})` : ""}`);
    prevId = got.id;
    return got;
  });
  assertNewEntries(session, links);
  await appendToSession(session, records);
}

/**
 * Each new entry's id unused and its parent an entry of the session or an earlier new one
 * (null: a root), so the tree stays whole; else an error naming the line and the id.
 */
export function assertNewEntries(session: Pick<SessionReader, "path" | "tree">, entries: ReadonlyArray<{ id: string; parentId: string | null }>): void {
  const fresh = new Set<string>();
  entries.forEach((e, k) => {
    const where = `nothing written: ${session.path}: new line ${k + 1} of ${entries.length}`;
    if (session.tree.indexOf(e.id) !== undefined || fresh.has(e.id)) throw new Error(`${where}: id ${e.id} is already used`);
    if (e.parentId !== null && session.tree.indexOf(e.parentId) === undefined && !fresh.has(e.parentId)) throw new Error(`${where}: parent ${e.parentId} is not an entry of the session`);
    fresh.add(e.id);
  });
}
