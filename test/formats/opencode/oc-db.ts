import { writeFileSync } from "node:fs";
import { loadSqliteWasm } from "../../../src/core/lazy/lazy-bundles";

/**
 * Builds small OpenCode databases for tests, with the tables and columns OpenCode 1.18.33
 * has (docs/opencode-format.md section 2; only what the reader reads is filled), written
 * as a plain rollback-journal file through the WebAssembly SQLite.
 */

export type J = Record<string, unknown>;

const SCHEMA = `
CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, vcs TEXT, name TEXT, time_created INTEGER, time_updated INTEGER);
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, workspace_id TEXT, parent_id TEXT, slug TEXT, directory TEXT NOT NULL, path TEXT,
  title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT, summary_additions INTEGER, summary_deletions INTEGER, summary_files INTEGER, summary_diffs TEXT,
  metadata TEXT, cost REAL, tokens_input INTEGER, tokens_output INTEGER, tokens_reasoning INTEGER, tokens_cache_read INTEGER, tokens_cache_write INTEGER,
  revert TEXT, permission TEXT, agent TEXT, model TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_compacting INTEGER, time_archived INTEGER);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);
`;

export interface SessionSpec {
  id: string;
  directory?: string;
  title?: string;
  parentId?: string;
  revert?: J;
  agent?: string;
  created?: number;
}

export class OcDb {
  private sql: string[] = [];
  private params: unknown[][] = [];
  private clock = 1_764_000_000_000;

  session(s: SessionSpec): this {
    const t = s.created ?? (this.clock += 1000);
    this.add(
      "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, revert, agent, model, time_created, time_updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
      [s.id, "global", s.parentId ?? null, "slug", s.directory ?? "/home/ana/proj", s.title ?? "a session", "1.18.33", s.revert ? JSON.stringify(s.revert) : null, s.agent ?? null, JSON.stringify({ id: "m1", providerID: "fake" }), t, t + 500],
    );
    return this;
  }

  /** A message and its parts (ids given; part data without ids, as OpenCode stores them). */
  message(sessionId: string, id: string, data: J, parts: Array<[string, J]> = []): this {
    const t = (this.clock += 1000);
    this.add("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?)", [id, sessionId, t, t, JSON.stringify(data)]);
    for (const [pid, pd] of parts) this.add("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?,?)", [pid, id, sessionId, t, t, typeof pd === "string" ? pd : JSON.stringify(pd)]);
    return this;
  }

  /** A raw statement (a row with JSON that does not parse). */
  add(sql: string, params: unknown[]): this {
    this.sql.push(sql);
    this.params.push(params);
    return this;
  }

  async write(path: string): Promise<string> {
    const SQL = await loadSqliteWasm().initSqlJs();
    const db = new SQL.Database();
    db.exec(SCHEMA);
    this.sql.forEach((s, k) => db.exec(s, this.params[k] as Array<string | number | null>));
    writeFileSync(path, db.export());
    db.close();
    return path;
  }
}

export const userMsg = (text: string, extra: J = {}): J => ({ role: "user", time: { created: 1 }, agent: "build", model: { providerID: "fake", modelID: "m1" }, ...extra });
export const asstMsg = (parentID: string, extra: J = {}): J => ({ role: "assistant", parentID, mode: "build", agent: "build", path: { cwd: "/p", root: "/p" }, cost: 0.001, tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } }, modelID: "m1", providerID: "fake", time: { created: 1, completed: 2 }, finish: "stop", ...extra });
export const text = (t: string, extra: J = {}): J => ({ type: "text", text: t, time: { start: 1, end: 2 }, ...extra });
export const stepStart = (): J => ({ type: "step-start", snapshot: "abc" });
export const stepFinish = (cost = 0.004056, tokens: J = { total: 1248, input: 1222, output: 26, reasoning: 0, cache: { read: 0, write: 0 } }): J => ({ type: "step-finish", reason: "stop", snapshot: "def", tokens, cost });
export const tool = (callID: string, name: string, input: J, state: J): J => ({ type: "tool", callID, tool: name, state: { input, time: { start: 1, end: 2 }, ...state } });
