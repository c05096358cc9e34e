// An entry's details as the panel gets them, for the explorer's controller and for the
// exported page's model alike (the page must show what the panel shows): the entry's own
// details, the cost of the step it is part of, and each sub-agent it started with its
// context size and cost.

import type { SessionReader } from "../core/session/session-reader";
import type { PriceOverrides } from "../core/tokens/prices";
import type { CostLedger } from "../core/usage/cost-ledger";
import type { ReplyResults } from "../protocol";
import { entryDetails } from "./entry-details";
import { inlineSubagentFigures, subagentFigures } from "./subagent-figures";

/** What the details read of a session's cost: the step placed at each entry. */
export type StepCosts = Pick<CostLedger, "stepCost">;

/**
 * The steps' costs of a ledger copied into two arrays, for a reader that keeps them after
 * dropping the ledger (it holds every step of the session: tens of MB on a large one).
 */
export function stepCostSnapshot(ledger: CostLedger, entries: number): StepCosts {
  const usd = new Float64Array(entries);
  const kind = new Uint8Array(entries);
  const kinds = ["recorded", "priced", "none"] as const;
  for (let i = 0; i < entries; i++) {
    const c = ledger.stepCost(i);
    if (!c) continue;
    usd[i] = c.usd;
    kind[i] = kinds.indexOf(c.source) + 1;
  }
  return { stepCost: (i) => (kind[i] ? { usd: usd[i], source: kinds[kind[i] - 1] } : undefined) };
}

/**
 * The cost of the step entry i is part of: a response written over several lines is one
 * step, kept on one of its lines (the one holding its final usage), found up or down
 * the lines of the same response.
 */
export function stepCostOf(s: SessionReader, ledger: StepCosts, i: number): ReturnType<CostLedger["stepCost"]> {
  const own = ledger.stepCost(i);
  if (own) return own;
  const f = s.format;
  const r = f.responseId?.(s, i);
  if (r === undefined) return undefined;
  const parent = s.tree.parent;
  for (let cur = parent[i]; cur >= 0 && f.responseId?.(s, cur) === r; cur = parent[cur]) {
    const c = ledger.stepCost(cur);
    if (c) return c;
  }
  const seen = new Set<number>([i]);
  for (let cur = i; ; ) {
    const next = [...s.tree.children(cur)].find((k) => !seen.has(k) && f.responseId?.(s, k) === r);
    if (next === undefined) return undefined;
    const c = ledger.stepCost(next);
    if (c) return c;
    seen.add(next);
    cur = next;
  }
}

/** Entry i's details with its step's cost (block `fullBlock` uncut when given). */
export function detailsWithCost(s: SessionReader, ledger: StepCosts, i: number, fullBlock?: number): ReplyResults["details"] {
  const d = entryDetails(s, i, fullBlock);
  const step = stepCostOf(s, ledger, i);
  return step ? { ...d, stepCost: step } : d;
}

/** Details with each sub-agent the entry started given its own context size and cost (read from its transcript). */
export async function withSubagentFigures(s: SessionReader, d: ReplyResults["details"], prices: PriceOverrides | undefined): Promise<ReplyResults["details"]> {
  if (!d.subagents?.some((a) => a.found)) return d;
  const i = s.tree.indexOf(d.id);
  // The transcripts' paths, from the format's view of the entry (the webview's copy leaves them out): looked up once.
  const paths = new Map((i === undefined ? [] : (s.format.details?.(s, i).subagents ?? [])).map((a) => [a.agentId, a.path]));
  const subagents = await Promise.all(
    d.subagents.map(async (a) => {
      const inline = a.inlineEntryId === undefined ? undefined : s.tree.indexOf(a.inlineEntryId);
      if (inline !== undefined) return { ...a, figures: inlineSubagentFigures(s, inline, prices) };
      const path = a.found ? paths.get(a.agentId) : undefined;
      if (!path) return a;
      try {
        return { ...a, figures: await subagentFigures(path, prices) };
      } catch {
        // Unreadable now (removed, being written): the link stays, without figures.
        return a;
      }
    }),
  );
  return { ...d, subagents };
}
