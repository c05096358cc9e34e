import type { TokenBar, TokenKind } from "../protocol";
import { barLeaves } from "./bar-leaves";
import { buildContext } from "../core/formats/pi/context/build-context";
import type { Session } from "../core/formats/pi/pi-session";
import type { EntryTokens } from "../core/formats/pi/tokens/entry-tokens";
import { contextShares, leafTokens, type LeafTokenOptions } from "../core/formats/pi/tokens/leaf-tokens";


/**
 * The bars a panel draws: the default leaf's context, the selected leaf's, and the most
 * recent other branches. Each total is pi's context size (recorded usage where it
 * exists); the split by kind comes from the per-entry table (estimates at first, exact
 * or calibrated counts once they are in).
 */
export function tokenBars(session: Session, table: readonly EntryTokens[], selectedLeaf: number | undefined, opts: LeafTokenOptions = {}): TokenBar[] {
  const tree = session.tree;
  if (!tree.size) return [];
  return barLeaves(session, tree.defaultLeaf, selectedLeaf, "pi").map(({ id, title, selected }) => {
    const ctx = buildContext(session, id);
    const lt = leafTokens(ctx, opts);
    const shares = contextShares(session, table, ctx, lt.contextTokens);
    const byKind: Partial<Record<TokenKind, number>> = {};
    // The recorded size beyond the messages is what pi sent beside them (system prompt, tools).
    if (lt.recorded > 0 && shares.overhead > 0) byKind.system = shares.overhead;
    for (const part of shares.parts) {
      for (const [k, n] of Object.entries(part.byKind) as Array<[TokenKind, number]>) if (n) byKind[k] = (byKind[k] ?? 0) + n;
    }
    return {
      leafId: id,
      title,
      total: lt.contextTokens,
      byKind,
      contextWindow: lt.contextWindow,
      threshold: lt.threshold,
      source: lt.recorded > 0 ? "recorded" : shares.method === "exact" ? "exact" : "estimate",
      selected,
    } satisfies TokenBar;
  });
}
