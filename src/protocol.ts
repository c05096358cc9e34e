/**
 * Every message between the extension host and the Session Explorer webview.
 * One interface per message with a literal `type`; one union per direction. Requests
 * carry a `requestId` and are answered by exactly one `reply` with the same id.
 * Only plain data crosses: the webview never sees file handles or the API key.
 */

import type { EntryKind } from "./core/session/entry-kinds";
import type { CompactionFacts } from "./core/session/entry-view";
import type { ContextTimeline } from "./core/usage/timeline";

export type { CompactionFacts };

/** Show or hide the rows of the sub-agents a call started (read on first expand); replied with the new row count. */
export interface ExpandSubagentRequest {
  type: "expandSubagent";
  requestId: number;
  id: string;
  expand: boolean;
}
/** The context size at every assistant step of a path, with its compactions, threshold and window. */
export type { ContextTimeline, TimelineCompaction, TimelinePoint } from "./core/usage/timeline";

export type { EntryKind } from "./core/session/entry-kinds";

/** A session's cost and where it came from; a branch's on its bar (see core/tokens/cost-words.ts). */
export type { BranchCostFigures as BranchCostView, CostFigures as CostView } from "./core/usage/cost-words";
import type { BranchCostFigures, CostFigures } from "./core/usage/cost-words";

/** Row filters, like pi's /tree: user messages only, conversation (default), everything. */
export type RowFilter = "user" | "default" | "all";

export type TokenSource = "recorded" | "exact" | "estimate";

/** Token kinds the bars stack, in drawing order: the core's one vocabulary. */
export { TOKEN_KINDS, type TokenKind } from "./core/tokens/token-vocabulary";
import type { TokenKind } from "./core/tokens/token-vocabulary";

/** A sub-agent's own figures, read from its transcript: where its context ended, and what it cost. */
export interface SubagentFigures {
  /** Its context at its default leaf: recorded usage plus estimates, as the bars count it. */
  contextTokens: number;
  contextWindow: number;
  source: "recorded" | "estimate";
  usd: number;
  steps: number;
  unpricedSteps: number;
}

/** One visible row of the entry tree. */
export interface Row {
  id: string;
  /** Box-drawing connectors before the row (│ ├─ └─), the innermost levels only when deep. */
  prefix: string;
  /** Levels of nesting of the row (its prefix may draw fewer). */
  depth: number;
  /** What the entry is, in the neutral vocabulary every format maps onto. */
  kind: EntryKind;
  /** What it is, for a person ("User", "Tool result", "Compaction", "Sub-agent prompt"). */
  typeLabel: string;
  /** The format's own name for it, when it differs ("tool_result", "compact_boundary"): shown second, in tooltips. */
  typeName?: string;
  /** The entry carries an error (a failed tool call). */
  isError?: boolean;
  /** What happened, on one line ("Read b.txt", "$ ls", "Edit src/csv.js (-1 +1)"). */
  preview: string;
  tokens: number;
  label?: string;
  onActivePath: boolean;
  isActiveLeaf: boolean;
  isDefaultLeaf: boolean;
  childCount: number;
  /** Branch point whose children are hidden. */
  folded: boolean;
  /** compaction rows: what it did. */
  compaction?: { tokensBefore: number; firstKeptEntryId?: string };
  /** Compaction boundary marks on the active path. */
  boundary?: "summarized" | "kept-start";
  /** The parent the entry names, when it is not in the file (or would close a cycle): the row is shown as a root. */
  brokenParent?: string;
  /** A call that started sub-agents: expandable (expandSubagent); their figures once read. */
  subagents?: { expanded: boolean; agents: SubagentView[] };
  /** A row of a sub-agent's own, nested under the call that started it: read-only. */
  nested?: { callId: string; agentId: string; /** Levels it is indented by under the tree's own prefix (its call's depth + 1, + 1 under a head row). */ indent: number };
}

