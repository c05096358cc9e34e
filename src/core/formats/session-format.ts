import type { SessionScanner } from "../store/discover";
import type { CostHooks } from "../tokens/session-cost";
import type { TokenKind } from "../tokens/token-vocabulary";
import type { LlmOptions, SummaryProgress, SummaryResult } from "../compaction/summarizer";
import type { EntryDescription } from "./entry-kinds";
import type { EntryView } from "./entry-view";
import type { IndexHooks } from "./index-hooks";
import type { SearchHooks } from "./search-hooks";
import type { SubagentHooks } from "./subagent-hooks";
import type { SessionInfo, SessionReader } from "./session-reader";

/** How a load may be watched, stopped and split (see JsonlSession's LoadOptions). */
export interface FormatLoadOptions {
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  secondThread?: boolean;
  firstPart?: number;
}

/** The first lines of a file, for detection: parsed when they parse, the path for location rules. */
export interface FirstLines {
  path: string;
  /** The first non-blank lines (up to 5), each parsed, or undefined where it does not parse. */
  objects: unknown[];
}

/** What a context part counts as: the one token vocabulary (src/core/tokens/token-vocabulary.ts). */
export type PartKind = TokenKind;

/** One message of a context, with the entry it came from. */
export interface ContextMessage {
  entryId: string;
  /** What the bars count it as. */
  kind: PartKind;
  /** The message as the agent itself holds it. */
  message: unknown;
}

/** The context the agent builds for a leaf, in the agent's own message shape. */
export interface FormatContext {
  leafId: string | null;
  messages: ContextMessage[];
}

/** One file and what the entries of a path or subtree did to it. */
export interface FileActivity {
  path: string;
  read: number;
  written: number;
  edited: number;
  /** Carried from a summary's record of files (no per-call counts there). */
  fromSummary: Array<"read" | "modified">;
  /** Entry where it was first touched. */
  firstEntryId: string;
}

/** A message in the Anthropic Messages API's shape (role + string or content blocks). */
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: string | Array<Record<string, unknown>>;
}

/** A new session file written from an entry. */
export interface ForkResult {
  path: string;
  sessionId: string;
  entryCount: number;
}

/** What a format can write, and why not where it cannot. */
export interface WriteCapabilities {
  fork: boolean;
  label: boolean;
  compact: boolean;
  /** Continue from an earlier entry with a branch summary (pi's /tree navigation). */
  continue?: boolean;
  /** Shown where an action is not offered (unless `reasons` names that action). */
  why?: string;
  /** Why each action this format does not offer is not offered, where it differs from `why`. */
  reasons?: Partial<Record<"fork" | "label" | "compact" | "continue", string>>;
}

/** What a compaction reports while it runs. */
export type FormatCompactionProgress = SummaryProgress | { type: "fallback"; reason: string } | { type: "writing" };

/**
 * A format's own compaction (pi's has strategies and settings of its own and keeps its
 * richer path): a dry run first, then the summary and the append.
 */
export interface FormatCompaction {
  /** What happens when the summary cannot be made ("keeping the last 30% with a failure summary"). */
  readonly fallbackNote: string;
  /**
   * What a compaction at the leaf would do, as plain lines: nothing is called or written.
   * `project`: the folders the user opened (workspace folders, the CLI's working
   * directory); a compaction reads files into its prompt only inside them.
   */
  dryRun(session: SessionReader, leaf: number, opts?: { project?: readonly string[] }): { lines: string[]; nothingToDo: boolean };
  /** Summarizes and appends the compaction (or nothing, on failure); what was written, as plain lines. */
  run(
    session: SessionReader,
    leaf: number,
    opts: { llm: LlmOptions; customInstructions?: string; signal?: AbortSignal; onProgress?: (p: FormatCompactionProgress) => void; project?: readonly string[] },
  ): Promise<{ lines: string[]; fallbackReason?: string }>;
}

export interface FormatWriter {
  readonly capabilities: WriteCapabilities;
  /** Why this very file cannot be written (an old version), if it cannot. */
  refuses?(session: SessionReader): string | undefined;
  /**
   * Appends whole lines in the format's own shape, all or nothing (see append-records.ts);
   * left out where the agent's design writes nothing but what it writes itself.
   */
  append?(session: SessionReader, records: ReadonlyArray<Record<string, unknown>>): Promise<void>;
  /** The format's compaction, when it has one (capabilities.compact). */
  readonly compaction?: FormatCompaction;
  /** A new file holding the path root..entry, written atomically; the source is not touched. */
  fork(session: SessionReader, entryId: string, opts?: { dir?: string; now?: Date }): ForkResult;
}

/** Where an agent keeps its sessions, and how they are listed. */
export interface FormatDiscovery {
  readonly scanner: SessionScanner;
  /** The agent's root: an explicit folder wins, then its environment variable, then its home default. */
  root(explicit: string | undefined, env: NodeJS.ProcessEnv): string;
  /** How the root is found, for messages ("$PI_CODING_AGENT_DIR/sessions, else ~/.pi/agent/sessions"). */
  readonly rootHelp: string;
}

