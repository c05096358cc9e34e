import type { FormatContext } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { rebuildHistory } from "./history";
import { codexFacts, hasCodexFacts } from "./session";

/**
 * The history Codex sends when it resumes at a leaf, in Responses-API items, in order,
 * as written (docs/codex-format.md section 5): a fork's inherited part first (attributed
 * to the fork's first entry), then the items on the path to the leaf. The request-time
 * base-instructions message is not part of it (it cannot be rebuilt byte for byte).
 */
export function codexContext(session: SessionReader, leaf: number): FormatContext {
  if (leaf < 0) return { leafId: null, messages: [] };
  // A fork's history starts in its parent, which only a load of the file finds.
  if (!hasCodexFacts(session)) throw new Error(`${session.path}: a Codex context needs the rollout loaded from its file (a fork starts in its parent)`);
  const first = session.metas.length ? session.table.idAt(0) : "";
  const base = codexFacts(session).base.map((m) => ({ ...m, entryId: first }));
  return { leafId: session.table.idAt(leaf), messages: rebuildHistory(session, session.tree.path(leaf), base) };
}