/** A sub-agent an entry started; `found`: its transcript is beside the session or its lines are inline in it. */
export interface SubagentView {
  agentId: string;
  description?: string;
  agentType?: string;
  found: boolean;
  inlineEntryId?: string;
  /** Its steps, cost and context, once its transcript was read (expanded, or its call's details shown). */
  figures?: SubagentFigures;
}

export interface SessionInfoView {
  path: string;
  /** The agent that wrote it, as users know it ("pi", "ClawdCode"). */
  agent: string;
  /** Its format id ("pi", "seed-000", "clawdcode"). */
  format: string;
  name?: string;
  cwd: string;
  /** The file format's version, when it has one. */
  version?: number;
  entryCount: number;
  defaultLeafId: string | null;
  problems: string[];
  readOnly: boolean;
  /** Actions this session does not offer, each with the reason the panel shows. */
  unavailable: Partial<Record<EntryAction, string>>;
  /** Set while only a first part of a large file is shown and the rest is being read. */
  reading?: { bytesRead: number; totalBytes: number };
}

export interface TokenBar {
  /** Leaf the bar is for (a branch is named by its leaf). */
  leafId: string;
  title: string;
  total: number;
  byKind: Partial<Record<TokenKind, number>>;
  contextWindow: number;
  threshold: number;
  source: TokenSource;
  selected?: boolean;
  /** What the steps on the branch's path cost (root to leaf). */
  cost?: BranchCostFigures;
}

export interface FileActivityView {
  path: string;
  read: number;
  written: number;
  edited: number;
  fromSummary: string[];
  /** Set when the file exists in the workspace and can be opened. */
  openable: boolean;
}

/** A block of an entry in the detail pane; long text is cut and flagged. */
export interface DetailBlock {
  kind: "text" | "thinking" | "toolCall" | "toolResult" | "image" | "summary" | "bash" | "json";
  title?: string;
  text?: string;
  /** Full length when text was cut for display. */
  fullLength?: number;
  isError?: boolean;
  /** image blocks: a data: URI built by the host from base64 data. */
  dataUri?: string;
  mimeType?: string;
  /** toolCall blocks of an edit: each change's old and new text (cut when long), shown as a line diff. */
  edits?: Array<{ path?: string; oldText: string; newText: string; cut?: boolean }>;
}

export interface EntryDetails {
  id: string;
  kind: EntryKind;
  /** For a person ("Tool call"); typeName is the format's own name when it differs ("tool_use"). */
  typeLabel: string;
  typeName?: string;
  timestamp: string;
  line: number;
  label?: string;
  meta: Array<[string, string]>;
  blocks: DetailBlock[];
  compaction?: CompactionFacts;
  /** The sub-agents this entry started or reported on; `found`: the transcript is beside the session (openSubagent opens it). */
  /** What the API call this entry is (or ends) cost: recorded by the agent, priced from the table, or no price known. */
  stepCost?: { usd: number; source: "recorded" | "priced" | "none" };
  subagents?: SubagentView[];
  /** Actions this entry does not offer beyond what the session does not (a sub-agent's nested entry), with the reason. */
  unavailable?: Partial<Record<EntryAction, string>>;
}

export type EntryAction = "fork" | "continue" | "label" | "previewContext" | "compareContext" | "compactionChange" | "compact";

// ---- webview -> host ----

