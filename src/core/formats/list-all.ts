import { join } from "node:path";
import { group, listWith, type ListResult, type SessionSummary } from "../store/discover";
import { FORMATS } from "./registry";

export interface ListAllOptions {
  /** Explicit roots by format id (a setting, `--dir`); the rest come from the environment or home. */
  dirs?: Record<string, string | undefined>;
  /** Only these format ids. */
  only?: readonly string[];
  /** Folder for the summary caches (one file per agent); none: no cache. */
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Heads only where a store allows it (ListOptions.headsOnly): for the per-file history alone, which reads every file itself. */
  headsOnly?: boolean;
  /** Told of each session as a store's listing finds it (ListOptions.onSummary). */
  onSummary?: (s: SessionSummary) => void;
}

export interface ListAllResult extends ListResult {
  /** The root each agent was listed from, and how many sessions it had. */
  roots: Array<{ agent: string; root: string; sessions: number }>;
}

/** The cache file of one agent's summaries (pi's keeps its old name); `heads`: of a heads-only listing's. */
export function listCacheFile(cacheDir: string, formatId: string, heads = false): string {
  if (heads) return join(cacheDir, `list-heads-cache-${formatId}.json`);
  return join(cacheDir, formatId === "pi" ? "list-cache.json" : `list-cache-${formatId}.json`);
}

/**
 * Every session of every agent with a store, grouped by project (the cwd the sessions
 * name), newest first: the Sessions view's and `ase list`'s one listing.
 */
export async function listAllSessions(opts: ListAllOptions = {}): Promise<ListAllResult> {
  const env = opts.env ?? process.env;
  const formats = FORMATS.filter((f) => f.discovery && (!opts.only || opts.only.includes(f.id)));
  const results = await Promise.all(
    formats.map(async (f) => {
      const d = f.discovery as NonNullable<typeof f.discovery>;
      const root = d.root(opts.dirs?.[f.id], env);
      const cacheFile = (heads: boolean) => (opts.cacheDir ? listCacheFile(opts.cacheDir, f.id, heads) : undefined);
      const res = await listWith(d.scanner, root, { cacheFile: cacheFile(false), signal: opts.signal, headsOnly: opts.headsOnly ? { cacheFile: cacheFile(true) } : undefined, onSummary: opts.onSummary });
      return { agent: f.id, root, res };
    }),
  );
  const all: SessionSummary[] = [];
  const out: ListAllResult = { projects: [], skipped: [], notes: [], stats: { files: 0, fromCache: 0, scannedBytes: 0 }, roots: [] };
  for (const { agent, root, res } of results) {
    let n = 0;
    for (const p of res.projects) {
      n += p.sessions.length;
      for (const s of p.sessions) all.push(s);
    }
    for (const s of res.skipped) out.skipped.push(s);
    for (const n of res.notes) out.notes.push(n);
    out.stats.files += res.stats.files;
    out.stats.fromCache += res.stats.fromCache;
    out.stats.scannedBytes += res.stats.scannedBytes;
    out.roots.push({ agent, root, sessions: n });
  }
  out.projects = group(all);
  return out;
}
