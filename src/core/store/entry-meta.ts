/** What the index keeps per entry: enough for the tree, token bars and context walks. */

export interface RecordedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens?: number;
  cost?: number;
}

export interface EntryMeta {
  id: string;
  parentId: string | null;
  type: string;
  /** Message role after migration (hookMessage reads as custom). */
  role?: string;
  timestamp: string;
  /** Parsed timestamp in ms; NaN when unparseable. */
  time: number;
  /** 1-based line number in the file. */
  line: number;
  /** Byte range of the line, newline excluded. */
  offset: number;
  length: number;
  preview: string;
  /** pi's chars/4 estimate of what the entry adds to the context. */
  estimate: number;
  usage?: RecordedUsage;
  stopReason?: string;
  provider?: string;
  model?: string;
  thinkingLevel?: string;
  /** label entries */
  targetId?: string;
  label?: string;
  /** session_info */
  name?: string;
  /** compaction */
  firstKeptEntryId?: string;
  firstKeptEntryIndex?: number;
  tokensBefore?: number;
  /** Context size right after a compaction, where the agent recorded one (Claude Code: compactMetadata.postTokens). */
  tokensAfter?: number;
  hasRetainedTail?: boolean;
  /** branch_summary */
  fromId?: string;
  emptySummary?: boolean;
  /** bashExecution with excludeFromContext */
  excluded?: boolean;
  toolCalls?: number;
}

export type ProblemKind =
  | "parse-error"
  | "torn-line"
  | "not-an-object"
  | "missing-id"
  | "duplicate-id"
  | "unknown-parent"
  | "cycle"
  | "bad-field";

export interface LineProblem {
  kind: ProblemKind;
  line: number;
  message: string;
}
