import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { group, type ListResult, type SessionScanner, type SessionSummary } from "../../store/discover";
import { allSessions, firstUserTexts, messageCounts } from "./db-read";
import { legacyFirstPrompt, legacyMessageCount, legacySessionFiles, legacySessionRow } from "./legacy-read";
import { type OcSessionRow, OPENCODE_ID, isObject } from "./records";
import { openDatabase } from "./sqlite-db";
import { readTextFile } from "../../util/safe-open";

/**
 * Where OpenCode keeps its sessions (docs/opencode-format.md section 1): the data dir
 * `$XDG_DATA_HOME/opencode` (default ~/.local/share/opencode on every OS); in it
 * `opencode.db` and channel databases `opencode-<channel>.db`, or what OPENCODE_DB names
 * (an absolute path as is, another value a file name in the data dir); and the legacy
 * storage/ JSON tree. A session in a database and in the legacy tree is listed once.
 */

export const OPENCODE_ROOT_HELP = "setting agentSessions.opencodeHome, else $XDG_DATA_HOME/opencode, else ~/.local/share/opencode (opencode*.db, $OPENCODE_DB, storage/)";

export function opencodeRoot(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit) return explicit;
  const xdg = env.XDG_DATA_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".local", "share"), "opencode");
}

/** The databases of a data dir: OPENCODE_DB's (by OpenCode's rule) first, then opencode.db and channel databases. */
export function opencodeDatabases(dataDir: string, env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  const named = env.OPENCODE_DB;
  if (named && named !== ":memory:") out.push(isAbsolute(named) ? named : join(dataDir, named));
  let names: string[] = [];
  try {
    names = readdirSync(dataDir);
  } catch {
    // No data dir: only OPENCODE_DB's, if any.
  }
  for (const n of names.sort()) if (/^opencode(-[A-Za-z0-9._-]+)?\.db$/.test(n) && !out.includes(join(dataDir, n))) out.push(join(dataDir, n));
  return out.filter((p) => existsSync(p));
}

function summaryOf(path: string, s: OcSessionRow, first: string, count: number, children: OcSessionRow[], childPath: (c: OcSessionRow) => string): SessionSummary {
  return {
    path,
    agent: OPENCODE_ID,
    id: s.id,
    cwd: s.directory,
    created: Number.isFinite(s.created) ? new Date(s.created).toISOString() : "",
    ...(s.title ? { name: s.title } : {}),
    firstMessage: first,
    entryCount: count,
    size: 0,
    mtimeMs: Number.isFinite(s.updated) ? s.updated : 0,
    ...(children.length ? { subagents: children.map((c) => ({ path: childPath(c), agentId: c.id, description: c.title, ...(c.agent ? { agentType: c.agent } : {}), size: 0, mtimeMs: Number.isFinite(c.updated) ? c.updated : 0 })) } : {}),
  };
}

/** Root sessions with their children (task sub-agents) under them. */
function withChildren(rows: OcSessionRow[]): Array<{ s: OcSessionRow; children: OcSessionRow[] }> {
  const ids = new Set(rows.map((r) => r.id));
  const kids = new Map<string, OcSessionRow[]>();
  for (const r of rows) if (r.parentId && ids.has(r.parentId)) kids.set(r.parentId, [...(kids.get(r.parentId) ?? []), r]);
  return rows.filter((r) => !r.parentId || !ids.has(r.parentId)).map((s) => ({ s, children: kids.get(s.id) ?? [] }));
}

/** Lists every database of the data dir, then the legacy tree's sessions not in any of them. */
export async function listOpencode(root: string, env: NodeJS.ProcessEnv): Promise<ListResult> {
  const summaries: SessionSummary[] = [];
  const skipped: ListResult["skipped"] = [];
  const seen = new Set<string>();
  const stats = { files: 0, fromCache: 0, scannedBytes: 0 };
  for (const db of opencodeDatabases(root, env)) {
    stats.files++;
    try {
      const open = await openDatabase(db);
      const rows = allSessions(open);
      const counts = messageCounts(open);
      const firsts = firstUserTexts(open);
      for (const { s, children } of withChildren(rows)) {
        if (seen.has(s.id)) continue;
        seen.add(s.id);
        for (const c of children) seen.add(c.id);
        summaries.push(summaryOf(`${db}#${s.id}`, s, firsts.get(s.id) ?? "", counts.get(s.id) ?? 0, children, (c) => `${db}#${c.id}`));
      }
    } catch (err) {
      skipped.push({ path: db, reason: (err as Error).message });
    }
  }
  const legacy: Array<{ file: string; row: OcSessionRow }> = [];
  for (const file of legacySessionFiles(root)) {
    stats.files++;
    try {
      const data = JSON.parse(readTextFile(file)) as unknown;
      if (!isObject(data)) throw new Error("not a JSON object");
      legacy.push({ file, row: legacySessionRow(file, data) });
    } catch (err) {
      skipped.push({ path: file, reason: (err as Error).message });
    }
  }
  const fileOf = new Map(legacy.map((l) => [l.row.id, l.file]));
  for (const { s, children } of withChildren(legacy.map((l) => l.row).filter((r) => !seen.has(r.id)))) {
    const file = fileOf.get(s.id) as string;
    summaries.push(summaryOf(file, s, legacyFirstPrompt(file), legacyMessageCount(file), children, (c) => fileOf.get(c.id) as string));
  }
  return { projects: group(summaries), skipped, notes: [], stats };
}

/** The listing's scanner: OpenCode's store is listed its own way (listOwn); the file hooks are never reached. */
export const opencodeScanner: SessionScanner = {
  formatId: OPENCODE_ID,
  projectsDir: (root) => root,
  head() {
    throw new Error("OpenCode sessions are rows of its database, not files");
  },
  headerLines: 0,
  listOwn: (root) => listOpencode(root, process.env),
};
