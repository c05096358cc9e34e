import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { listAllSessions, type ListAllResult } from "../core/formats/list-all";
import { openSession } from "../core/formats/registry";
import type { SessionReader } from "../core/session/session-reader";
import { quoted, type StoreScope, storePath, ToolInputError } from "./stores";

/** The listing of every store in scope (cached in our cache folder, like `ase list`). */
export function listScope(scope: StoreScope): Promise<ListAllResult> {
  return listAllSessions({ dirs: scope.dirs, only: scope.only, cacheDir: scope.cacheDir, env: scope.env });
}

/**
 * Sessions by what a client names them with: a path that list_sessions gave (checked to
 * lie in a store), or a session's id. The last one loaded is kept while its file is
 * unchanged: a client paging through a tree or asking for a context and then a cost reads
 * it once.
 */
export class SessionSource {
  private last?: { path: string; stamp: string; session: SessionReader };

  constructor(private readonly scope: StoreScope) {}

  /** The session's file, refusing anything outside the stores. */
  async resolve(given: string): Promise<string> {
    if (isAbsolute(given)) return storePath(this.scope, given);
    if (given.includes("/") || given.includes("\\")) throw new ToolInputError(`session ${quoted(given)} is a relative path: give the absolute path list_sessions returns (or the session's id)`);
    const listing = await listScope(this.scope);
    const matches = listing.projects.flatMap((p) => p.sessions).filter((s) => s.id === given);
    if (!matches.length) throw new ToolInputError(`unknown session ${quoted(given)}: give a path or an id that list_sessions returns`);
    if (matches.length > 1) throw new ToolInputError(`session id ${quoted(given)} names ${matches.length} sessions (${matches.map((m) => m.path).join(", ")}): give its path`);
    return storePath(this.scope, matches[0].path);
  }

  /** The loaded session, turning a load failure into the tool's error. */
  async load(given: string): Promise<SessionReader> {
    const path = await this.resolve(given);
    let stamp: string;
    try {
      const st = statSync(path);
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch (err) {
      // Gone since it was resolved (an agent deleting it).
      throw new ToolInputError(`${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    if (this.last?.path === path && this.last.stamp === stamp) return this.last.session;
    let session: SessionReader;
    try {
      session = await openSession(path);
    } catch (err) {
      throw new ToolInputError(`${path}: ${(err as Error).message.split("\n")[0]}`);
    }
    this.last = { path, stamp, session };
    return session;
  }
}

/** The position of an entry a client named, or the format's default leaf. */
export function entryAt(session: SessionReader, id: string | undefined, field: string): number {
  if (id === undefined) return session.format.defaultLeaf(session);
  const i = session.tree.indexOf(id);
  if (i === undefined) throw new ToolInputError(`${session.path}: no entry with id ${quoted(id)} (given as ${field}; get_tree lists the ids)`);
  return i;
}
