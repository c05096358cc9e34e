// The expected facts manifest.json records per session, read back from the recorded store
// (a scratch copy of the database, so nothing is ever created next to the fixture), or from
// the legacy storage/ JSON tree.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function query(db, sql) {
  const out = execFileSync("sqlite3", ["-json", db, sql], { encoding: "utf8" });
  return out.trim() ? JSON.parse(out) : [];
}

/** Runs `read(db)` on a scratch copy of the fixture's database (with its -wal unless told not to). */
function onCopy(dataDir, withWal, read) {
  const tmp = mkdtempSync(join(tmpdir(), "ase-oc-facts-"));
  try {
    copyFileSync(join(dataDir, "opencode.db"), join(tmp, "opencode.db"));
    if (withWal && existsSync(join(dataDir, "opencode.db-wal"))) copyFileSync(join(dataDir, "opencode.db-wal"), join(tmp, "opencode.db-wal"));
    return read(join(tmp, "opencode.db"));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Counts and flags of one session from its message and part rows (data JSON without ids). */
function summarize(session, messages, parts) {
  const partTypes = {};
  for (const p of parts) partTypes[p.type] = (partTypes[p.type] ?? 0) + 1;
  return {
    id: session.id,
    title: session.title,
    parentId: session.parentId ?? null,
    messages: messages.length,
    userMessages: messages.filter((m) => m.role === "user").length,
    assistantMessages: messages.filter((m) => m.role === "assistant").length,
    parts: parts.length,
    partTypes,
    toolErrors: parts.filter((p) => p.type === "tool" && p.state?.status === "error").length,
    compaction: parts.some((p) => p.type === "compaction"),
    summaryMessage: messages.some((m) => m.role === "assistant" && m.summary === true),
    revert: session.revert ?? null,
  };
}

/** Facts of every session of a recorded database, roots first, each in creation order. */
export function sessionFacts(dataDir, scenario) {
  const read = (db) =>
    query(db, "select id, parent_id as parentId, title, revert from session order by parent_id is not null, time_created, id").map((s) => {
      const messages = query(db, `select data from message where session_id = '${s.id}' order by time_created, id`).map((r) => JSON.parse(r.data));
      const parts = query(db, `select data from part where session_id = '${s.id}' order by id`).map((r) => JSON.parse(r.data));
      return summarize({ ...s, revert: s.revert ? JSON.parse(s.revert) : null }, messages, parts);
    });
  const sessions = onCopy(dataDir, true, read);
  if (scenario.wal) {
    const mainOnly = onCopy(dataDir, false, (db) => Object.fromEntries(query(db, "select session_id as id, count(*) as n from message group by session_id").map((r) => [r.id, r.n])));
    for (const s of sessions) s.messagesWithoutWal = mainOnly[s.id] ?? 0;
    if (sessions.every((s) => s.messagesWithoutWal === s.messages)) throw new Error("wal: every message is already in opencode.db; nothing is left only in the WAL");
  }
  return sessions;
}

const jsonFiles = (dir) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith(".json")).sort() : []);
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/** Facts of the sessions of a legacy storage/ tree; ids from the file names, as the migration does. */
export function legacySessions(storage) {
  const sessions = [];
  const root = join(storage, "session");
  for (const project of existsSync(root) ? readdirSync(root).sort() : []) {
    for (const name of jsonFiles(join(root, project))) {
      const s = readJson(join(root, project, name));
      const id = name.slice(0, -5);
      const messages = jsonFiles(join(storage, "message", id)).map((n) => ({ id: n.slice(0, -5), ...readJson(join(storage, "message", id, n)) }));
      const parts = messages.flatMap((m) => jsonFiles(join(storage, "part", m.id)).map((n) => readJson(join(storage, "part", m.id, n))));
      sessions.push({ ...summarize({ id, title: s.title, parentId: s.parentID, revert: s.revert }, messages, parts), projectId: project, created: s.time?.created ?? 0 });
    }
  }
  return sessions.sort((a, b) => (a.parentId ? 1 : 0) - (b.parentId ? 1 : 0) || a.created - b.created).map(({ created, ...s }) => s);
}
