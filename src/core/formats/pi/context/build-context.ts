import type { CompactionEntry, SessionEntry } from "../model/entries";
import type { AgentMessage, LlmMessage } from "../model/messages";
import type { SessionReader } from "../../session-reader";
import type { ModelRef } from "../../../compaction/summary-model";
import { toLlmMessage } from "./convert";

export type { ModelRef } from "../../../compaction/summary-model";

/** Where a context message came from. */
export type SourceKind = "message" | "compaction-summary" | "retained-tail" | "branch-summary" | "custom-message";

export interface ContextPart {
  /** The entry that produced it (for a retained tail message: the compaction). */
  entryId: string;
  kind: SourceKind;
  agent: AgentMessage;
  llm: LlmMessage;
}

export interface SessionContext {
  leafId: string | null;
  thinkingLevel: string;
  model: ModelRef | null;
  /** The compaction that counts on this path (the last one), if any. */
  compactionId?: string;
  /** Whether the compaction's firstKeptEntryId was found on the path. */
  keptFound?: boolean;
  /** What is sent: one part per LLM message (pi's convertToLlm output). */
  parts: ContextPart[];
  /**
   * pi's own message list before convertToLlm (includes `!!` bash runs that are never
   * sent); pi's context-size estimate walks this list.
   */
  agent: Array<Omit<ContextPart, "llm">>;
}

function ms(timestamp: string): number {
  return new Date(timestamp).getTime();
}

/** pi's buildSessionContext + convertToLlm for one entry, or undefined if it carries nothing. */
function entryMessage(entry: SessionEntry): { agent: AgentMessage; kind: SourceKind } | undefined {
  switch (entry.type) {
    case "message":
      return { agent: entry.message as AgentMessage, kind: "message" };
    case "custom_message": {
      const e = entry as SessionEntry & { customType: string; content: never; display: boolean; details?: unknown };
      return {
        agent: { role: "custom", customType: e.customType, content: e.content, display: e.display, details: e.details, timestamp: ms(e.timestamp) },
        kind: "custom-message",
      };
    }
    case "branch_summary": {
      const e = entry as SessionEntry & { summary?: string; fromId: string };
      if (!e.summary) return undefined;
      return { agent: { role: "branchSummary", summary: e.summary, fromId: e.fromId, timestamp: ms(e.timestamp) }, kind: "branch-summary" };
    }
    default:
      return undefined;
  }
}

/** Entry types that can put something into the context. */
function mayCarry(type: string): boolean {
  return type === "message" || type === "custom_message" || type === "branch_summary";
}

/**
 * The context pi sends for a leaf (default: the last entry). Walks the index only; reads
 * full entries just for the part of the path that ends up in the context.
 */
export function buildContext(session: SessionReader, leafId?: string | null): SessionContext {
  const tree = session.tree;
  if (leafId === null || tree.size === 0) return { leafId: null, thinkingLevel: "off", model: null, parts: [], agent: [] };
  const leaf = leafId === undefined ? tree.defaultLeaf : session.requireIndex(leafId);
  const path = tree.path(leaf);
  const metas = session.metas;

  let thinkingLevel = "off";
  let model: ModelRef | null = null;
  let compactionAt = -1;
  const t = session.table;
  let modelAt = -1;
  for (let k = 0; k < path.length; k++) {
    const i = path[k];
    const type = t.typeAt(i);
    if (type === "message") {
      if (t.roleAt(i) === "assistant") modelAt = i;
    } else if (type === "thinking_level_change") thinkingLevel = t.rare.get(i)?.thinkingLevel as string;
    else if (type === "model_change") modelAt = i;
    else if (type === "compaction") compactionAt = k;
  }
  // The last model_change or assistant message on the path sets the model, as in pi.
  if (modelAt >= 0) model = { provider: t.providerAt(modelAt) as string, modelId: t.modelAt(modelAt) as string };

  const parts: ContextPart[] = [];
  const all: SessionContext["agent"] = [];
  const push = (entryId: string, kind: SourceKind, agent: AgentMessage) => {
    all.push({ entryId, kind, agent });
    const llm = toLlmMessage(agent);
    if (llm) parts.push({ entryId, kind, agent, llm });
  };
  const emit = (k: number) => {
    const i = path[k];
    if (!mayCarry(t.typeAt(i))) return;
    const got = entryMessage(session.entryAt(i) as SessionEntry);
    if (got) push(t.idAt(i), got.kind, got.agent);
  };

  const ctx: SessionContext = { leafId: metas[leaf].id, thinkingLevel, model, parts, agent: all };
  if (compactionAt < 0) {
    for (let k = 0; k < path.length; k++) emit(k);
    return ctx;
  }
  const compaction = session.entryAt(path[compactionAt]) as CompactionEntry;
  ctx.compactionId = compaction.id;
  push(compaction.id, "compaction-summary", {
    role: "compactionSummary",
    summary: compaction.summary,
    tokensBefore: compaction.tokensBefore,
    timestamp: ms(compaction.timestamp),
  });
  if (Array.isArray(compaction.retainedTail)) {
    for (const m of compaction.retainedTail) push(compaction.id, "retained-tail", m);
  } else {
    let found = false;
    for (let k = 0; k < compactionAt; k++) {
      if (!found && t.idAt(path[k]) === compaction.firstKeptEntryId) found = true;
      if (found) emit(k);
    }
    ctx.keptFound = found;
  }
  for (let k = compactionAt + 1; k < path.length; k++) emit(k);
  return ctx;
}
