import type { SessionReader } from "../session/session-reader";
import { branchPositions } from "./export-branches";
import { addStep, type CostSum, emptySum, sessionCost } from "../usage/session-cost";

/** Tokens and cost of the exported branch and of the whole session, as `ase cost` counts them. */
export interface BranchFigures {
  branch: CostSum;
  session: CostSum;
}

/** The branch's figures are the steps on its path root..leaf (any entry, not only a tree leaf; across compactions). */
export function branchFigures(session: SessionReader, leaf: number): BranchFigures {
  const cost = sessionCost(session, session.format);
  const onPath = new Set(branchPositions(session, leaf));
  const branch = emptySum();
  for (const s of cost.steps) if (onPath.has(s.index)) addStep(branch, s);
  return { branch, session: cost.total };
}
