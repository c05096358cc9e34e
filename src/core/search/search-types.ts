import type { EntryKind } from "../session/entry-kinds";

/** One entry whose visible text matches. */
export interface SearchHit {
  /** The entry's id (pi's id, Claude Code's uuid, ...). */
  entryId: string;
  /** What the matching text is, in the neutral vocabulary ("user", "tool-result", "boundary", ...). */
  kind: EntryKind;
  /** ISO time of the entry, or null when it has none. */
  timestamp: string | null;
  /** 1-based line of the entry in its file. */
  line: number;
  /** The match with ~60 characters either side, on one line (untrusted session text). */
  snippet: string;
  /** [start, end) of the match in the snippet. */
  match: [number, number];
  /** Set when the entry is in a sub-agent's transcript of the session (then `line` is a line of that file). */
  subagent?: SubagentOfHit;
}

/** The sub-agent whose transcript holds a hit. */
export interface SubagentOfHit {
  agentId: string;
  /** What it was asked to do, when its agent recorded it. */
  description?: string;
  /** Its transcript. */
  path: string;
}

/** The hits of one session file, in file order. */
export interface SessionHits {
  path: string;
  /** Format id of the agent that wrote it. */
  agent: string;
  /** The project the session names ("" when none). */
  cwd: string;
  /** The session's name or first prompt, when its store lists one. */
  title?: string;
  hits: SearchHit[];
}

/** What a search has read so far. */
export interface SearchStats {
  files: number;
  bytes: number;
}
