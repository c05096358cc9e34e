import { type OcMessage, type OcSessionRow, type OcStored, isObject, type Json } from "./records";
import type { OpenDb, Row } from "./sqlite-db";

/**
 * Sessions, messages and parts out of OpenCode's database (docs/opencode-format.md
 * sections 2-3): messages ordered by (time_created, id) and parts by id, as OpenCode
 * orders them; `data` parsed, a row whose JSON does not parse reported by id, not fatal.
 */

const SESSION_COLUMNS = "id, parent_id, directory, title, version, agent, revert, model, time_created, time_updated";

const str = (v: unknown): string => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const num = (v: unknown): number => (typeof v === "number" ? v : Number(v ?? Number.NaN));

function parseJson(text: unknown, what: string, problems: OcStored["problems"]): Json | undefined {
  if (text === null || text === undefined || text === "") return undefined;
  try {
    const v = JSON.parse(str(text)) as unknown;
    if (isObject(v)) return v;
    problems.push({ line: 0, message: `${what}: its JSON is not an object` });
  } catch (err) {
    problems.push({ line: 0, message: `${what}: its JSON does not parse (${(err as Error).message})` });
  }
  return undefined;
}

export function sessionOf(r: Row, problems: OcStored["problems"] = []): OcSessionRow {
  const id = str(r.id);
  const revert = parseJson(r.revert, `session ${id}: revert`, problems);
  const model = parseJson(r.model, `session ${id}: model`, problems);
  return {
    id,
    parentId: r.parent_id === null || r.parent_id === undefined ? null : str(r.parent_id),
    directory: str(r.directory),
    title: str(r.title),
    version: str(r.version),
    ...(r.agent ? { agent: str(r.agent) } : {}),
    created: num(r.time_created),
    updated: num(r.time_updated),
    ...(revert ? { revert } : {}),
    ...(model ? { model } : {}),
  };
}

/** Every session row of a database (the listing). */
export function allSessions(db: OpenDb): OcSessionRow[] {
  return db.all(`SELECT ${SESSION_COLUMNS} FROM session`).map((r) => sessionOf(r));
}

/** Messages per session (the listing's entry counts). */
export function messageCounts(db: OpenDb): Map<string, number> {
  return new Map(db.all("SELECT session_id, count(*) AS n FROM message GROUP BY session_id").map((r) => [str(r.session_id), num(r.n)]));
}

/** Each session's first text the user typed (not OpenCode's synthetic texts). */
export function firstUserTexts(db: OpenDb): Map<string, string> {
  const rows = db.all(
    `SELECT p.session_id AS sid, json_extract(p.data, '$.text') AS text FROM part p JOIN message m ON m.id = p.message_id
     WHERE json_valid(m.data) AND json_valid(p.data) AND json_extract(m.data, '$.role') = 'user' AND json_extract(p.data, '$.type') = 'text'
       AND coalesce(json_extract(p.data, '$.synthetic'), 0) = 0
     ORDER BY p.session_id, m.time_created, m.id, p.id`,
  );
  const out = new Map<string, string>();
  for (const r of rows) if (!out.has(str(r.sid))) out.set(str(r.sid), str(r.text));
  return out;
}

/**
 * What changes when a session's rows do: its own row's update time and revert, and the
 * count, newest and summed update times of its children, messages and parts. OpenCode sets
 * a row's time_updated at every write (a part rewritten as it streams too; every row of the
 * recorded fixtures has it past time_created), so the times tell a change without the rows'
 * data, and a write to another session is told apart. The sum is taken modulo 10^6 so that
 * SQLite's integers and JavaScript's numbers add it up exactly alike.
 */
const TIMES = "count(*) || ':' || coalesce(max(time_updated), 0) || ':' || coalesce(sum(time_updated % 1000000), 0)";

/** The rows stamp as the database holds it now (a refresh asks this of the new picture). */
export function sessionRowsStamp(db: OpenDb, sessionId: string): string {
  const r = db.all(
    `SELECT (SELECT time_updated || ':' || coalesce(revert, '') FROM session WHERE id = ?1) AS s,
       (SELECT ${TIMES} FROM session WHERE parent_id = ?1) AS c,
       (SELECT ${TIMES} FROM message WHERE session_id = ?1) AS m,
       (SELECT ${TIMES} FROM part WHERE session_id = ?1) AS p`,
    [sessionId],
  )[0];
  return [r?.s, r?.c, r?.m, r?.p].map(str).join("|");
}

/** The same stamp from rows a read fetched anyway (TIMES in JavaScript): no second pass over the parts. */
function rowsStampOf(session: Row, children: Row[], messages: Row[], parts: Row[]): string {
  const times = (rows: Row[]) => {
    let max = 0;
    let sum = 0;
    for (const r of rows) {
      const t = num(r.time_updated);
      max = Math.max(max, t);
      sum += t % 1_000_000;
    }
    return `${rows.length}:${max}:${sum}`;
  };
  return [`${str(session.time_updated)}:${str(session.revert)}`, times(children), times(messages), times(parts)].join("|");
}

/** One session with its messages and parts, or undefined when the database has no such session. */
export function readDbSession(db: OpenDb, sessionId: string): OcStored | undefined {
  const problems: OcStored["problems"] = [];
  const row = db.all(`SELECT ${SESSION_COLUMNS} FROM session WHERE id = ?`, [sessionId])[0];
  if (!row) return undefined;
  const session = sessionOf(row, problems);
  const messages: OcMessage[] = [];
  const byId = new Map<string, OcMessage>();
  // (time_created, id) as OpenCode orders them; sorted here for the same reason as the parts below.
  const messageRows = db.all("SELECT id, time_created, time_updated, data FROM message WHERE session_id = ?", [sessionId]).sort((a, b) => num(a.time_created) - num(b.time_created) || (str(a.id) < str(b.id) ? -1 : str(a.id) > str(b.id) ? 1 : 0));
  for (const r of messageRows) {
    const id = str(r.id);
    const data = parseJson(r.data, `message ${id}`, problems) ?? { role: "unknown", unreadable: true };
    const m: OcMessage = { id, created: num(r.time_created), data, parts: [] };
    messages.push(m);
    byId.set(id, m);
  }
  // Sorted here, not by SQLite: its sort of large rows in WebAssembly took seconds for 20,000 parts (ids are ASCII: code-unit order is SQLite's binary order).
  const partRows = db.all("SELECT id, message_id, time_updated, data FROM part WHERE session_id = ?", [sessionId]).sort((a, b) => (str(a.id) < str(b.id) ? -1 : str(a.id) > str(b.id) ? 1 : 0));
  for (const r of partRows) {
    const id = str(r.id);
    const m = byId.get(str(r.message_id));
    if (!m) {
      problems.push({ line: 0, message: `part ${id}: its message ${str(r.message_id)} is not in the session; left out` });
      continue;
    }
    m.parts.push({ id, data: parseJson(r.data, `part ${id}`, problems) ?? { type: "unreadable" } });
  }
  const childRows = db.all(`SELECT ${SESSION_COLUMNS} FROM session WHERE parent_id = ?`, [sessionId]);
  const children = new Map(childRows.map((r) => [str(r.id), sessionOf(r)]));
  return { address: `${db.path}#${sessionId}`, session, messages, children, problems, rowsStamp: rowsStampOf(row, childRows, messageRows, partRows) };
}
