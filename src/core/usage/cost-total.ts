import type { Reconciler } from "./reconcile";
import { modelGroupName } from "../tokens/model-alias";
import { addStep, type CostStep, type CostSum, emptySum, type SessionCost } from "./session-cost";

/** A span of time in ms since the epoch: `since` included, `until` excluded; a missing end is open. */
export interface TimeRange {
  since?: number;
  until?: number;
}

/** One session's cost, as it goes into a total. */
export interface CostedSession {
  path: string;
  /** Format id of the agent that wrote it. */
  agent: string;
  /** The project (working directory) it belongs to; "" when it names none. */
  project: string;
  cost: SessionCost;
  /** For a sub-agent's transcript: the session that started it. */
  parent?: string;
}

/** A session's share of a total (its steps inside the range). */
export interface SessionCostLine extends CostSum {
  path: string;
  agent: string;
  project: string;
  parent?: string;
  /** Its steps whose call another file holds too and was counted there (a fork's copied path): not in this line, nor in the total. */
  countedElsewhere: CostSum;
}

/** The cost of many sessions over a time range, split like one session's. */
export interface CostTotal {
  /** The range as given, ISO timestamps; null for an open end. */
  range: { since: string | null; until: string | null };
  total: CostSum;
  /**
   * Most expensive first; a model's alias and its dated name are one line under the alias
   * (model-alias.ts), `aliases` then naming every name it was recorded as.
   */
  byModel: Array<CostSum & { model: string; aliases?: string[] }>;
  /** UTC days, oldest first. */
  byDay: Array<CostSum & { day: string }>;
  /** Most expensive first. */
  byProject: Array<CostSum & { project: string }>;
  /** Sessions with at least one step in the range, most expensive first. */
  sessions: SessionCostLine[];
  /** Models (as recorded) with steps that could not be priced. */
  unpricedModels: string[];
  /** Steps without a readable time, left out because a range was given. */
  undatedSteps: number;
  /**
   * Copies of calls counted once already (a fork's or a /branch copy's inherited path, a
   * resume that wrote the history again): left out of every figure above.
   */
  duplicates: CostSum;
  /** Entries whose recorded usage was left out, a figure in it not to be believed (see SessionCost.unreadableUsage). */
  unreadableUsage: number;
}

/** Whether a step's time is inside the range; an undated step is inside only an open range. */
export function inRange(time: number, range: TimeRange): boolean {
  if (range.since === undefined && range.until === undefined) return true;
  if (!Number.isFinite(time)) return false;
  return (range.since === undefined || time >= range.since) && (range.until === undefined || time < range.until);
}

function bump<K>(groups: Map<K, CostSum>, key: K, step: CostStep): void {
  let g = groups.get(key);
  if (!g) groups.set(key, (g = emptySum()));
  addStep(g, step);
}

/** When a fork first went on on its own: its earliest step that is not a copy (Infinity: none). */
function firstOwnStep(s: CostedSession): number {
  let first = Number.POSITIVE_INFINITY;
  for (const step of s.cost.steps) if (step.inheritedFrom === undefined && step.time < first) first = step.time;
  return first;
}

const iso = (t: number | undefined) => (t === undefined ? null : new Date(t).toISOString());

/**
 * Sums the cost of many sessions, one at a time (a session's steps need not be kept
 * once added), counting only steps whose own time falls in the range: a session that
 * ran over several days adds to the days it ran on.
 *
 * Every API call is counted once across the files (see CostHooks.callId): the first file
 * that holds a call owns it. A file that copied steps from another (a fork) is added after
 * every other file, so its source owns the shared path even when the fork is listed
 * first; the fork keeps only what it added, or what it copied from a source not in the sum.
 */
export class CostTotaller {
  private readonly total = emptySum();
  private readonly duplicates = emptySum();
  private readonly counted = new Set<string>();
  private readonly forks: CostedSession[] = [];
  private readonly models = new Map<string, CostSum>();
  /** The names each model line was recorded as. */
  private readonly modelNames = new Map<string, Set<string>>();
  private readonly days = new Map<string, CostSum>();
  private readonly projects = new Map<string, CostSum>();
  private readonly lines: SessionCostLine[] = [];
  private undated = 0;
  private unreadable = 0;

  /** `reconciler`, when given, sees every step the total counts (see reconcile.ts). */
  constructor(
    private readonly range: TimeRange = {},
    private readonly reconciler?: Reconciler,
  ) {}

