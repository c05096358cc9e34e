import type { SubagentRef } from "../../session/entry-view";
import type { SubagentHooks } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { callInput } from "./index-hooks";
import { findRollout } from "./files";
import { asObj, type CodexLine, payloadOf, str } from "./lines";
import { parentHomes } from "./session";

/** Who spawned a thread, from its session_meta (docs/codex-format.md section 8). */
export interface SpawnedBy {
  parent: string;
  nickname?: string;
  role?: string;
}

/**
 * The parent of a sub-agent's rollout: 0.169.0 writes `source: {subagent: {thread_spawn:
 * {parent_thread_id, depth, agent_nickname, agent_role}}}` and repeats `parent_thread_id`
 * and `agent_nickname` at the top of session_meta [obs]. Any other source: undefined.
 */
export function spawnedBy(meta: Record<string, unknown>): SpawnedBy | undefined {
  const sub = asObj(asObj(meta.source)?.subagent);
  const spawn = asObj(sub?.thread_spawn);
  const parent = str(spawn?.parent_thread_id) ?? (sub ? str(meta.parent_thread_id) : undefined);
  if (!parent) return undefined;
  const nickname = str(spawn?.agent_nickname) ?? str(meta.agent_nickname);
  const role = str(spawn?.agent_role) ?? str(meta.agent_role);
  return { parent, ...(nickname ? { nickname } : {}), ...(role ? { role } : {}) };
}

/** The multi-agent tool that starts a sub-agent (multi_agent_v1 namespace, 0.169.0). */
const SPAWN_TOOL = "spawn_agent";
/** How far after a spawn call its output is looked for (the output follows in the same response round). */
const OUTPUT_REACH = 400;

function spawnCall(session: SessionReader, i: number): Record<string, unknown> | undefined {
  if (session.table.typeAt(i) !== "response_item" || session.table.roleAt(i) !== "function_call") return undefined;
  const p = payloadOf(session.entryAt(i) as CodexLine);
  return p.name === SPAWN_TOOL && typeof p.call_id === "string" ? p : undefined;
}

/** The spawn's output `{"agent_id", "nickname"}`, found by call id among the lines after the call. */
function spawnOutput(session: SessionReader, i: number, callId: string): { agentId: string; nickname?: string } | undefined {
  const n = Math.min(session.metas.length, i + 1 + OUTPUT_REACH);
  for (let k = i + 1; k < n; k++) {
    if (session.table.roleAt(k) !== "function_call_output") continue;
    const p = payloadOf(session.entryAt(k) as CodexLine);
    if (p.call_id !== callId) continue;
    const out = asObj(typeof p.output === "string" ? callInput(p.output) : p.output);
    const agentId = str(out?.agent_id);
    const nickname = str(out?.nickname);
    return agentId ? { agentId, ...(nickname ? { nickname } : {}) } : undefined;
  }
  return undefined;
}

/** Rollout paths looked up, per session and agent id (a lookup may walk the home's folders). */
const paths = new WeakMap<SessionReader, Map<string, string | undefined>>();

function rolloutOf(session: SessionReader, agentId: string): string | undefined {
  let known = paths.get(session);
  if (!known) paths.set(session, (known = new Map()));
  // Not found yet is looked for again: a sub-agent's rollout appears while it starts.
  let path = known.get(agentId);
  if (path === undefined) known.set(agentId, (path = findRollout(parentHomes(session.path, process.env), agentId, session.path)));
  return path;
}

/** The sub-agent a spawn_agent call started: its thread id (from the call's output), task, nickname and rollout. */
function startedBy(session: SessionReader, i: number): SubagentRef[] {
  const call = spawnCall(session, i);
  if (!call) return [];
  const out = spawnOutput(session, i, call.call_id as string);
  if (!out) return [];
  const args = asObj(callInput(call.arguments));
  const task = str(args?.message);
  const role = str(args?.agent_type);
  const path = rolloutOf(session, out.agentId);
  return [{ agentId: out.agentId, ...(task ? { description: task } : {}), ...(role || out.nickname ? { agentType: role ?? out.nickname } : {}), ...(path ? { path } : {}) }];
}

/** Codex's sub-agents: threads of their own (own rollouts), started by a multi_agent_v1 spawn_agent call. None is written inline. */
export const codexSubagents: SubagentHooks = {
  startedBy,
  inlineRoots: () => new Map(),
};
