import { stat } from "node:fs/promises";
import { formatOf, openSession } from "../core/formats/registry";
import { leafTokenSummary } from "../core/tokens/format-tokens";
import type { PriceOverrides } from "../core/tokens/prices";
import { sessionCost } from "../core/tokens/session-cost";
import { Lru } from "../core/util/lru";

/** A sub-agent's own figures, read from its transcript: where its context ended, and what it cost. */
export interface SubagentFigures {
  /** Its context at its default leaf: recorded usage plus estimates, as the bars count it. */
  contextTokens: number;
  contextWindow: number;
  source: "recorded" | "estimate";
  usd: number;
  steps: number;
  unpricedSteps: number;
}

const cache = new Lru<string, { stamp: string; prices: PriceOverrides | undefined; figures: SubagentFigures }>(200, 200);

/**
 * The figures of the sub-agent transcript at `path`, kept while the file and the prices
 * stay as they were (a transcript still being written is read again when it grows).
 */
export async function subagentFigures(path: string, prices: PriceOverrides | undefined): Promise<SubagentFigures> {
  const st = await stat(path);
  const stamp = `${st.mtimeMs}:${st.size}`;
  const hit = cache.get(path);
  if (hit && hit.stamp === stamp && hit.prices === prices) return hit.figures;
  const s = await openSession(path);
  const f = formatOf(s);
  const leaf = f.defaultLeaf(s);
  const t = leafTokenSummary(s, f, leaf);
  const c = sessionCost(s, f, { prices });
  const figures: SubagentFigures = { contextTokens: t.contextTokens, contextWindow: t.contextWindow, source: t.source, usd: c.total.usd, steps: c.total.steps, unpricedSteps: c.total.unpricedSteps };
  cache.set(path, { stamp, prices, figures }, 1);
  return figures;
}
