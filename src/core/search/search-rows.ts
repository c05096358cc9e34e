import { FORMATS } from "../formats/registry";
import type { EntryKind } from "../session/entry-kinds";
import type { SessionFormat } from "../session/session-format";
import type { SessionSummary } from "../store/discover";
import type { SearchPattern } from "./pattern";
import { entryHit } from "./scan-file";
import type { SearchOptions } from "./search-options";
import type { SearchHit, SessionHits } from "./search-types";

/**
 * The search over stores whose sessions are rows, not files (a format with `addresses`
 * whose store lists itself: OpenCode's database). There are no lines to scan for bytes:
 * each listed session is loaded (its store read once, then cached) and every entry's
 * visible text, as the format's search hooks give it, is matched like a line's.
 */

type RowFormat = SessionFormat & { search: NonNullable<SessionFormat["search"]> };

function rowFormats(only?: readonly string[]): RowFormat[] {
  return FORMATS.filter((f): f is RowFormat => !!f.addresses && !!f.search && !!f.discovery?.scanner.listOwn && (!only || only.includes(f.id)));
}

/** Splits the paths a search was given into files and the addresses of row stores. */
export function splitAddresses(paths: readonly string[]): { files: string[]; addresses: Array<{ path: string; format: RowFormat }> } {
  const files: string[] = [];
  const addresses: Array<{ path: string; format: RowFormat }> = [];
  for (const path of paths) {
    const format = rowFormats().find((f) => f.addresses?.(path));
    if (format) addresses.push({ path, format });
    else files.push(path);
  }
  return { files, addresses };
}

async function sessionHits(format: RowFormat, path: string, s: { pattern: SearchPattern; kinds?: ReadonlySet<EntryKind> }, o: SearchOptions, mtimeMs: number, left: number): Promise<{ cwd: string; hits: SearchHit[] }> {
  const session = await format.load(path);
  const cwd = format.info(session).cwd;
  const hits: SearchHit[] = [];
  if (o.project !== undefined && !cwd.includes(o.project)) return { cwd, hits };
  for (let i = 0; i < session.metas.length && hits.length < left; i++) {
    o.signal?.throwIfAborted();
    const lineNo = session.metas[i].line;
    const entry = format.search.entry(session.entryAt(i), { lineNo, version: 0 });
    const hit = entry && entryHit({ ...s, mtimeMs, since: o.since, until: o.until, watch: o.watch }, entry, lineNo);
    if (hit) hits.push(hit);
  }
  return { cwd, hits };
}

/** Every row-store session's hits, newest first, a session's sub-agents' hits with it; `left` says how many more are wanted. */
export async function* searchRowStores(s: { pattern: SearchPattern; kinds?: ReadonlySet<EntryKind>; skipped: Array<{ path: string; reason: string }> }, o: SearchOptions, left: () => number, given?: ReadonlyArray<{ path: string; format: RowFormat }>): AsyncGenerator<SessionHits> {
  const env = o.env ?? process.env;
  const sessions: Array<{ format: RowFormat; summary: Pick<SessionSummary, "path" | "mtimeMs" | "name" | "firstMessage" | "subagents"> }> = [];
  if (given) for (const g of given) sessions.push({ format: g.format, summary: { path: g.path, mtimeMs: Number.NaN, firstMessage: "" } });
  else {
    for (const f of rowFormats(o.only)) {
      const d = f.discovery as NonNullable<SessionFormat["discovery"]>;
      const listed = await (d.scanner.listOwn as NonNullable<typeof d.scanner.listOwn>)(d.root(o.dirs?.[f.id], env), {});
      for (const k of listed.skipped) s.skipped.push(k);
      for (const p of listed.projects) for (const summary of p.sessions) sessions.push({ format: f, summary });
    }
    sessions.sort((a, b) => b.summary.mtimeMs - a.summary.mtimeMs);
  }
  for (const { format, summary } of sessions) {
    if (left() <= 0) return;
    if (o.since !== undefined && summary.mtimeMs < o.since) continue;
    o.onFile?.(summary.path);
    try {
      const own = await sessionHits(format, summary.path, s, o, summary.mtimeMs, left());
      const hits = [...own.hits];
      for (const a of summary.subagents ?? []) {
        if (hits.length >= left()) break;
        const sub = await sessionHits(format, a.path, s, o, a.mtimeMs, left() - hits.length);
        for (const h of sub.hits) hits.push({ ...h, subagent: { agentId: a.agentId, ...(a.description ? { description: a.description } : {}), path: a.path } });
      }
      if (!hits.length) continue;
      const title = summary.name || summary.firstMessage;
      yield { path: summary.path, agent: format.id, cwd: own.cwd, ...(title ? { title } : {}), hits };
    } catch (err) {
      if (o.signal?.aborted) throw err;
      s.skipped.push({ path: summary.path, reason: (err as Error).message });
    }
  }
}
