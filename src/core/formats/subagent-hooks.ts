import type { SubagentRef } from "./entry-view";
import type { SessionReader } from "./session-reader";

/**
 * How a format's sub-agents hang in its sessions (Claude Code's Task/Agent calls): the
 * explorer nests a sub-agent's own entries under the row of the call that started it,
 * reading them only when that row is expanded.
 */
export interface SubagentHooks {
  /**
   * The sub-agents entry i started, in call order; empty for any other entry (and for the
   * earlier lines of a response written over several: its row, the last line, names them).
   * Asked for every row of a page, so cheap where the entry starts none.
   */
  startedBy(session: SessionReader, i: number): SubagentRef[];
  /**
   * Sub-agents written inline in the session's own file: the first of their lines -> the
   * entry (row) that started them. These lines are no root of the tree: they show nested
   * under that entry. Kept per session while it does not grow.
   */
  inlineRoots(session: SessionReader): ReadonlyMap<number, number>;
}
