/**
 * The lines of a Claude Code transcript (claude-code-format.md sections 2-3): the five
 * conversation types that form the tree, and small readers of the fields the chain, the
 * messages and the rows need. Lines are untrusted: every reader checks the shape it reads.
 */

/** The types Claude Code's loader indexes (with a string uuid); every other type is metadata. */
export const CONVERSATION_TYPES = ["user", "assistant", "system", "attachment", "progress"] as const;

const CONVERSATION = new Set<string>(CONVERSATION_TYPES);

export const COMPACT_BOUNDARY = "compact_boundary";

export interface ClaudeMessage {
  id?: unknown;
  role?: unknown;
  model?: unknown;
  content?: unknown;
  stop_reason?: unknown;
  usage?: Record<string, unknown>;
}

export interface PreservedSegment {
  headUuid?: unknown;
  anchorUuid?: unknown;
  tailUuid?: unknown;
}

export interface ClaudeLine {
  type?: unknown;
  subtype?: unknown;
  uuid?: unknown;
  parentUuid?: unknown;
  logicalParentUuid?: unknown;
  sessionId?: unknown;
  timestamp?: unknown;
  cwd?: unknown;
  version?: unknown;
  isSidechain?: unknown;
  isMeta?: unknown;
  isCompactSummary?: unknown;
  isApiErrorMessage?: unknown;
  teamName?: unknown;
  content?: unknown;
  level?: unknown;
  message?: ClaudeMessage;
  attachment?: { type?: unknown };
  data?: { type?: unknown };
  sourceToolAssistantUUID?: unknown;
  /** Set by /branch on every line it copies. */
  forkedFrom?: unknown;
  compactMetadata?: {
    trigger?: unknown;
    preTokens?: unknown;
    postTokens?: unknown;
    preservedSegment?: PreservedSegment;
    preservedMessages?: { anchorUuid?: unknown; uuids?: unknown };
  };
}

export function asLine(e: Record<string, unknown>): ClaudeLine {
  return e as ClaudeLine;
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" && v ? v : undefined;
}

export function isConversationType(type: unknown): boolean {
  return typeof type === "string" && CONVERSATION.has(type);
}

export function isCompactBoundary(l: ClaudeLine): boolean {
  return l.type === "system" && l.subtype === COMPACT_BOUNDARY;
}

/**
 * The type a line is indexed under, as Claude Code's chain names it: system lines with
 * their subtype ("system/compact_boundary"), attachments with theirs
 * ("attachment/hook_success"), every other line its type.
 */
export function indexType(l: ClaudeLine): string {
  const type = String(l.type);
  const sub = l.type === "system" ? str(l.subtype) : l.type === "attachment" ? str(l.attachment?.type) : undefined;
  return sub ? `${type}/${sub}` : type;
}

/** The API response a line belongs to (message.id), for assistant lines. */
export function responseId(l: ClaudeLine): string | undefined {
  return l.type === "assistant" ? str(l.message?.id) : undefined;
}

/** A message's content as blocks: a string is one text block. */
export function blocksOf(content: unknown): Array<Record<string, unknown>> {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((b): b is Record<string, unknown> => !!b && typeof b === "object" && !Array.isArray(b));
}

/** The tool_use ids a user line answers with tool_result blocks. */
export function answeredToolIds(l: ClaudeLine): string[] {
  if (l.type !== "user" || !Array.isArray(l.message?.content)) return [];
  const out: string[] = [];
  for (const b of blocksOf(l.message?.content)) if (b.type === "tool_result" && typeof b.tool_use_id === "string") out.push(b.tool_use_id);
  return out;
}

/** The tool_use ids an assistant line calls. */
export function calledToolIds(l: ClaudeLine): string[] {
  if (l.type !== "assistant") return [];
  const out: string[] = [];
  for (const b of blocksOf(l.message?.content)) if (b.type === "tool_use" && typeof b.id === "string") out.push(b.id);
  return out;
}

/** A user line whose content holds a tool_result block. */
export function isToolResultLine(l: ClaudeLine): boolean {
  return answeredToolIds(l).length > 0;
}

/** The plain text of a content value: strings as they are, text blocks joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const b of blocksOf(content)) if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
  return parts.join("\n");
}

/** A value as text (non-strings as JSON). */
export function asText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  return JSON.stringify(v) ?? "";
}
