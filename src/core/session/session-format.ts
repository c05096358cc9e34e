import type { SessionScanner } from "../store/discover";
import type { EntryTokens, MeasureOptions, MeasureStats } from "../tokens/entry-tokens";
import type { LeafTokenOptions } from "../tokens/leaf-token-options";
import type { TokenKind } from "../tokens/token-vocabulary";
import type { SystemPrompt } from "./system-prompt";
import type { LlmOptions, SummaryProgress, SummaryResult } from "../compaction/summarizer";
import type { CompactionOutcome, CompactionPlan, CompactionPlanOptions, CompactionProgress, CompactionRunOptions, CompactionStrategy } from "../compaction/plan";
import type { EntryDescription } from "./entry-kinds";
import type { EntryView, SubagentRef } from "./entry-view";
import type { IndexHooks } from "../store/index-hooks";
import type { SearchHooks } from "./search-hooks";
import type { EntryMeta, LineProblem } from "../store/entry-meta";
import type { EntryTable } from "../store/entry-table";
import type { SessionTree } from "../tree/session-tree";

// A loaded session and what a format is: in one file, since each names the other.
export type { FileStamp } from "../store/file-stamp";

/** What a session says about itself (pi's header; the first lines of a headerless format). */
export interface SessionInfo {
  id: string;
  cwd: string;
  /** The format's version of the file, when it has one. */
  version?: number;
  /** Version of the agent that wrote the lines (e.g. "0.4.2"), when they record one. */
  agentVersion?: string;
  created?: string;
  name?: string;
}

/**
 * A loaded session of any format: its entries indexed in file order, the tree over them,
 * and full entries read on demand. Implemented by the indexed JSONL reader (a file of any
 * size) and by the in-memory reader (rule tests build sessions as arrays of records).
 */
export interface SessionReader {
  /** The file it was read from (an in-memory session names where it would live). */
  readonly path: string;
  readonly formatId: string;
  /** The format it was read as, found once: callers use it instead of looking it up again. */
  readonly format: SessionFormat;
  readonly metas: readonly EntryMeta[];
  /** The index's columns, for passes over every entry. */
  readonly table: EntryTable;
  readonly tree: SessionTree;
  /** Lines skipped while reading, plus tree problems, in line order. */
  readonly problems: LineProblem[];
  readonly problemCount: number;
  /** False while only a first part of a large file is read. */
  readonly complete: boolean;
  /** The full record at position i, as the format stores it (after in-memory migration). */
  entryAt(i: number): Record<string, unknown>;
  /** Position of an id, or an error naming the file. */
  requireIndex(id: string): number;
  meta(id: string): EntryMeta | undefined;
}

/**
 * What a format can tell the cost pass that the index does not keep. The index has no
 * message ids, so a response written as several lines (Claude Code writes one line per
 * content block, each repeating the response's usage) would be counted once per line.
 * A format fills `responseId` (Claude Code: `message.id`) to have it counted once; until
 * it does, every entry holding usage is one step. The lead can add the same optional
 * member to SessionFormat: sessionCost (src/core/tokens/session-cost.ts) reads it from the format it is given.
 */
export interface CostHooks {
  /** The id of the API response entry i belongs to, when the format knows one. */
  responseId?(session: SessionReader, i: number): string | undefined;
  /**
   * How many of entry i's cache-write tokens were written with the 1-hour TTL (Claude
   * Code: `usage.cache_creation.ephemeral_1h_input_tokens`), priced at that rate; left
   * out, every cache write is priced at the 5-minute rate.
   */
  cacheWrite1h?(session: SessionReader, i: number): number | undefined;
  /**
   * The identity of the API call behind entry i across the whole store: the same in every
   * copy of the call (a fork, a /branch copy, a resume that wrote the history again), and
   * different for any other call. Totals over many files count a call once. Left out, the
   * entry's id, time and usage stand for it (copies keep all three).
   */
  callId?(session: SessionReader, i: number): string | undefined;
  /**
   * The session entry i was copied from when this file is a fork that copied it (pi: an
   * entry older than the fork's header, the header naming its parentSession; Claude Code:
   * a line's forkedFrom); undefined for the session's own entries.
   */
  inheritedFrom?(session: SessionReader, i: number): string | undefined;
}

