import type { SessionReader } from "../../session/session-reader";

/**
 * pi's one default-leaf rule, used by every pi code path and by the format's
 * `defaultLeaf` hook: pi continues from the last entry of the file (an append moves the
 * leaf, a branch_summary moves it back), so the last line is the leaf; -1 when empty.
 */
export function piDefaultLeaf(session: Pick<SessionReader, "metas">): number {
  return session.metas.length - 1;
}
