import { basename, dirname, join } from "node:path";
import type { SubagentRef } from "../../session/entry-view";
import type { SessionReader } from "../../session/session-reader";
import { chainFacts, SIDECHAIN } from "./chain-facts";
import { answeredToolIds, asLine, blocksOf, contentText, str } from "./lines";
import { agentMeta, nestedAgentFiles, SAFE_ID } from "./subagent-files";
import { realPathInside } from "../../util/path-inside";

/** The tools that start a sub-agent (Task until 2.0.x, Agent later). */
const AGENT_TOOLS = new Set(["Task", "Agent"]);


/** The agentId a tool-result line reports (toolUseResult.agentId, 2.1.x). */
function reportedAgent(record: Record<string, unknown>): string | undefined {
  const r = record.toolUseResult as { agentId?: unknown } | undefined;
  const id = r && typeof r === "object" ? str(r.agentId) : undefined;
  return id && SAFE_ID.test(id) ? id : undefined;
}

/** The agentType a tool-result line reports. */
function typeOf(record: Record<string, unknown>): string | undefined {
  const r = record.toolUseResult as { agentType?: unknown } | undefined;
  return r && typeof r === "object" ? str(r.agentType) : undefined;
}

/** The Task/Agent tool calls of an assistant line: id -> input. */
function agentCalls(record: Record<string, unknown>): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const l = asLine(record);
  if (l.type !== "assistant") return out;
  for (const b of blocksOf(l.message?.content)) {
    if (b.type === "tool_use" && AGENT_TOOLS.has(String(b.name)) && typeof b.id === "string") out.set(b.id, (b.input ?? {}) as Record<string, unknown>);
  }
  return out;
}

/** Where the transcript of agent `id` is, for the session file `sessionPath`. */
export function subagentFile(sessionPath: string, id: string): string | undefined {
  if (!SAFE_ID.test(id)) return undefined;
  const dir = dirname(sessionPath);
  const file = `agent-${id}.jsonl`;
  // Nested layouts too (subagents/workflows/<id>/...), walked as the listing walks them (no loops, never out of the project).
  const nested = nestedAgentFiles(dir, basename(sessionPath).replace(/\.jsonl$/, "")).find((p) => basename(p) === file);
  if (nested) return nested;
  const beside = join(dir, file);
  return realPathInside(beside, [dir]).inside ? beside : undefined;
}

function metaOf(path: string | undefined): { description?: string; agentType?: string } {
  const m = path ? agentMeta(path) : undefined;
  if (!m) return {};
  return { ...(str(m.description) ? { description: str(m.description) } : {}), ...(str(m.agentType) ? { agentType: str(m.agentType) } : {}) };
}

/** How far after its call an inline sub-agent's first line is looked for. */
const INLINE_LOOKAHEAD = 2000;

/**
 * A sub-agent written inline (1.0.x): a sidechain root after the call whose prompt is the
 * call's prompt (its lines carry no agentId; the prompt is what ties them).
 */
function inlineSubagent(session: SessionReader, i: number, calls: Map<string, Record<string, unknown>>): SubagentRef | undefined {
  const facts = chainFacts(session);
  const prompts = new Map<string, Record<string, unknown>>();
  for (const input of calls.values()) if (typeof input.prompt === "string" && input.prompt.trim()) prompts.set(input.prompt.trim(), input);
  if (!prompts.size) return undefined;
  const end = Math.min(session.metas.length, i + 1 + INLINE_LOOKAHEAD);
  for (let k = i + 1; k < end; k++) {
    if (!(facts.flags[k] & SIDECHAIN) || facts.parent[k] >= 0 || session.table.typeAt(k) !== "user") continue;
    const input = prompts.get(contentText(asLine(session.entryAt(k)).message?.content).trim());
    if (!input) continue;
    const uuid = session.metas[k].id;
    const description = str(input.description);
    const agentType = str(input.subagent_type);
    return { agentId: uuid, inlineEntryId: uuid, ...(description ? { description } : {}), ...(agentType ? { agentType } : {}) };
  }
  return undefined;
}

/**
 * The sub-agent line i started (a Task/Agent tool call, linked through the tool result that
 * reports its agentId) or reported on (that tool result), with its transcript's path when
 * the file is beside the session (<sessionId>/subagents/**\/agent-<id>.jsonl, or
 * agent-<id>.jsonl beside it: claude-code-format.md 1, 13); a call whose sub-agent was
 * written inline (1.0.x) links to the first of its sidechain lines. The description is the tool
 * call's, else the meta file's; the type the call's, else the result's, else the meta file's. Inline sidechains (1.0.x)
 * carry no agentId: none is linked.
 */
export function subagentLink(session: SessionReader, i: number): SubagentRef | undefined {
  const record = session.entryAt(i);
  let id = reportedAgent(record);
  let input: Record<string, unknown> | undefined;
  let reportedType = typeOf(record);
  if (id !== undefined) {
    // The call it answers, for its description: the assistant line it names.
    const callId = answeredToolIds(asLine(record))[0];
    const from = str(record.sourceToolAssistantUUID);
    const at = from === undefined ? undefined : session.tree.indexOf(from);
    if (at !== undefined && callId !== undefined) input = agentCalls(session.entryAt(at)).get(callId);
  } else {
    const calls = agentCalls(record);
    if (!calls.size) return undefined;
    for (const c of session.tree.children(i)) {
      const child = session.entryAt(c);
      const answered = answeredToolIds(asLine(child)).find((t) => calls.has(t));
      const agent = answered === undefined ? undefined : reportedAgent(child);
      if (agent !== undefined) {
        id = agent;
        input = calls.get(answered as string);
        reportedType = typeOf(child);
        break;
      }
    }
    if (id === undefined) return inlineSubagent(session, i, calls);
  }
  const path = subagentFile(session.path, id);
  const meta = metaOf(path);
  const description = str(input?.description) ?? meta.description;
  const agentType = str(input?.subagent_type) ?? reportedType ?? meta.agentType;
  return { agentId: id, ...(description ? { description } : {}), ...(agentType ? { agentType } : {}), ...(path ? { path } : {}) };
}
