/** Entry shapes of a pi session file, after in-memory migration to version 3. */
import type { AgentMessage, UserContent, Usage } from "./messages";

export const CURRENT_SESSION_VERSION = 3;

export interface SessionHeader {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
  [key: string]: unknown;
}

interface EntryBase {
  id: string;
  parentId: string | null;
  timestamp: string;
  [key: string]: unknown;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}

export interface CompactionEntry extends EntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId?: string;
  tokensBefore: number;
  details?: unknown;
  fromHook?: boolean;
  retainedTail?: AgentMessage[];
  usage?: Usage;
}

export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
  usage?: Usage;
}

export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: UserContent;
  display: boolean;
  details?: unknown;
}

export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label?: string;
}

export interface OtherEntry extends EntryBase {
  type:
    | "custom"
    | "model_change"
    | "thinking_level_change"
    | "session_info"
    | string;
}

export type SessionEntry =
  | MessageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomMessageEntry
  | LabelEntry
  | OtherEntry;

export function isMessageEntry(e: SessionEntry): e is MessageEntry {
  return e.type === "message";
}
export function isCompactionEntry(e: SessionEntry): e is CompactionEntry {
  return e.type === "compaction";
}
export function isBranchSummaryEntry(e: SessionEntry): e is BranchSummaryEntry {
  return e.type === "branch_summary";
}
export function isCustomMessageEntry(e: SessionEntry): e is CustomMessageEntry {
  return e.type === "custom_message";
}
