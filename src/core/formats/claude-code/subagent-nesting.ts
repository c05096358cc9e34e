import type { SubagentRef } from "../../session/entry-view";
import type { SessionReader } from "../../session/session-reader";
import type { SubagentHooks } from "../../session/subagent-hooks";
import { chainFacts, SIDECHAIN } from "./chain-facts";
import { subagentLink } from "./subagent-link";

/**
 * The lines whose calls a row stands for: a response written over several lines is one
 * row, its last line (describe.ts), so that line answers for all of them and the earlier
 * ones for none; any other line for itself.
 */
function rowLines(session: SessionReader, i: number): number[] {
  const facts = chainFacts(session);
  const r = facts.response[i];
  const parts = r === undefined ? undefined : facts.fragments.get(r);
  if (!parts || parts.length < 2) return [i];
  return parts[parts.length - 1] === i ? [...parts] : [];
}

/** Whether line k may call a sub-agent, from the index alone: its preview names an Agent call (Task calls read "Agent" too). */
function mayCallAgent(session: SessionReader, k: number): boolean {
  return session.table.toolCalls[k] > 0 && session.table.typeAt(k) === "assistant" && session.table.preview(k).includes("Agent");
}

function startedBy(session: SessionReader, i: number): SubagentRef[] {
  const lines = rowLines(session, i);
  // Most rows call no agent: decided without reading their lines.
  if (!lines.some((k) => mayCallAgent(session, k))) return [];
  const out: SubagentRef[] = [];
  for (const k of lines) {
    if (!mayCallAgent(session, k)) continue;
    const ref = subagentLink(session, k);
    if (ref && !out.some((o) => o.agentId === ref.agentId)) out.push(ref);
  }
  return out;
}

const roots = new WeakMap<SessionReader, { count: number; map: ReadonlyMap<number, number> }>();

function inlineRoots(session: SessionReader): ReadonlyMap<number, number> {
  const n = session.metas.length;
  const known = roots.get(session);
  if (known && known.count === n) return known.map;
  const facts = chainFacts(session);
  const map = new Map<number, number>();
  // Only sessions that hold sidechain roots are searched for the calls that started them.
  let any = false;
  if (!facts.sidechainFile) for (let k = 0; k < n && !any; k++) any = (facts.flags[k] & SIDECHAIN) !== 0 && facts.parent[k] < 0;
  if (any) {
    for (let k = 0; k < n; k++) {
      if (!mayCallAgent(session, k)) continue;
      const rowAt = rowOf(session, k);
      for (const ref of startedBy(session, rowAt)) {
        const root = ref.inlineEntryId === undefined ? undefined : session.tree.indexOf(ref.inlineEntryId);
        if (root !== undefined && !map.has(root)) map.set(root, rowAt);
      }
    }
  }
  roots.set(session, { count: n, map });
  return map;
}

/** The row line k is part of: the last line of its response. */
function rowOf(session: SessionReader, k: number): number {
  const facts = chainFacts(session);
  const r = facts.response[k];
  const parts = r === undefined ? undefined : facts.fragments.get(r);
  return parts && parts.length > 1 ? parts[parts.length - 1] : k;
}

/** Claude Code's sub-agents: Task/Agent calls, their transcripts beside the session or their lines inline (subagent-link.ts). */
export const claudeCodeSubagents: SubagentHooks = { startedBy, inlineRoots };
