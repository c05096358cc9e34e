import { openSession } from "../formats/registry";
import type { ProjectGroup } from "../store/discover";
import { type CostTotal, CostTotaller, type TimeRange } from "./cost-total";
import type { PriceOverrides } from "../tokens/prices";
import { type Reconciliation, Reconciler } from "./reconcile";
import { type SessionCost, sessionCost } from "./session-cost";

/** A file to cost: a listed session or one of its sub-agents' transcripts. */
export interface CostTarget {
  path: string;
  agent: string;
  project: string;
  mtimeMs: number;
  parent?: string;
}

export interface CostScanOptions {
  range?: TimeRange;
  prices?: PriceOverrides;
  signal?: AbortSignal;
  /** After each file: how many of the targets are done. */
  onProgress?(done: number, total: number, path: string): void;
  /** Also put each counted step's recorded cost beside our price for it (result.reconciliation). */
  reconcile?: boolean;
  /** How a file's cost is found (the extension's cache); default: load the file and cost it. */
  costOf?(path: string, signal?: AbortSignal): Promise<SessionCost>;
}

export interface CostScanResult extends CostTotal {
  /** Files loaded and costed (sessions and sub-agent transcripts). */
  filesRead: number;
  /** Files last written before the range starts: none of their steps can be in it, so they were not read. */
  filesBefore: number;
  /** Files that could not be read, with the reason; left out of the total. */
  failed: Array<{ path: string; reason: string }>;
  /** With the reconcile option: per model, the agents' recorded cost beside our price. */
  reconciliation?: Reconciliation;
}

/** Every session of the listed projects, each followed by its sub-agents' transcripts. */
export function costTargets(projects: readonly ProjectGroup[]): CostTarget[] {
  const out: CostTarget[] = [];
  for (const p of projects) {
    for (const s of p.sessions) {
      out.push({ path: s.path, agent: s.agent, project: p.cwd, mtimeMs: s.mtimeMs });
      // A sub-agent written inline is part of its session's file: counted with it.
      for (const a of s.subagents ?? []) if (a.entryId === undefined) out.push({ path: a.path, agent: s.agent, project: p.cwd, mtimeMs: a.mtimeMs, parent: s.path });
    }
  }
  return out;
}

/** Loads a file of any format and costs it. */
export async function loadAndCost(path: string, prices?: PriceOverrides, signal?: AbortSignal): Promise<SessionCost> {
  const s = await openSession(path, { signal });
  return sessionCost(s, s.format, { prices });
}

/**
 * The total cost of many files over a range, read one at a time (memory holds one
 * session). A file written last before the range starts is not read: its entries are
 * older still. A file that fails to load is reported and left out; cancelling (the
 * signal) throws its reason.
 */
export async function scanCosts(targets: readonly CostTarget[], opts: CostScanOptions = {}): Promise<CostScanResult> {
  const range = opts.range ?? {};
  const reconciler = opts.reconcile ? new Reconciler(opts.prices) : undefined;
  const totaller = new CostTotaller(range, reconciler);
  const costOf = opts.costOf ?? ((path: string, signal?: AbortSignal) => loadAndCost(path, opts.prices, signal));
  const failed: CostScanResult["failed"] = [];
  let filesRead = 0;
  let filesBefore = 0;
  for (let i = 0; i < targets.length; i++) {
    opts.signal?.throwIfAborted();
    const t = targets[i];
    if (range.since !== undefined && t.mtimeMs < range.since) {
      filesBefore++;
    } else {
      try {
        const cost = await costOf(t.path, opts.signal);
        filesRead++;
        totaller.add({ path: t.path, agent: t.agent, project: t.project, cost, ...(t.parent !== undefined ? { parent: t.parent } : {}) });
      } catch (err) {
        opts.signal?.throwIfAborted();
        failed.push({ path: t.path, reason: (err as Error).message.split("\n")[0] });
      }
    }
    opts.onProgress?.(i + 1, targets.length, t.path);
  }
  // New fields go last: the JSON of ase cost --total is only ever extended.
  const { unreadableUsage, duplicates, ...sums } = totaller.result();
  return { ...sums, filesRead, filesBefore, failed, unreadableUsage, duplicates, ...(reconciler ? { reconciliation: reconciler.result() } : {}) };
}
