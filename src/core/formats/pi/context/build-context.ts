import type { CompactionEntry, SessionEntry } from "../model/entries";
import type { AgentMessage, LlmMessage } from "../model/messages";
import type { SessionReader } from "../../../session/session-reader";
import { piDefaultLeaf } from "../default-leaf";
import type { ModelRef } from "../../../compaction/summary-model";
import { toLlmMessage } from "./convert";
import { carriesContext, piEntryMessage, type SourceKind } from "./entry-message";

export type { ModelRef } from "../../../compaction/summary-model";

export type { SourceKind } from "./entry-message";

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

/**
 * The context pi sends for a leaf (default: the last entry). Walks the index only; reads
 * full entries just for the part of the path that ends up in the context.
 */
export function buildContext(session: SessionReader, leafId?: string | null): SessionContext {
  const tree = session.tree;
  if (leafId === null || tree.size === 0) return { leafId: null, thinkingLevel: "off", model: null, parts: [], agent: [] };
  const leaf = leafId === undefined ? piDefaultLeaf(session) : session.requireIndex(leafId);
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
    if (!carriesContext(t.typeAt(i))) return;
    const got = piEntryMessage(session.entryAt(i) as SessionEntry);
    if (got) push(t.idAt(i), got.kind, got.agent);
  };

  const ctx: SessionContext = { leafId: metas[leaf].id, thinkingLevel, model, parts, agent: all };
  if (compactionAt < 0) {
    for (let k = 0; k < path.length; k++) emit(k);
    return ctx;
  }
  const compaction = session.entryAt(path[compactionAt]) as CompactionEntry;
  ctx.compactionId = compaction.id;
  push(compaction.id, "compaction-summary", (piEntryMessage(compaction, { compactions: true }) as { agent: AgentMessage }).agent);
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
