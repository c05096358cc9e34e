import { formatOf } from "../core/formats/registry";
import type { SessionReader } from "../core/session/session-reader";
import { leafTokenSummary } from "../core/tokens/format-tokens";
import type { LeafTokenOptions } from "../core/formats/pi/tokens/leaf-tokens";
import type { TokenBar, TokenKind } from "../protocol";
import { barLeaves } from "./bar-leaves";

/**
 * Bars for a session of a format other than pi: the default leaf (where the agent
 * continues), the selected branch and the most recent others, each the leaf's context
 * size (recorded usage still in the context plus estimates) split by what the
 * estimated messages are.
 */
export function formatBars(session: SessionReader, selectedLeaf: number | undefined, opts: LeafTokenOptions = {}): TokenBar[] {
  const tree = session.tree;
  if (!tree.size) return [];
  const format = formatOf(session);
  const def = format.defaultLeaf(session);
  const branchEnd = format.branchEnd ? (leaf: number) => (format.branchEnd as NonNullable<typeof format.branchEnd>)(session, leaf) : undefined;
  return barLeaves(session, def, selectedLeaf, format.agent, branchEnd).map(({ leaf, id, title, selected }) => {
    const t = leafTokenSummary(session, format, leaf, { windows: opts.windows });
    // What the agent sent beside the messages (system prompt, tools: measured from the
    // recorded input) is its own segment; the messages' estimates are scaled to the rest,
    // so the bar adds up to what it says.
    const system = t.overhead && t.overhead.tokens > 0 ? Math.min(t.overhead.tokens, t.contextTokens) : 0;
    const scale = t.estimated > 0 ? (t.contextTokens - system) / t.estimated : 0;
    const byKind: Partial<Record<TokenKind, number>> = {};
    if (system) byKind.system = system;
    for (const [k, n] of Object.entries(t.byKind)) if (n) byKind[k as TokenKind] = Math.round(n * scale);
    return {
      leafId: id,
      title,
      total: t.contextTokens,
      byKind,
      contextWindow: t.contextWindow,
      threshold: t.threshold,
      source: t.source,
      selected,
    } satisfies TokenBar;
  });
}