  add(s: CostedSession): void {
    if (s.cost.inherited.steps > 0) this.forks.push(s);
    else this.count(s);
  }

  private count(s: CostedSession): void {
    // A cost from an older cache has no such list.
    this.unreadable += s.cost.unreadableUsage?.length ?? 0;
    const line: SessionCostLine = { path: s.path, agent: s.agent, project: s.project, ...(s.parent !== undefined ? { parent: s.parent } : {}), ...emptySum(), countedElsewhere: emptySum() };
    for (const step of s.cost.steps) {
      if (!inRange(step.time, this.range)) {
        if (!Number.isFinite(step.time)) this.undated++;
        continue;
      }
      if (step.callId !== undefined) {
        if (this.counted.has(step.callId)) {
          addStep(this.duplicates, step);
          addStep(line.countedElsewhere, step);
          continue;
        }
        this.counted.add(step.callId);
      }
      addStep(this.total, step);
      addStep(line, step);
      this.reconciler?.add(step);
      const model = step.model ?? "(unknown)";
      const group = modelGroupName(model);
      bump(this.models, group, step);
      let names = this.modelNames.get(group);
      if (!names) this.modelNames.set(group, (names = new Set()));
      names.add(model);
      bump(this.days, step.day, step);
      bump(this.projects, s.project, step);
    }
    if (line.steps > 0 || line.countedElsewhere.steps > 0) this.lines.push(line);
  }

  result(): CostTotal {
    // Forks last, in the order they went on on their own (the time of their first step that
    // is not a copy): a fork of a fork comes after the fork it copied, which then owns its part.
    const forks = this.forks.splice(0).map((s) => ({ s, start: firstOwnStep(s) }));
    forks.sort((a, b) => a.start - b.start || a.s.path.localeCompare(b.s.path));
    for (const f of forks) this.count(f.s);
    const aliasesOf = (model: string) => {
      const names = [...(this.modelNames.get(model) ?? [])].sort();
      return names.length > 1 ? { aliases: names } : {};
    };
    const byModel = [...this.models].map(([model, sum]) => ({ model, ...sum, ...aliasesOf(model) })).sort((a, b) => b.usd - a.usd || a.model.localeCompare(b.model));
    return {
      range: { since: iso(this.range.since), until: iso(this.range.until) },
      total: { ...this.total, tokens: { ...this.total.tokens } },
      byModel,
      byDay: [...this.days].map(([day, sum]) => ({ day, ...sum })).sort((a, b) => a.day.localeCompare(b.day)),
      byProject: [...this.projects].map(([project, sum]) => ({ project, ...sum })).sort((a, b) => b.usd - a.usd || a.project.localeCompare(b.project)),
      sessions: [...this.lines].sort((a, b) => b.usd - a.usd || a.path.localeCompare(b.path)),
      unpricedModels: byModel.filter((m) => m.unpricedSteps > 0).map((m) => m.model),
      undatedSteps: this.undated,
      duplicates: { ...this.duplicates, tokens: { ...this.duplicates.tokens } },
      unreadableUsage: this.unreadable,
    };
  }
}

/** The total of sessions already costed (see CostTotaller). */
export function costTotal(sessions: Iterable<CostedSession>, range: TimeRange = {}): CostTotal {
  const t = new CostTotaller(range);
  for (const s of sessions) t.add(s);
  return t.result();
}

/** The ranges the editor offers, in whole UTC days ending today. */
export type RangePreset = "today" | "7d" | "30d" | "all";

const DAY = 86_400_000;

/** A preset as a time range at `now`: "7d" is today and the 6 UTC days before it. */
export function presetRange(preset: RangePreset, now: number): TimeRange {
  if (preset === "all") return {};
  const today = Math.floor(now / DAY) * DAY;
  const days = preset === "today" ? 1 : preset === "7d" ? 7 : 30;
  return { since: today - (days - 1) * DAY };
}

/**
 * A date given by a person: `YYYY-MM-DD` is that UTC day (its start, or with `end` the
 * start of the next day, so an end date is included); an ISO date-time with a zone
 * (`2026-11-25T10:00:00Z`, `...+01:00`) is that instant. Undefined for anything else.
 */
export function parseDateBound(text: string, end = false): number | undefined {
  const t = text.trim();
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const ms = Date.UTC(y, m - 1, d);
    const back = new Date(ms);
    if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m - 1 || back.getUTCDate() !== d) return undefined;
    return end ? ms + DAY : ms;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(t)) return undefined;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms : undefined;
}
