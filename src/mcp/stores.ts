import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { FORMATS } from "../core/formats/registry";
import { clipText, shownField } from "../core/util/visible-text";

/** What the server reads: the agents' stores as `ase list` resolves them. */
export interface StoreScope {
  /** Explicit roots by format id (`--dir`); the rest come from the environment or home. */
  dirs: Record<string, string>;
  /** Only these agents (`--agent`, or those given a `--dir`); undefined: all with a store. */
  only?: string[];
  env: NodeJS.ProcessEnv;
  /** Our own cache folder (the listing's summaries); undefined: no cache is written. */
  cacheDir?: string;
}

/** A tool input the server refuses: the message goes back to the client as the tool's error. */
export class ToolInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolInputError";
  }
}

/** Session text or a client's string inside an error message: one line, clipped. */
export const quoted = (s: string) => `"${shownField(clipText(s, 200))}"`;

/** Every store the scope reads: agent and root folder, the root as given and as the file system resolves it. */
export function storeRoots(scope: StoreScope): Array<{ agent: string; root: string; real: string }> {
  return FORMATS.filter((f) => f.discovery && (!scope.only || scope.only.includes(f.id))).map((f) => {
    const root = resolve((f.discovery as NonNullable<typeof f.discovery>).root(scope.dirs[f.id], scope.env));
    return { agent: f.id, root, real: realOrSelf(root) };
  });
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

const inside = (root: string, p: string) => {
  const rel = relative(root, p);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
};

/**
 * A session path a client gave, checked to lie inside one of the stores: absolute only
 * (a relative path has no meaning to a server whose cwd the client does not know), and
 * inside both as written (`..` resolved) and as the file system resolves it, so neither
 * `../` nor a link leads out. Throws ToolInputError saying which rule it broke.
 */
export function storePath(scope: StoreScope, given: string): string {
  if (!isAbsolute(given)) throw new ToolInputError(`session ${quoted(given)} is neither an absolute path nor a session id that list_sessions returns`);
  const roots = storeRoots(scope);
  const p = resolve(given);
  const where = roots.map((r) => `${r.root} (${r.agent})`).join(", ");
  if (!roots.some((r) => inside(r.root, p) || inside(r.real, p))) throw new ToolInputError(`session path ${quoted(given)} is outside the agents' stores (${where}): this server reads only those`);
  let real: string;
  try {
    real = realpathSync(p);
  } catch {
    throw new ToolInputError(`no session file at ${quoted(given)}`);
  }
  if (!roots.some((r) => inside(r.real, real))) throw new ToolInputError(`session path ${quoted(given)} leads outside the agents' stores through a link (to ${quoted(real)})`);
  return real;
}

/**
 * Whether a path the listing or a search found may be shown: a store can hold a link to a
 * file elsewhere (the walk follows it), which the server neither reads nor names.
 */
export function readable(scope: StoreScope, path: string): boolean {
  try {
    storePath(scope, path);
    return true;
  } catch {
    return false;
  }
}