/** How a load may be watched, stopped and split (see JsonlSession's LoadOptions). */
export interface FormatLoadOptions {
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  secondThread?: boolean;
  firstPart?: number;
  /** Lines the per-file history does not need are skimmed (see LoadOptions.skim). */
  skim?: boolean;
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

/**
 * An entry that read, wrote or edited files, as a format's own quick read of a file hands it
 * to the per-file history (SessionFormat.fileOps): what the history would otherwise take
 * from a whole load (files, toolCalls, the entry's time and its turn's prompt).
 */
export interface FileOpsEntry {
  id: string;
  /** The entry's time as ISO text, as EntryMeta.timestamp gives it ("" for none). */
  timestamp: string;
  /** Its turn's prompt (TurnPrompts over the entry tree). */
  prompt: string | undefined;
  activity: FileActivity[];
  /** The entry's tool calls (SessionFormat.toolCalls). */
  calls: ReadonlyArray<{ name: unknown; input: unknown }>;
  /** The entry's line, valid during the call only, and its offset in the file. */
  line: Buffer;
  offset: number;
  /**
   * Where a text of `calls` that the read left unparsed in the line stands (the calls then
   * hold a stand-in for it, never to be shown): its JSON string, quotes included, is
   * line[start, end). Undefined for every other text, and where the read cut none.
   */
  cutAt?(text: string): [start: number, end: number] | undefined;
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

/** How a preview shows the request: the agent's own message list ("pi" for pi's), the Anthropic body, or XML. */
export type ContextFormat = "pi" | "anthropic" | "xml";

/** The exact request for a leaf, and what its tokens are made of. */
export interface PreviewText {
  /** The exact request (the agent's message list, Anthropic body or XML rendering). */
  request: unknown;
  tokens: { context: number; recorded: number; estimated: number; byPart: Array<{ entryId: string; kind: string; tokens: number }> };
}

/** What the neutral preview hands a format that renders its own (src/core/context/preview.ts). */
export interface PreviewOptions {
  system?: string;
  /** The session as the header names it (its title and path). */
  of: string;
  /** Lines the header adds (what the agent sends beside the messages). */
  notes: readonly string[];
}

/** A leaf's context bar: its size by the agent's rule, split by what it is made of. */
export interface LeafBar {
  total: number;
  byKind: Partial<Record<TokenKind, number>>;
  contextWindow: number;
  threshold: number;
  /** Where the total comes from: recorded usage, the tokenizer, or estimates. */
  source: "recorded" | "exact" | "estimate";
}

/**
 * A format's own per-entry token table (pi: its chars/4 figures from the index at once,
 * entry bodies measured and counted exactly in the background) and the bars drawn from it.
 */
export interface EntryTokenTable {
  /** Figures from the index alone, no I/O; positions before `from` are left empty. */
  instant(session: SessionReader, from?: number): EntryTokens[];
  /** Reads entry bodies and fills in measured figures (exact ones too, given a counter). */
  measure(session: SessionReader, table: EntryTokens[], opts?: MeasureOptions): Promise<MeasureStats>;
  /** A leaf's bar: the context size by the agent's rule, split by kind from the table. */
  bar(session: SessionReader, table: readonly EntryTokens[], leaf: number, opts: LeafTokenOptions): LeafBar;
}

/** What `ase tokens` asks of a format's own token report. */
export interface TokenReportRequest extends LeafTokenOptions {
  leaf: number;
  /** Count with the tokenizer too (slow the first time, cached after). */
  exact?: boolean;
  /** Grade the estimates against the recorded usage instead. */
  accuracy?: boolean;
  json?: boolean;
  /** A known system prompt (rebuilt or named), counted in the budget. */
  system?: SystemPrompt;
  budgetTotal?: number;
  /** Percentages by budget part (`budgetParts`), summing to 100. */
  allocation?: Readonly<Record<string, number>>;
  /** The per-entry count cache file; undefined: no cache. */
  cachePath?: string;
  /** Also count the context with the Messages API's count-tokens endpoint. */
  anthropicCount?: { apiKey: string; baseURL?: string; cachePath?: string };
}

/** A format's own token report (pi: tokenizer, calibration, budget, accuracy), printed by `ase tokens`. */
export interface FormatTokenReport {
  /** The parts its budget divides, in the order `--allocation` gives percentages. */
  readonly budgetParts: readonly string[];
  /** The report as printed (JSON or text), or why it cannot be made (one line: bad input). */
  run(session: SessionReader, req: TokenReportRequest): Promise<{ out: string } | { refused: string }>;
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

/**
 * A format's compaction: the one path every front end runs (src/cli/commands/compact.ts,
 * src/extension/actions.ts), a dry run first, then the summary and the append. The
 * plan, outcome and strategy vocabulary are neutral (src/core/compaction/plan.ts).
 */
export interface FormatCompaction {
  /** What happens when the summary cannot be made ("keeping the last 30% with a failure summary"). */
  readonly fallbackNote: string;
  /**
   * The strategies a front end may offer, the default first (pi: summarize, smart,
   * truncate) along with `plan` and the settings; left out: the agent compacts its one
   * way and nothing is chosen.
   */
  readonly strategies?: readonly CompactionStrategy[];
  /**
   * What a compaction at the leaf would do, as plain lines: nothing is called or written.
   * Throws NothingToCompactError where the format refuses an empty plan outright.
   */
  dryRun(session: SessionReader, leaf: number, opts?: CompactionPlanOptions): { lines: string[]; nothingToDo: boolean };
  /** The dry run as facts (cut, kept, summarized, model), for formats with `strategies`; throws NothingToCompactError. */
  plan?(session: SessionReader, leaf: number, opts?: CompactionPlanOptions): CompactionPlan;
  /** Summarizes and appends the compaction (or nothing, on failure): what was written. */
  run(session: SessionReader, leaf: number, opts: CompactionRunOptions): Promise<CompactionOutcome>;
}

/** How to continue from an earlier entry (pi's /tree: a branch summary at it). */
export interface ContinueOptions {
  /** Summarize the branch left (a model call); else the summary is empty. */
  summarize?: boolean;
  customInstructions?: string;
  llm?: LlmOptions;
  signal?: AbortSignal;
  onProgress?: (p: CompactionProgress) => void;
  /** The summary's input budget is the model's window minus this. */
  reserveTokens?: number;
  /** Context windows by model id or prefix (a setting). */
  windows?: Readonly<Record<string, number>>;
}

/** What continuing appended: the new entry, and what it did in plain lines. */
export interface ContinueOutcome {
  entryId: string;
  summarized: boolean;
  lines: string[];
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
  /** Labels an entry (undefined clears its label), as the agent does (capabilities.label): the new entry's id. */
  label?(session: SessionReader, entryId: string, label: string | undefined): Promise<string>;
  /** Moves the leaf to an earlier entry, as the agent does (capabilities.continue). */
  continueFrom?(session: SessionReader, entryId: string, opts: ContinueOptions): Promise<ContinueOutcome>;
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
  /**
   * Whether a session path is an address of this format's that is no file to read lines
   * from (OpenCode: `<db>#<sessionId>`, `opencode:<sessionId>`): openSession hands it to
   * `load` as is. Left out: paths are files.
   */
  addresses?(path: string): boolean;
  /**
   * The files a session at one of its addresses is stored in, which a live view watches
   * (OpenCode: its database and the -wal). Left out: the path itself.
   */
  storeFiles?(path: string): string[];
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
   * The tool calls of entry i as its detail view's call blocks name them, without building
   * the view (which pretty-prints every input): for the per-file history. Undefined where
   * the format leaves it to `details`.
   */
  toolCalls?(session: SessionReader, i: number): Array<{ name: unknown; input: unknown }> | undefined;
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
  /**
   * The preview of a leaf's request, as JSONC, for a format whose request holds more than
   * its messages (pi: thinking level, model, its own context size rule). Left out: the
   * neutral preview of `context`.
   */
  preview?(session: SessionReader, leafId: string | undefined, as: ContextFormat, opts: PreviewOptions): PreviewText & { text: string };
  /**
   * A per-entry token table of the format's own, counted exactly in the background. Left
   * out: bars from recorded usage and estimates of the context (src/core/tokens/format-tokens.ts).
   */
  readonly tokenTable?: EntryTokenTable;
  /**
   * The agent's system prompt rebuilt from the files it reads (the session files do not
   * hold it), labelled reconstructed; `--system auto`. Left out: only a file the user names.
   */
  reconstructSystemPrompt?(session: SessionReader, env: NodeJS.ProcessEnv): SystemPrompt;
  /**
   * The context `ase context` prints for a leaf (-1: the empty context), for a format whose
   * request holds more than its messages (pi: leaf id, thinking level and model, its own
   * Anthropic and XML renderings), with notes for stderr. Left out: `context` rendered by
   * src/core/context/format-context.ts, and "pi" is not offered.
   */
  contextRequest?(session: SessionReader, leaf: number, as: "native" | "pi" | "anthropic" | "xml", opts: { system?: string; maxTokens?: number }): { request: unknown; notes: string[] };
  /** A token report of the format's own; left out: `ase tokens` prints recorded usage and estimates. */
  readonly tokenReport?: FormatTokenReport;
  /** Files read, written and edited by the entries at these positions, in order first touched. */
  files?(session: SessionReader, positions: readonly number[]): FileActivity[];
  /**
   * The per-file history's quick read of a file: every entry with file activity handed to
   * `onEntry` in file order, what a whole load gives through `files` and the rest, without
   * building the session's index; the session's name returned. Undefined when the file is
   * one this read does not take as it stands (then a whole load reads it: the answer must be
   * the same either way, see test/core/history-read-same.test.ts). It takes only a file
   * whose format formatOfFile would say is this one (the history asks the listing's format
   * first, without detecting: pi's takes a file whose first line is its header, which pi,
   * first of FORMATS, claims).
   */
  fileOps?(path: string, onEntry: (e: FileOpsEntry) => void, opts?: { signal?: AbortSignal }): Promise<{ name?: string } | undefined>;
  /**
   * The context size at which the agent shrinks its context, for a model window (pi:
   * window minus its reserve; others their own rule). Left out: pi's rule.
   */
  compactThreshold?(contextWindow: number): number;
  /**
   * The system prompt as the file records it, when it does, and how far to trust it
   * (Codex: session_meta.base_instructions, edited at request time, so approximate).
   * Shown in the preview; never part of `native`.
   */
  recordedSystemPrompt?(session: SessionReader): { text: string; note: string } | undefined;
  /** The model's context window as the file records it at a leaf (Codex: model_context_window); left out: the table's. */
  recordedWindow?(session: SessionReader, leaf: number): number | undefined;
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
  /**
   * Set (to why) when the file's lines are not its entries: Gemini CLI's records are
   * replayed (a line may replace an earlier message or the whole list), so its reader
   * builds the entries in memory and a line maps to no single entry. The format contract
   * then checks the replayed entries instead of line-for-entry equalities.
   */
  readonly replayed?: string;
  /** Where its sub-agents are and which entry started each (rows nest them); left out: it has none. */
  readonly subagents?: SubagentHooks;
  /** Optional writer; a format without one is read-only. */
  readonly writer?: FormatWriter;
}

/**
 * How a format's sub-agents hang in its sessions (Claude Code's Task/Agent calls): the
 * explorer nests a sub-agent's own entries under the row of the call that started it,
 * reading them only when that row is expanded.
 */
export interface SubagentHooks {
  /**
   * The sub-agents entry i started, in call order; empty for any other entry (and for the
   * earlier lines of a response written over several: its row, the last line, names them).
   * Asked for every row of a page, so cheap where the entry starts none.
   */
  startedBy(session: SessionReader, i: number): SubagentRef[];
  /**
   * Sub-agents written inline in the session's own file: the first of their lines -> the
   * entry (row) that started them. These lines are no root of the tree: they show nested
   * under that entry. Kept per session while it does not grow.
   */
  inlineRoots(session: SessionReader): ReadonlyMap<number, number>;
}
