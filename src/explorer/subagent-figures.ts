import { stat } from "node:fs/promises";
import { openSession } from "../core/formats/registry";
import { leafTokenSummary } from "../core/usage/format-tokens";
import type { PriceOverrides } from "../core/tokens/prices";
import { costHooks, costSteps, sessionCost } from "../core/usage/session-cost";
import type { SessionReader } from "../core/session/session-reader";
import { Lru } from "../core/util/lru";
import type { SubagentFigures } from "../protocol";

export type { SubagentFigures } from "../protocol";


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
  const f = s.format;
  const leaf = f.defaultLeaf(s);
  const t = leafTokenSummary(s, f, leaf);
  const c = sessionCost(s, f, { prices });
  const figures: SubagentFigures = { contextTokens: t.contextTokens, contextWindow: t.contextWindow, source: t.source, usd: c.total.usd, steps: c.total.steps, unpricedSteps: c.total.unpricedSteps };
  cache.set(path, { stamp, prices, figures }, 1);
  return figures;
}

/**
 * The figures of a sub-agent written inline in `session` (1.0.x sidechain lines), from the
 * first of its lines: its context at the newest leaf of its lines, and the cost of their steps.
 */
export function inlineSubagentFigures(session: SessionReader, root: number, prices: PriceOverrides | undefined): SubagentFigures {
  const lines = new Set<number>();
  const todo = [root];
  while (todo.length) {
    const k = todo.pop() as number;
    lines.add(k);
    for (const c of session.tree.children(k)) todo.push(c);
  }
  let leaf = root;
  for (const k of lines) if (session.tree.childCount(k) === 0 && k > leaf) leaf = k;
  const f = session.format;
  const t = leafTokenSummary(session, f, leaf);
  let usd = 0;
  let steps = 0;
  let unpricedSteps = 0;
  for (const step of costSteps(session, costHooks(f, { prices }))) {
    if (!lines.has(step.index)) continue;
    steps++;
    usd += step.cost.usd;
    if (step.cost.source === "none") unpricedSteps++;
  }
  return { contextTokens: t.contextTokens, contextWindow: t.contextWindow, source: t.source, usd, steps, unpricedSteps };
}
