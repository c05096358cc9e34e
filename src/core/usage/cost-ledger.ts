import type { SessionReader } from "../session/session-reader";
import type { BranchCostFigures, CostFigures } from "./cost-words";
import { costFigures } from "./cost-words";
import { addStep, type CostHooks, type CostStep, type CostSum, costHooks, emptySum, type SessionCostOptions, StepReader } from "./session-cost";

/**
 * A session's running cost for a view that follows the file: the total and its split
 * kept up to date as entries are appended (only the new ones are read), and any
 * branch's cost on request by walking its path. sessionCost gives the same figures
 * (test/core/cost-ledger.test.ts) in one pass, with every grouping; this keeps an
 * append to a session of 100,000 entries from costing a full pass.
 */
export class CostLedger {
  private readonly reader: StepReader;
  private readonly total = emptySum();
  private readonly models = new Map<string, CostSum>();
  /** What this file copied from the session it was forked from (steps with inheritedFrom). */
  private readonly inherited = emptySum();
  private readonly sources = new Set<string>();
  /** By entry index, for the path walks (typed arrays: a walk of 100,000 entries takes a few ms): a step's USD, and 0 none / 1 a priced step / 2 an unpriced step / 3 a recorded one. */
  private usdAt = new Float64Array(0);
  private stepAt = new Uint8Array(0);

  constructor(
    private readonly session: SessionReader,
    format: { readonly id: string } & CostHooks,
    opts: SessionCostOptions = {},
  ) {
    this.reader = new StepReader(session, costHooks(format, opts));
    this.update();
  }

  /** Reads what was appended since; a no-op when nothing was. */
  update(): void {
    if (this.reader.entriesRead === this.session.metas.length) return;
    const n = this.session.metas.length;
    if (this.stepAt.length < n) {
      const cap = Math.max(n, this.stepAt.length * 2);
      const usd = new Float64Array(cap);
      usd.set(this.usdAt);
      const at = new Uint8Array(cap);
      at.set(this.stepAt);
      this.usdAt = usd;
      this.stepAt = at;
    }
    const added = this.reader.read((step, before) => {
      this.add({ ...step, ...before }, -1);
      this.add(step, 1);
    });
    for (const s of added) this.add(s, 1);
  }

  private add(step: CostStep, sign: number): void {
    if (sign > 0) {
      this.usdAt[step.index] = step.cost.usd;
      this.stepAt[step.index] = step.cost.source === "none" ? 2 : step.cost.source === "recorded" ? 3 : 1;
    }
    addStep(this.total, step, sign);
    if (step.inheritedFrom !== undefined) {
      addStep(this.inherited, step, sign);
      this.sources.add(step.inheritedFrom);
    }
    const key = step.model ?? "(unknown)";
    let g = this.models.get(key);
    if (!g) this.models.set(key, (g = emptySum()));
    addStep(g, step, sign);
  }

  /** The whole session's cost (every branch). */
  figures(): CostFigures {
    // As sessionCost orders them: most expensive first, then by name.
    const unpriced = [...this.models]
      .filter(([, g]) => g.unpricedSteps > 0)
      .sort((a, b) => b[1].usd - a[1].usd || a[0].localeCompare(b[0]))
      .map(([m]) => m);
    return costFigures(this.total, unpriced, { usd: this.inherited.usd, steps: this.inherited.steps, from: [...this.sources] });
  }

  /** The step at entry i, if one is placed there (a response over several lines: at its first). */
  stepCost(i: number): { usd: number; source: "recorded" | "priced" | "none" } | undefined {
    const k = this.stepAt[i] ?? 0;
    if (k === 0) return undefined;
    return { usd: this.usdAt[i], source: k === 2 ? "none" : k === 3 ? "recorded" : "priced" };
  }

  /** The cost of the path root..leaf. */
  branch(leaf: number): BranchCostFigures {
    const parent = this.session.tree.parent;
    let usd = 0;
    let steps = 0;
    let unpricedSteps = 0;
    const at = this.stepAt;
    for (let cur = leaf; cur >= 0; cur = parent[cur]) {
      const k = at[cur];
      if (k === 0) continue;
      steps++;
      usd += this.usdAt[cur];
      if (k === 2) unpricedSteps++;
    }
    return { usd, steps, unpricedSteps };
  }
}
