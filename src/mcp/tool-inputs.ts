import { z } from "zod";
import { FORMATS } from "../core/formats/registry";
import { parseDateBound } from "../core/usage/cost-total";
import { MAX_LIMIT } from "./paging";
import { quoted, type StoreScope, ToolInputError } from "./stores";

// The input fields several tools share. Every tool's schema is strict: a misspelt field
// is an error naming it, not a filter silently left out.

/** The agents with a store: those `ase list` reads. */
const agentIds = () => FORMATS.filter((f) => f.discovery).map((f) => f.id) as [string, ...string[]];

export const agentField = () => z.enum(agentIds()).optional().describe("only this agent's sessions (its format id)");
export const projectField = z.string().min(1).max(4096).optional().describe("only sessions whose project folder (cwd) contains this text");
export const sinceField = z.string().max(64).optional().describe("from this time on: a day (2026-01-31, UTC) or a time with its zone (2026-01-31T12:00:00Z)");
export const untilField = z.string().max(64).optional().describe("up to this time (a day counts whole), same forms as since");
export const limitField = z.number().int().min(1).max(MAX_LIMIT).optional().describe(`items per page (1-${MAX_LIMIT}, default 50); a page also stops near 48,000 characters`);
export const cursorField = z.string().max(512).optional().describe("nextCursor of the previous page, with the same other arguments");
export const sessionField = z.string().min(1).max(4096).describe("a session: its absolute path or its id, as list_sessions gives them");

/** since/until as times (ms, both included), checked to be in order. */
export function timeRange(since: string | undefined, until: string | undefined): { since?: number; until?: number } {
  const one = (v: string | undefined, field: "since" | "until") => {
    if (v === undefined) return undefined;
    const end = field === "until";
    const ms = parseDateBound(v, end);
    if (ms === undefined) throw new ToolInputError(`${field} expects a day (2026-01-31, UTC) or a time with its zone (2026-01-31T12:00:00Z), got ${quoted(v)}`);
    // As until, a day counts whole: up to the last millisecond before the next day.
    return end && /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(v) ? ms - 1 : ms;
  };
  const range = { since: one(since, "since"), until: one(until, "until") };
  if (range.since !== undefined && range.until !== undefined && range.since > range.until) throw new ToolInputError(`since (${since}) is after until (${until})`);
  return range;
}

/** The scope narrowed to one agent, which must be one the server reads. */
export function agentScope(scope: StoreScope, agent: string | undefined): StoreScope {
  if (agent === undefined) return scope;
  if (scope.only && !scope.only.includes(agent)) throw new ToolInputError(`agent "${agent}" is not read by this server (it reads ${scope.only.join(", ")}; see its --agent and --dir flags)`);
  return { ...scope, only: [agent] };
}
