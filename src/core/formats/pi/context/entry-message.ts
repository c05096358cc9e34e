import type { CompactionEntry, SessionEntry } from "../model/entries";
import type { AgentMessage } from "../model/messages";

/** Where a context message came from. */
export type SourceKind = "message" | "compaction-summary" | "retained-tail" | "branch-summary" | "custom-message";

function ms(timestamp: string): number {
  return new Date(timestamp).getTime();
}

/**
 * pi's one conversion of an entry to the message it stands for (its getMessageFromEntry):
 * messages as they are, custom messages and non-empty branch summaries as their roles,
 * and with `compactions` a compaction as its summary message. Context building,
 * compaction preparation and branch summaries all read entries through this.
 */
export function piEntryMessage(entry: SessionEntry, opts: { compactions?: boolean } = {}): { agent: AgentMessage; kind: SourceKind } | undefined {
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
      // An empty branch summary only moved the leaf; it says nothing.
      const e = entry as SessionEntry & { summary?: string; fromId: string };
      if (!e.summary) return undefined;
      return { agent: { role: "branchSummary", summary: e.summary, fromId: e.fromId, timestamp: ms(e.timestamp) }, kind: "branch-summary" };
    }
    case "compaction": {
      if (!opts.compactions) return undefined;
      const c = entry as CompactionEntry;
      return { agent: { role: "compactionSummary", summary: c.summary, tokensBefore: c.tokensBefore, timestamp: ms(c.timestamp) }, kind: "compaction-summary" };
    }
    default:
      return undefined;
  }
}

/** Entry types that can put something into a context (the rest are never read for it). */
export function carriesContext(type: string): boolean {
  return type === "message" || type === "custom_message" || type === "branch_summary";
}
