import { formatOf } from "../core/formats/registry";
import type { SessionReader } from "../core/formats/session-reader";
import { leafTokenSummary } from "../core/tokens/format-tokens";
import type { LeafTokenOptions } from "../core/formats/pi/tokens/leaf-tokens";
import type { TokenBar, TokenKind } from "../protocol";

/** How many other branches get a bar besides the default and the selected leaf. */
const OTHER_BRANCHES = 6;

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
  const leaves: Array<[number, string]> = [[def, `Default leaf (where ${format.agent} continues)`]];
  if (selectedLeaf !== undefined && selectedLeaf !== def) leaves.push([selectedLeaf, "Selected branch"]);
  const others = tree.leaves().filter((l) => l !== def && l !== selectedLeaf);
  for (const l of others.slice(-OTHER_BRANCHES).reverse()) leaves.push([l, `Branch ending at ${session.metas[l].id}`]);
  return leaves.map(([leaf, title]) => {
    const id = session.metas[leaf].id;
    const t = leafTokenSummary(session, format, leaf, { windows: opts.windows });
    // The split is of the estimates; scaled to the total so the bar adds up to what it says.
    const scale = t.estimated > 0 ? t.contextTokens / t.estimated : 0;
    const byKind: Partial<Record<TokenKind, number>> = {};
    for (const [k, n] of Object.entries(t.byKind)) if (n) byKind[k as TokenKind] = Math.round(n * scale);
    const label = tree.labels.get(id);
    return {
      leafId: id,
      title: label ? `${title} [${label}]` : title,
      total: t.contextTokens,
      byKind,
      contextWindow: t.contextWindow,
      threshold: t.threshold,
      source: t.source,
      selected: leaf === (selectedLeaf ?? def),
    } satisfies TokenBar;
  });
}
