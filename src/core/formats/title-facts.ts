import type { TitleFacts } from "../util/session-title";
import type { SessionReader } from "../session/session-reader";

/** How far the first prompt is looked for: a title never costs a pass over a huge file. */
const LOOK = 2000;

/** A branch's last user prompt: the nearest user entry on the path root..leaf, by the format's own kinds. */
export function lastPromptOn(session: SessionReader, leaf: number): string | undefined {
  const f = session.format;
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
  const f = session.format;
  const name = f.info(session).name;
  if (name) return { name };
  for (let i = 0; i < Math.min(session.metas.length, LOOK); i++) {
    if (f.describe(session, i).kind === "user" && session.metas[i].preview.trim()) return { firstMessage: session.metas[i].preview };
  }
  return {};
}

/**
 * An entry in a person's words: a message says itself; a bookkeeping entry (a name, a
 * label, a model change) is told by the prompt it follows, else by its type.
 */
export function entryWords(session: SessionReader, i: number): string {
  const d = session.format.describe(session, i);
  if ((d.kind === "user" || d.kind === "assistant") && session.metas[i].preview.trim()) return session.metas[i].preview;
  return lastPromptOn(session, i) ?? d.label;
}

/**
 * Where a fork was made, in words: its last entry copied from the source (the format's
 * inheritedFrom); undefined when the file copied nothing or its format cannot tell.
 */
export function forkPointWords(session: SessionReader): string | undefined {
  const from = session.format.inheritedFrom;
  if (!from) return undefined;
  for (let i = session.metas.length - 1; i >= 0; i--) if (from(session, i) !== undefined) return entryWords(session, i);
  return undefined;
}
