import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { SubagentRef } from "../../session/entry-view";

/** Ids Gemini CLI gives sub-agent sessions (UUIDs); anything else is never made into a path. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The sub-agents a gemini message's invoke_agent calls started (doc section 6): each call's
 * agentId names chats/<parent sessionId>/<agentId>.jsonl beside the session's file; the
 * path is given only when that file is there.
 */
export function subagentRefs(sessionPath: string, sessionId: string, m: Record<string, unknown>): SubagentRef[] {
  if (!Array.isArray(m.toolCalls)) return [];
  const out: SubagentRef[] = [];
  for (const c of m.toolCalls.filter(isObject)) {
    const agentId = c.agentId;
    if (c.name !== "invoke_agent" || typeof agentId !== "string" || !SAFE_ID.test(agentId)) continue;
    const args = isObject(c.args) ? c.args : {};
    const path = SAFE_ID.test(sessionId) ? join(dirname(sessionPath), sessionId, `${agentId}.jsonl`) : undefined;
    out.push({
      agentId,
      ...(typeof args.prompt === "string" ? { description: args.prompt.slice(0, 200) } : {}),
      ...(typeof args.agent_name === "string" ? { agentType: args.agent_name } : {}),
      ...(path && existsSync(path) ? { path } : {}),
    });
  }
  return out;
}
