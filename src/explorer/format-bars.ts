import type { LeafBar } from "../core/session/session-format";
import type { SessionReader } from "../core/session/session-reader";
import type { EntryTokens } from "../core/tokens/entry-tokens";
import { leafTokenSummary } from "../core/usage/format-tokens";
import type { LeafTokenOptions } from "../core/tokens/leaf-token-options";
import type { TokenBar, TokenKind } from "../protocol";
import { barLeaves } from "./bar-leaves";

/**
 * The bars a panel draws for a session of any format: the default leaf (where the agent
 * continues), the selected branch and the most recent others. A format with a per-entry
 * token table of its own (pi) draws each bar from it (`table`: its figures so far, else
 * its instant ones); the others draw the leaf's context size (recorded usage still in
 * the context plus estimates) split by what the estimated messages are.
 */
export function formatBars(session: SessionReader, selectedLeaf: number | undefined, opts: LeafTokenOptions = {}, table?: readonly EntryTokens[]): TokenBar[] {
  const tree = session.tree;
  if (!tree.size) return [];
  const format = session.format;
  const def = format.defaultLeaf(session);
  const branchEnd = format.branchEnd ? (leaf: number) => (format.branchEnd as NonNullable<typeof format.branchEnd>)(session, leaf) : undefined;
  const own = format.tokenTable;
  const figures = own && (table ?? own.instant(session));
  return barLeaves(session, def, selectedLeaf, format.agent, branchEnd).map(({ leaf, id, title, selected }) => ({
    leafId: id,
    title,
    ...(own && figures ? own.bar(session, figures, leaf, opts) : estimatedBar(session, leaf, opts)),
    selected,
  }));
}

/** A leaf's bar from recorded usage and estimates of its context. */
function estimatedBar(session: SessionReader, leaf: number, opts: LeafTokenOptions): LeafBar {
  const t = leafTokenSummary(session, session.format, leaf, { windows: opts.windows });
  // What the agent sent beside the messages (system prompt, tools: measured from the
  // recorded input) is its own segment; the messages' estimates are scaled to the rest,
  // so the bar adds up to what it says.
  const system = t.overhead && t.overhead.tokens > 0 ? Math.min(t.overhead.tokens, t.contextTokens) : 0;
  const scale = t.estimated > 0 ? (t.contextTokens - system) / t.estimated : 0;
  const byKind: Partial<Record<TokenKind, number>> = {};
  if (system) byKind.system = system;
  for (const [k, n] of Object.entries(t.byKind)) if (n) byKind[k as TokenKind] = Math.round(n * scale);
  return { total: t.contextTokens, byKind, contextWindow: t.contextWindow, threshold: t.threshold, source: t.source };
}
