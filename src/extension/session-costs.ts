import { stat } from "node:fs/promises";
import { loadAndCost } from "../core/usage/cost-scan";
import type { BranchCostFigures } from "../core/usage/cost-words";
import type { PriceOverrides } from "../core/tokens/prices";
import type { SessionCost } from "../core/usage/session-cost";
import { Lru } from "../core/util/lru";

/** What a file was when its cost was computed: a change of either means computing again. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

/** Steps kept in the cache in all (a step is a few hundred bytes). */
const MAX_STEPS = 400_000;

type Load = (path: string, prices: PriceOverrides, signal?: AbortSignal) => Promise<SessionCost>;

/**
 * Session costs for the Sessions view and the Total Cost command, cached by path, mtime
 * and size (an append-only file that grew is costed again) and dropped when the prices
 * change. Computing a cost loads the session: callers ask only for what they show.
 * No `vscode` import.
 */
export class SessionCosts {
  private readonly cache = new Lru<string, { stamp: string; cost: SessionCost }>(500, MAX_STEPS);
  private readonly pending = new Map<string, Promise<SessionCost>>();
  /**
   * Each file's total, kept when its full cost is evicted: the Sessions view's rows need
   * only this, and a row whose cost was evicted must not be computed again at each redraw.
   */
  private readonly totals = new Map<string, { stamp: string; total: BranchCostFigures }>();
  /** Bumped when the prices change: a cost computed before that is not kept. */
  private generation = 0;

  constructor(
    /** The prices in force (the validated agentSessions.modelPrices setting). */
    readonly prices: () => PriceOverrides,
    private readonly load: Load = loadAndCost,
  ) {}

  /** The cached cost of a file as it was at `stamp`, without computing anything. */
  peek(path: string, stamp: FileStamp): SessionCost | undefined {
    const hit = this.cache.get(path);
    return hit && hit.stamp === key(stamp) ? hit.cost : undefined;
  }

  /** A file's total as it was at `stamp`, if it was computed (kept longer than the full cost). */
  peekTotal(path: string, stamp: FileStamp): BranchCostFigures | undefined {
    const hit = this.totals.get(path);
    return hit && hit.stamp === key(stamp) ? hit.total : undefined;
  }

  /** The cost of a file as it is now (stat'ed unless a stamp is given); one computation per file at a time. */
  async get(path: string, stamp?: FileStamp, signal?: AbortSignal): Promise<SessionCost> {
    const now = stamp ?? (await stat(path));
    const k = key(now);
    const hit = this.cache.get(path);
    if (hit && hit.stamp === k) return hit.cost;
    const id = `${path}\0${k}\0${this.generation}`;
    let p = this.pending.get(id);
    if (!p) {
      const generation = this.generation;
      p = this.load(path, this.prices(), signal).then(
        (cost) => {
          this.pending.delete(id);
          if (generation === this.generation) {
            this.cache.set(path, { stamp: k, cost }, Math.max(1, cost.steps.length));
            this.totals.set(path, { stamp: k, total: { usd: cost.total.usd, steps: cost.total.steps, unpricedSteps: cost.total.unpricedSteps } });
          }
          return cost;
        },
        (err: unknown) => {
          this.pending.delete(id);
          throw err;
        },
      );
      this.pending.set(id, p);
    }
    return p;
  }

  /** The prices changed: every cost is computed again when next asked for. */
  clear(): void {
    this.generation++;
    this.cache.clear();
    this.totals.clear();
  }
}

function key(s: FileStamp): string {
  return `${s.mtimeMs}:${s.size}`;
}
