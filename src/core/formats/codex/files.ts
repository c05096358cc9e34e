import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { idFromFileName, isRolloutName } from "./lines";

/** What a walk of a Codex home could not read, for the listing's notes. */
export type Unreadable = { path: string; reason: string };

function entries(dir: string, unread?: Unreadable[]) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") unread?.push({ path: dir, reason: `cannot read this folder (${code ?? (err as Error).message}); its sessions are not listed` });
    return [];
  }
}

/**
 * Every rollout under a Codex home (docs/codex-format.md section 1):
 * sessions/YYYY/MM/DD/rollout-*.jsonl and .jsonl.zst, and archived_sessions/ (flat). A
 * plain file wins over its .zst twin (Codex resumes the plain one). Links to folders are
 * not followed; only regular files and links to them are candidates.
 */
export function rolloutFiles(home: string, unread?: Unreadable[]): string[] {
  const found: string[] = [];
  const take = (dir: string) => {
    for (const d of entries(dir, unread)) if ((d.isFile() || d.isSymbolicLink()) && isRolloutName(d.name)) found.push(join(dir, d.name));
  };
  const sessions = join(home, "sessions");
  for (const y of entries(sessions, unread)) {
    if (!y.isDirectory()) continue;
    for (const m of entries(join(sessions, y.name), unread)) {
      if (!m.isDirectory()) continue;
      for (const d of entries(join(sessions, y.name, m.name), unread)) if (d.isDirectory()) take(join(sessions, y.name, m.name, d.name));
    }
  }
  take(join(home, "archived_sessions"));
  const plain = new Set(found.filter((f) => f.endsWith(".jsonl")));
  return found.filter((f) => !(f.endsWith(".zst") && plain.has(f.slice(0, -4))));
}

/** The Codex home a rollout lives in: above sessions/YYYY/MM/DD or archived_sessions; undefined elsewhere. */
export function homeOf(path: string): string | undefined {
  const dir = dirname(path);
  if (basename(dir) === "archived_sessions") return dirname(dir);
  const day = dirname(dirname(dirname(dir)));
  if (basename(day) === "sessions") return dirname(day);
  return undefined;
}

/** The rollout of a thread id beside a file, then among the homes given (the plain file before a .zst), or undefined. */
export function findRollout(homes: readonly string[], id: string, beside?: string): string | undefined {
  if (beside) {
    const names = entries(dirname(beside)).filter((d) => (d.isFile() || d.isSymbolicLink()) && isRolloutName(d.name) && idFromFileName(d.name) === id).map((d) => d.name);
    const hit = names.find((n) => n.endsWith(".jsonl")) ?? names[0];
    if (hit) return join(dirname(beside), hit);
  }
  for (const home of homes) {
    const hit = rolloutFiles(home).find((f) => idFromFileName(basename(f)) === id);
    if (hit) return hit;
  }
  return undefined;
}