/** The webview has loaded and wants its initial state. */
export interface ReadyMessage {
  type: "ready";
  /** View state restored by a reloaded webview, for the host to re-apply before `init` (optional). */
  restore?: { filter: RowFilter; folded: string[] };
}
/** Rows [start, start+count) of the current filtered, folded view. */
export interface RowsRequest {
  type: "rows";
  requestId: number;
  start: number;
  count: number;
}
/** Full details of one entry for the detail pane. */
export interface DetailsRequest {
  type: "details";
  requestId: number;
  id: string;
  /** Ask for the whole text of block n instead of the cut one. */
  fullBlock?: number;
}
/** Change the row filter; replied with the new row count. */
export interface SetFilterRequest {
  type: "setFilter";
  requestId: number;
  filter: RowFilter;
}
/** Fold or unfold a branch point; replied with the new row count. */
export interface ToggleFoldRequest {
  type: "toggleFold";
  requestId: number;
  id: string;
}
/** Row indexes whose preview or label matches the query (case-insensitive). */
export interface SearchRequest {
  type: "search";
  requestId: number;
  query: string;
}
/** Select an entry: the host answers with token bars and files for its path. */
export interface SelectRequest {
  type: "select";
  requestId: number;
  id: string;
  /** A leaf to keep selected when the entry is on its path (a timeline step picks its entry without leaving the branch). */
  keepLeaf?: string;
}
/** Select an entry and make its row shown (unfold branch points above it, widen the filter): the host's showEntry asks for it. */
export interface RevealRequest {
  type: "reveal";
  requestId: number;
  id: string;
}
/** Show or hide the rows of the sub-agents a call started (read on first expand); replied with the new row count. */
export interface ExpandSubagentRequest {
  type: "expandSubagent";
  requestId: number;
  id: string;
  expand: boolean;
}
/** The context size at every assistant step of the path root..leafId, for the timeline chart. */
export interface TimelineRequest {
  type: "timeline";
  requestId: number;
  leafId: string;
}
/** Where entry `id` sits on the path the timeline of `leafId` walks (the chart shows the step a tree row belongs to). */
export interface TimelinePositionRequest {
  type: "timelinePosition";
  requestId: number;
  leafId: string;
  id: string;
}
/** Run an action on an entry (fork here, continue here, ...). */
export interface ActionMessage {
  type: "action";
  action: EntryAction;
  id: string;
}
/** Open a file mentioned in the file list. */
export interface OpenFileMessage {
  type: "openFile";
  path: string;
}
/** Open the transcript of the sub-agent an entry started (EntryDetails.subagents). */
export interface OpenSubagentMessage {
  type: "openSubagent";
  entryId: string;
  agentId: string;
}
/** Try loading the session again after a failed load (the Retry button). */
export interface RetryLoadMessage {
  type: "retryLoad";
}

export type WebviewToHost =
  | ReadyMessage
  | RowsRequest
  | DetailsRequest
  | SetFilterRequest
  | ToggleFoldRequest
  | SearchRequest
  | SelectRequest
  | RevealRequest
  | ExpandSubagentRequest
  | TimelineRequest
  | TimelinePositionRequest
  | ActionMessage
  | OpenFileMessage
  | OpenSubagentMessage
  | RetryLoadMessage;

// ---- host -> webview ----

