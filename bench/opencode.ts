import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listOpencode } from "../src/core/formats/opencode/discover";
import { openSession } from "../src/core/formats/registry";
import { treeRows } from "../src/core/formats/tree-rows";
import { loadSqliteWasm } from "../src/core/lazy/lazy-bundles";

/**
 * OpenCode's store (issue 29): a database of 1,000 sessions listed (the second listing,
 * warm: the database copy is cached while its stamp holds), and a 10,000-message session
 * opened to its first rows. The databases are built here in OpenCode 1.18's schema.
 */

const SCHEMA = `
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, directory TEXT, title TEXT, version TEXT, agent TEXT, revert TEXT, model TEXT, time_created INTEGER, time_updated INTEGER);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_session_idx ON part (session_id);`;

const pad = (n: number) => String(n).padStart(8, "0");

async function build(path: string, sessions: number, messagesEach: number): Promise<void> {
  const SQL = await loadSqliteWasm().initSqlJs();
  const db = new SQL.Database();
  db.exec(SCHEMA);
  db.exec("BEGIN");
  const t0 = 1_764_000_000_000;
  for (let s = 0; s < sessions; s++) {
    const sid = `ses_${pad(s)}`;
    db.exec("INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?,?,?)", [sid, "global", null, `/w/p${s % 20}`, `session ${s}`, "1.18.33", null, null, null, t0 + s, t0 + s + 1]);
    for (let m = 0; m < messagesEach; m++) {
      const mid = `msg_${pad(s)}_${pad(m)}`;
      const user = m % 2 === 0;
      const data = user ? { role: "user", model: { providerID: "fake", modelID: "m1" } } : { role: "assistant", parentID: `msg_${pad(s)}_${pad(m - 1)}`, modelID: "m1", providerID: "fake", finish: "stop" };
      db.exec("INSERT INTO message VALUES (?,?,?,?,?)", [mid, sid, t0 + m, t0 + m, JSON.stringify(data)]);
      const parts = user ? [{ type: "text", text: `question ${m} ${"lorem ipsum ".repeat(10)}` }] : [{ type: "step-start" }, { type: "text", text: `answer ${m} ${"dolor sit amet ".repeat(20)}` }, { type: "step-finish", reason: "stop", cost: 0.001, tokens: { input: 1000 + m, output: 50, reasoning: 0, cache: { read: 0, write: 0 } } }];
      parts.forEach((p, k) => db.exec("INSERT INTO part VALUES (?,?,?,?,?,?)", [`prt_${pad(s)}_${pad(m)}_${k}`, mid, sid, t0 + m, t0 + m, JSON.stringify(p)]));
    }
  }
  db.exec("COMMIT");
  writeFileSync(path, db.export());
  db.close();
}

export async function benchOpencode(opts: { work: string; report: (what: string, got: string, target: string, ok: boolean) => void; log: (line: string) => void }): Promise<void> {
  const listDir = join(opts.work, "opencode-1000");
  mkdirSync(listDir, { recursive: true });
  await build(join(listDir, "opencode.db"), 1000, 4);
  await listOpencode(listDir, {});
  const t0 = performance.now();
  const listed = await listOpencode(listDir, {});
  const warm = performance.now() - t0;
  const count = listed.projects.reduce((n, p) => n + p.sessions.length, 0);
  opts.log(`  listed ${count} OpenCode sessions (warm) in ${warm.toFixed(0)} ms`);
  opts.report("OpenCode: list a 1,000-session database, warm", `${warm.toFixed(0)} ms`, "< 1000 ms", warm < 1000 && count === 1000);

  const bigDir = join(opts.work, "opencode-big");
  mkdirSync(bigDir, { recursive: true });
  const db = join(bigDir, "opencode.db");
  await build(db, 1, 10_000);
  const t1 = performance.now();
  const s = await openSession(`${db}#ses_${pad(0)}`);
  const rows = treeRows(s, { filter: "default" }).slice(0, 128);
  const first = performance.now() - t1;
  opts.log(`  10,000-message OpenCode session: ${s.metas.length} entries, first ${rows.length} rows in ${first.toFixed(0)} ms (cold: the database read, its WebAssembly SQLite started)`);
  opts.report("OpenCode: open a 10,000-message session to its first rows", `${first.toFixed(0)} ms`, "< 1000 ms", first < 1000);
}
