import type { ContextMessage, FormatContext, PartKind } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { type ClawdcodeLine, type ClawdcodeMessage, isCompactBoundary, lineMessage, type ToolResultBlock, type ToolUseBlock } from "./lines";

/** One message of the context with the line it came from. */
export interface ClawdcodeContextItem {
  /** Position of the line in the session. */
  index: number;
  line: ClawdcodeLine;
  message: ClawdcodeMessage;
}

/** The context for a leaf, with what the seed's rules did on the way (goldens record both). */
export interface ClawdcodeContext {
  /** The last compact boundary on the path (its uuid), or null. */
  boundary: string | null;
  items: ClawdcodeContextItem[];
  /** Uuids of tool_result lines dropped because their tool_use is not earlier in the context. */
  droppedOrphans: string[];
}

function toolUseIds(m: ClawdcodeMessage): string[] {
  if (!Array.isArray(m.content)) return [];
  return (m.content as ToolUseBlock[]).filter((b) => b && b.type === "tool_use").map((b) => b.id);
}

/** The tool_use ids a tool_result message answers (empty for any other message). */
export function answeredIds(m: ClawdcodeMessage): string[] {
  if (!Array.isArray(m.content)) return [];
  return (m.content as ToolResultBlock[]).filter((b) => b && b.type === "tool_result").map((b) => b.tool_use_id);
}

/**
 * Keeps the items in order, dropping each tool result whose tool_use is not in an earlier
 * kept item: the seed's orphan rule, shared by context building and compaction.
 */
export function dropOrphans<T extends { message: ClawdcodeMessage }>(items: readonly T[]): { kept: T[]; dropped: T[] } {
  const calls = new Set<string>();
  const kept: T[] = [];
  const dropped: T[] = [];
  for (const it of items) {
    const answers = answeredIds(it.message);
    if (answers.length && !answers.every((id) => calls.has(id))) {
      dropped.push(it);
      continue;
    }
    for (const id of toolUseIds(it.message)) calls.add(id);
    kept.push(it);
  }
  return { kept, dropped };
}

/**
 * 15.2: walk from the leaf to the root; the context starts after the last compact
 * boundary on that path (the summary line first); every line with a message adds it;
 * tool results whose tool_use is not earlier in the context are dropped.
 */
export function buildClawdcodeContext(session: SessionReader, leaf: number): ClawdcodeContext {
  if (leaf < 0) return { boundary: null, items: [], droppedOrphans: [] };
  const path = session.tree.path(leaf);
  let start = 0;
  let boundary: string | null = null;
  for (let k = path.length - 1; k >= 0; k--) {
    // Only system lines can be boundaries: no other line is read here.
    if (session.table.typeAt(path[k]) !== "system") continue;
    const line = session.entryAt(path[k]) as unknown as ClawdcodeLine;
    if (isCompactBoundary(line)) {
      start = k + 1;
      boundary = line.uuid;
      break;
    }
  }
  const all: ClawdcodeContextItem[] = [];
  for (let k = start; k < path.length; k++) {
    if (session.table.typeAt(path[k]) === "system") continue;
    const line = session.entryAt(path[k]) as unknown as ClawdcodeLine;
    const message = lineMessage(line);
    if (message) all.push({ index: path[k], line, message });
  }
  const { kept, dropped } = dropOrphans(all);
  return { boundary, items: kept, droppedOrphans: dropped.map((d) => d.line.uuid) };
}

/** The bars' token kind of a context item. */
export function partKind(line: ClawdcodeLine): PartKind {
  if (line.type === "tool_use") return "toolCall";
  if (line.type === "tool_result") return "toolResult";
  if (line.type === "user") return line.isCompactSummary ? "summary" : "user";
  return "assistant";
}

/** The context in the seam's shape. */
export function clawdcodeContext(session: SessionReader, leaf: number): FormatContext {
  const c = buildClawdcodeContext(session, leaf);
  const messages: ContextMessage[] = c.items.map((it) => ({ entryId: it.line.uuid, kind: partKind(it.line), message: it.message }));
  return { leafId: leaf < 0 ? null : session.table.idAt(leaf), messages };
}