/** Initial state, also sent after a full reload of the file. */
export interface InitMessage {
  type: "init";
  session: SessionInfoView;
  rowCount: number;
  filter: RowFilter;
  bars: TokenBar[];
  /** The whole session's cost (every branch). */
  cost: CostFigures;
}
/** Entries were appended (live tail); rows must be refetched. */
export interface SessionChangedMessage {
  type: "sessionChanged";
  session: SessionInfoView;
  rowCount: number;
  added: number;
  bars: TokenBar[];
  cost: CostFigures;
}
/** The prices changed (agentSessions.modelPrices): the session's cost and the bars with theirs. */
export interface CostMessage {
  type: "cost";
  cost: CostFigures;
  bars: TokenBar[];
}
/** Better token figures are in (exact counts finished): redraw the bars. */
export interface BarsMessage {
  type: "bars";
  bars: TokenBar[];
}
/** How far the host has read a session it is still loading (large files take seconds). */
export interface LoadingMessage {
  type: "loading";
  bytesRead: number;
  totalBytes: number;
}
/** A short notice to show in the panel (e.g. "file was rewritten; reloaded"). */
export interface NoticeMessage {
  type: "notice";
  level: "info" | "warning" | "error";
  text: string;
}
/** The session could not be loaded: the panel says why and offers to try again. */
export interface LoadFailedMessage {
  type: "loadFailed";
  /** The session file's path. */
  file: string;
  /** Why, as the core said it (which file, which line, what was expected). */
  reason: string;
}
/** Select this entry and show it (a search hit opened from the Search Results view): answered with a reveal request. */
export interface ShowEntryMessage {
  type: "showEntry";
  id: string;
}
/** The answer to a request. */
export interface ReplyMessage {
  type: "reply";
  requestId: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

export type HostToWebview = InitMessage | SessionChangedMessage | BarsMessage | CostMessage | LoadingMessage | LoadFailedMessage | NoticeMessage | ShowEntryMessage | ReplyMessage;

/** Result shapes of the requests, by request type. */
export interface ReplyResults {
  rows: { start: number; rows: Row[]; rowCount: number };
  details: EntryDetails;
  setFilter: { rowCount: number };
  toggleFold: { rowCount: number };
  expandSubagent: { rowCount: number };
  search: { matches: number[] };
  select: { bars: TokenBar[]; files: FileActivityView[]; rowIndex: number };
  /** As select, plus the view's new shape: the filter it now has, its row count, and the branch points it unfolded. */
  reveal: { bars: TokenBar[]; files: FileActivityView[]; rowIndex: number; rowCount: number; filter: RowFilter; unfolded: string[] };
  timeline: ContextTimeline;
  /** The path position (as TimelinePoint.index counts), -1 when the entry is not on the path. */
  timelinePosition: { position: number };
}

export type RequestType = keyof ReplyResults;

const INBOUND = new Set(["ready", "rows", "details", "setFilter", "toggleFold", "search", "select", "reveal", "expandSubagent", "timeline", "timelinePosition", "action", "openFile", "openSubagent", "retryLoad"]);
const ACTIONS = new Set<EntryAction>(["fork", "continue", "label", "previewContext", "compareContext", "compactionChange", "compact"]);
const FILTERS = new Set<RowFilter>(["user", "default", "all"]);

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isStr = (v: unknown, max = 10000): v is string => typeof v === "string" && v.length <= max;

const isRestore = (v: unknown): boolean => {
  if (!v || typeof v !== "object") return false;
  const r = v as Record<string, unknown>;
  return FILTERS.has(r.filter as RowFilter) && Array.isArray(r.folded) && r.folded.length <= 1000 && r.folded.every((id) => isStr(id, 200));
};

/** Validates a message from the webview before the host acts on it. */
export function isWebviewToHost(m: unknown): m is WebviewToHost {
  if (!m || typeof m !== "object") return false;
  const o = m as Record<string, unknown>;
  if (typeof o.type !== "string" || !INBOUND.has(o.type)) return false;
  switch (o.type) {
    case "ready":
      return o.restore === undefined || isRestore(o.restore);
    case "rows":
      return isInt(o.requestId) && isInt(o.start) && isInt(o.count) && (o.count as number) <= 5000;
    case "details":
      return isInt(o.requestId) && isStr(o.id, 200) && (o.fullBlock === undefined || isInt(o.fullBlock));
    case "setFilter":
      return isInt(o.requestId) && FILTERS.has(o.filter as RowFilter);
    case "toggleFold":
      return isInt(o.requestId) && isStr(o.id, 200);
    case "select":
      return isInt(o.requestId) && isStr(o.id, 200) && (o.keepLeaf === undefined || isStr(o.keepLeaf, 200));
    case "reveal":
      return isInt(o.requestId) && isStr(o.id, 200);
    case "expandSubagent":
      return isInt(o.requestId) && isStr(o.id, 200) && typeof o.expand === "boolean";
    case "timeline":
      return isInt(o.requestId) && isStr(o.leafId, 200);
    case "timelinePosition":
      return isInt(o.requestId) && isStr(o.leafId, 200) && isStr(o.id, 200);
    case "search":
      return isInt(o.requestId) && isStr(o.query, 1000);
    case "action":
      return ACTIONS.has(o.action as EntryAction) && isStr(o.id, 200);
    case "openFile":
      return isStr(o.path, 4096) && (o.path as string).length > 0;
    case "openSubagent":
      return isStr(o.entryId, 200) && (o.entryId as string).length > 0 && isStr(o.agentId, 200) && (o.agentId as string).length > 0;
    case "retryLoad":
      return true;
    default:
      return false;
  }
}