/** Which of a context's messages (by index) a strategy keeps, summarizes or drops: a dry run. */
export interface ContextStrategyPlan {
  strategy: string;
  /** False when the strategy changes nothing (then `why` says why and every index is kept). */
  applies: boolean;
  why?: string;
  keepRecent: number;
  maxTokens: number;
  kept: number[];
  /** Replaced by one summary message. */
  summarized: number[];
  /** Removed with nothing in their place. */
  dropped: number[];
  /** Why each kept index was kept, for strategies that choose by content (smart). */
  reasons?: ReadonlyMap<number, string>;
  tokensBefore: number;
  /** Tokens of the kept messages alone (a summary comes on top). */
  keptTokens: number;
}

/**
 * How the agent itself shrinks a context too large to send (seed-000's truncate, compress,
 * smart). Nothing is written: it shapes the messages of a context only.
 */
export interface ContextStrategies {
  readonly names: readonly string[];
  plan(strategy: string, messages: readonly unknown[], opts?: { keepRecent?: number; maxTokens?: number }): ContextStrategyPlan;
  /** The summary of the messages a plan summarizes, through the compaction's summarizer. */
  summarize(messages: readonly unknown[], llm: LlmOptions, opts?: { signal?: AbortSignal; onProgress?: (p: SummaryProgress) => void; sessionModel?: string }): Promise<SummaryResult>;
  /** The messages after the plan, the summary message first when one is due. */
  apply(plan: ContextStrategyPlan, messages: readonly unknown[], summary?: string): unknown[];
}

/**
 * One agent's session format. The registry picks one per file; everything outside the
 * format's folder works through this and SessionReader. The cost hooks (responseId,
 * cacheWrite1h: src/core/tokens/session-cost.ts) are optional members too.
 */
export interface SessionFormat extends CostHooks {
  readonly id: string;
  /** Name shown to users ("pi", "Claude Code"). */
  readonly agent: string;
  /** Whether a file is this format, from its first lines and its location. */
  detect(first: FirstLines): boolean;
  /** What the line scanner extracts per line. */
  readonly index: IndexHooks;
  /** Reads a file of this format (the indexed JSONL reader with the format's hooks). */
  load(path: string, opts?: FormatLoadOptions): Promise<SessionReader>;
  /** Header facts of a loaded session. */
  info(session: SessionReader): SessionInfo;
  /** The leaf the agent continues from when the session is resumed. */
  defaultLeaf(session: SessionReader): number;
  /**
   * The entry a branch ends at for the agent, from a leaf of the tree: the leaf itself
   * unless the agent never resumes from such a line (Claude Code: progress, system and
   * inline sub-agent lines), then its nearest ancestor the agent would resume from; -1
   * when there is none. Left out: every leaf ends its branch. Bars are drawn per end.
   */
  branchEnd?(session: SessionReader, leaf: number): number;
  /** Neutral kind and label of entry i, for rows, details and filters. */
  describe(session: SessionReader, i: number): EntryDescription;
  /** Entry i for the detail pane; left out: its record as JSON. */
  details?(session: SessionReader, i: number): EntryView;
  /**
   * The entries the agent loads for a leaf, root first, when that is not the tree's path
   * (Claude Code relinks compactions and recovers side-branch tool results): positions.
   * Left out: the tree's path. `context` draws on exactly these entries.
   */
  chain?(session: SessionReader, leaf: number): number[];
  /**
   * The entry whose context the compaction boundary at i summarized, where that is not
   * its tree parent (a Claude Code boundary starts a new chain and names that entry as
   * its logical parent): a position, -1 when the entry it names is not in the file.
   * Left out: the tree parent.
   */
  compactionParent?(session: SessionReader, i: number): number;
  /** The agent's own message list for a leaf (-1: the empty context). */
  context(session: SessionReader, leaf: number): FormatContext;
  /**
   * The context as Anthropic Messages API messages; formats whose own messages already
   * have that shape leave it out.
   */
  anthropic?(ctx: FormatContext): AnthropicMessage[];
  /** Files read, written and edited by the entries at these positions, in order first touched. */
  files?(session: SessionReader, positions: readonly number[]): FileActivity[];
  /**
   * The context size at which the agent shrinks its context, for a model window (pi:
   * window minus its reserve; others their own rule). Left out: pi's rule.
   */
  compactThreshold?(contextWindow: number): number;
  /**
   * What the agent sends that its files do not hold, in its own words ("system prompt,
   * tool definitions, CLAUDE.md and environment context"): the label of the estimated
   * "unrecorded overhead" (src/core/tokens/format-tokens.ts).
   */
  readonly unrecordedParts?: string;
  /** Where its sessions live; a format without it is opened by path only. */
  readonly discovery?: FormatDiscovery;
  /** The agent's own ways of shrinking a context, when it has any. */
  readonly strategies?: ContextStrategies;
  /** What a search across sessions reads of a line (src/core/search); left out: its files are not searched. */
  readonly search?: SearchHooks;
  /** Where its sub-agents are and which entry started each (rows nest them); left out: it has none. */
  readonly subagents?: SubagentHooks;
  /** Optional writer; a format without one is read-only. */
  readonly writer?: FormatWriter;
}
