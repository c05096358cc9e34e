import type { TitleFacts } from "../util/session-title";
import { formatOf } from "./registry";
import type { SessionReader } from "./session-reader";

/** How far the first prompt is looked for: a title never costs a pass over a huge file. */
const LOOK = 2000;

/** A branch's last user prompt: the nearest user entry on the path root..leaf, by the format's own kinds. */
export function lastPromptOn(session: SessionReader, leaf: number): string | undefined {
  const f = formatOf(session);
  const path = session.tree.path(leaf);
  for (let k = path.length - 1; k >= 0; k--) {
    const i = path[k];
    if (f.describe(session, i).kind === "user" && session.metas[i].preview.trim()) return session.metas[i].preview;
  }
  return undefined;
}

/**
 * What a loaded session says of its title (for a file the listing does not hold): the
 * format's name for it, else the first user prompt in file order.
 */
export function loadedTitleFacts(session: SessionReader): TitleFacts {
  const f = formatOf(session);
  const name = f.info(session).name;
  if (name) return { name };
  for (let i = 0; i < Math.min(session.metas.length, LOOK); i++) {
    if (f.describe(session, i).kind === "user" && session.metas[i].preview.trim()) return { firstMessage: session.metas[i].preview };
  }
  return {};
}
