import type { Replay, ReplayNode } from "./replay";

/** The format id, also the name of this folder. */
export const GEMINI_ID = "gemini-cli";

/**
 * One entry of a Gemini CLI session as this reader keeps it: a replayed message with its
 * place in the tree (the file has no parent links: the replay gives them).
 */
export interface GeminiEntry extends Record<string, unknown> {
  id: string;
  parentId: string | null;
  /** user, gemini, info, error, warning (or what a newer build writes). */
  type: string;
  timestamp?: unknown;
  message: Record<string, unknown>;
  /** Set on the first new message of a checkpoint that dropped what it did not keep. */
  checkpoint?: ReplayNode["checkpoint"];
  /** The stored <session_context> turn (Gemini regenerates it at every start). */
  sessionContext?: boolean;
}

/** The replay's nodes as entries, in the order they first appeared. */
export function entriesOf(r: Replay, isContext: (m: Record<string, unknown>) => boolean): GeminiEntry[] {
  return r.nodes.map((n) => ({
    id: n.key,
    parentId: n.parentKey,
    type: typeof n.message.type === "string" ? n.message.type : "unknown",
    timestamp: n.message.timestamp,
    message: n.message,
    ...(n.checkpoint ? { checkpoint: n.checkpoint } : {}),
    ...(isContext(n.message) ? { sessionContext: true } : {}),
  }));
}
