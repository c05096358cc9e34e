import type { EntryTokenTable, LeafBar } from "../../../session/session-format";
import type { TokenKind } from "../../../tokens/token-vocabulary";
import { buildContext } from "../context/build-context";
import { asPi } from "../pi-session";
import { instantTokens, measureEntries } from "./entry-tokens";
import { contextShares, leafTokens } from "./leaf-tokens";

/**
 * pi's per-entry token table: its chars/4 figures from the index at once, bodies measured
 * (and counted exactly) later. A bar's total is pi's context size (recorded usage where it
 * exists); the split by kind comes from the table, so it improves as counts come in.
 */
export const piTokenTable: EntryTokenTable = {
  instant: (session, from) => instantTokens(asPi(session), from),
  measure: (session, table, opts) => measureEntries(asPi(session), table, opts),
  bar(session, table, leaf, opts): LeafBar {
    const ctx = buildContext(asPi(session), session.metas[leaf].id);
    const lt = leafTokens(ctx, opts);
    const shares = contextShares(asPi(session), table, ctx, lt.contextTokens);
    const byKind: Partial<Record<TokenKind, number>> = {};
    // The recorded size beyond the messages is what pi sent beside them (system prompt, tools).
    if (lt.recorded > 0 && shares.overhead > 0) byKind.system = shares.overhead;
    for (const part of shares.parts) {
      for (const [k, n] of Object.entries(part.byKind) as Array<[TokenKind, number]>) if (n) byKind[k] = (byKind[k] ?? 0) + n;
    }
    return {
      total: lt.contextTokens,
      byKind,
      contextWindow: lt.contextWindow,
      threshold: lt.threshold,
      source: lt.recorded > 0 ? "recorded" : shares.method === "exact" ? "exact" : "estimate",
    };
  },
};
