import { kindOf, num, previewOf } from "../../session/line-text";
import { putUsageFigures } from "../../tokens/usage-figures";
import type { EntryTable } from "../../store/entry-table";
import { charsToTokens, IMAGE_CHARS } from "../../tokens/estimate";
import { parseIsoTime } from "../../util/iso-time";
import { pushAll } from "../../util/push-all";
import type { IndexedEntry, IndexHooks } from "../../store/index-hooks";
import { summarizeCalls, summarizeToolCall } from "../../session/tool-summary";
import { lineFacts } from "./chain-facts";
import { asLine, asText, blocksOf, type ClaudeLine, calledToolIds, contentText, indexType, isCompactBoundary, isConversationType, responseId, str } from "./lines";

/** The model name Claude Code gives its own API-error turns: no real response, no usage. */
export const SYNTHETIC_MODEL = "<synthetic>";


/** One content block as a row shows it (a tool call as what it does, paths relative to cwd). */
function blockPreview(b: Record<string, unknown>, cwd: string | undefined): string {
  switch (b.type) {
    case "text":
      return asText(b.text);
    case "thinking":
      return `(thinking) ${asText(b.thinking)}`;
    case "redacted_thinking":
      return "(thinking, redacted)";
    case "tool_use":
    case "server_tool_use":
      return summarizeToolCall(b.name, b.input, cwd);
    case "tool_result":
      return `${b.is_error === true ? "error: " : ""}${typeof b.content === "string" ? b.content : contentText(b.content)}`;
    case "image":
      return "(image)";
    default:
      return `(${asText(b.type)})`;
  }
}

/** The text a row shows for a line, before clipping. */
function previewText(l: ClaudeLine): string {
  switch (l.type) {
    case "user":
      return blocksOf(l.message?.content).map((b) => blockPreview(b, str(l.cwd))).join(" ");
    case "assistant": {
      // Every call of the response, after its text ("I'll look. -> Read a.ts, $ ls").
      const blocks = blocksOf(l.message?.content);
      const isCall = (b: Record<string, unknown>) => b.type === "tool_use" || b.type === "server_tool_use";
      const text = blocks.filter((b) => !isCall(b)).map((b) => blockPreview(b, undefined)).join(" ");
      const calls = summarizeCalls(blocks.filter(isCall).map((b) => blockPreview(b, str(l.cwd))));
      return text && calls ? `${text.length > 60 ? `${text.slice(0, 57)}...` : text} -> ${calls}` : text || calls;
    }
    case "system":
      if (isCompactBoundary(l)) return `compacted (${asText(l.compactMetadata?.trigger) || "?"})`;
      return [str(l.subtype), asText(l.content)].filter((x) => x).join(": ");
    case "attachment":
      return asText(l.attachment?.type);
    case "progress":
      return asText(l.data?.type);
    default:
      return "";
  }
}

/** Characters of one block as the model reads it, a tool result's own blocks left to the caller. */
function ownChars(b: Record<string, unknown>): number {
  switch (b.type) {
    case "text":
      return asText(b.text).length;
    case "thinking":
      return asText(b.thinking).length;
    case "tool_use":
      return asText(b.name).length + asText(b.input).length;
    case "tool_result":
      return Array.isArray(b.content) ? 0 : asText(b.content).length;
    case "image":
      return IMAGE_CHARS;
    default:
      return asText(b).length;
  }
}

/** Characters of a block as the model reads it; results nested in results walked with a stack, not recursion. */
function blockChars(block: Record<string, unknown>): number {
  let n = 0;
  const todo = [block];
  for (let b = todo.pop(); b; b = todo.pop()) {
    n += ownChars(b);
    if (b.type === "tool_result" && Array.isArray(b.content)) pushAll(todo, blocksOf(b.content));
  }
  return n;
}

/** chars/4 of what the line adds to the context: user and assistant content only. */
function estimateOf(l: ClaudeLine): number {
  if (l.type !== "user" && l.type !== "assistant") return 0;
  return charsToTokens(blocksOf(l.message?.content).reduce((n, b) => n + blockChars(b), 0));
}

/**
 * Whether a compact boundary hangs in the tree under its logicalParentUuid (decided from
 * the line alone, so both halves of a file read on two threads agree). Not when the
 * compaction kept messages (preservedSegment/preservedMessages): Claude Code relinks those
 * under the summary, and a /branch copy writes them after the boundary, so the logical
 * parent could be the boundary's own descendant; not in a /branch copy (forkedFrom), which
 * starts at the boundary and holds no line before it. A logical parent that is not in the
 * file is then reported as a broken link, its path starting at the boundary.
 */
function joinsLogicalParent(l: ClaudeLine): boolean {
  if (!isCompactBoundary(l) || !str(l.logicalParentUuid)) return false;
  const meta = l.compactMetadata;
  return !meta?.preservedSegment && !meta?.preservedMessages && l.forkedFrom === undefined;
}

/**
 * The line scanner's view of a Claude Code line (claude-code-format.md 2-4, 8). Only the
 * five conversation types with a uuid are entries (as in Claude Code's loader); metadata
 * lines (summary, custom-title, file-history-snapshot, queue-operation, ...) have no place
 * in the tree and are not entries. System lines and attachments are indexed under their
 * subtype ("system/turn_duration"), the names Claude Code's chain uses. A compact
 * boundary, a root on disk, hangs in the tree under its logicalParentUuid (but see
 * joinsLogicalParent), so the session reads as one tree (the chain Claude Code resumes
 * still starts at the boundary: chain.ts). Usage is kept once per response (message.id):
 * on its latest fragment, whose output_tokens is the final count.
 */
export class ClaudeCodeIndexHooks implements IndexHooks {
  readonly formatId = "claude-code";
  readonly agent = "Claude Code";
  /** Per table being filled: response id -> the entry holding its usage. */
  private readonly usageAt = new WeakMap<EntryTable, Map<string, number>>();

  identify(e: Record<string, unknown>): IndexedEntry | string | null {
    if (!isConversationType(e.type)) return null;
    if (typeof e.uuid !== "string" || !e.uuid) return `a Claude Code ${String(e.type)} line needs a string "uuid"; found ${kindOf(e.uuid)} (line skipped)`;
    const l = asLine(e);
    let parentId = typeof e.parentUuid === "string" && e.parentUuid ? e.parentUuid : null;
    if (parentId === null && joinsLogicalParent(l)) parentId = str(l.logicalParentUuid) ?? null;
    const time = typeof e.timestamp === "string" ? parseIsoTime(e.timestamp) : Number.NaN;
    return { id: e.uuid, parentId, type: indexType(l), time, preview: previewOf(previewText(l)), estimate: estimateOf(l) };
  }

  fill(t: EntryTable, i: number, e: Record<string, unknown>): void {
    const l = asLine(e);
    // The chain facts of the line, read now, spare chain-facts.ts a second parse of the file.
    t.rareOf(i).lineFacts = lineFacts(l);
    const role = l.type === "user" || l.type === "assistant" ? str(l.message?.role) : undefined;
    t.setRole(i, role ?? String(l.type));
    if (l.type === "assistant") this.fillAssistant(t, i, l);
    else if (isCompactBoundary(l)) {
      const r = t.rareOf(i);
      r.tokensBefore = num(l.compactMetadata?.preTokens);
      const post = l.compactMetadata?.postTokens;
      if (typeof post === "number" && Number.isFinite(post) && post > 0) r.tokensAfter = post;
    }
  }

  private fillAssistant(t: EntryTable, i: number, l: ClaudeLine): void {
    const m = l.message;
    if (!m || typeof m !== "object") return;
    const model = str(m.model);
    if (model) t.setModel(i, model);
    const stop = str(m.stop_reason);
    if (stop) t.setStopReason(i, stop);
    const calls = calledToolIds(l).length;
    if (calls) t.toolCalls[i] = calls;
    const u = m.usage;
    if (!u || typeof u !== "object" || model === SYNTHETIC_MODEL) return;
    const id = responseId(l);
    if (id) {
      let seen = this.usageAt.get(t);
      if (!seen) this.usageAt.set(t, (seen = new Map()));
      const before = seen.get(id);
      if (before !== undefined && before < i) t.setUsageFigures(before, Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN);
      seen.set(id, i);
    }
    putUsageFigures(t, i, {
      input: ["message.usage.input_tokens", u.input_tokens],
      output: ["message.usage.output_tokens", u.output_tokens],
      cacheRead: ["message.usage.cache_read_input_tokens", u.cache_read_input_tokens],
      cacheWrite: ["message.usage.cache_creation_input_tokens", u.cache_creation_input_tokens],
    });
  }

  /** The id a line claims (the reader checks a re-read line is still the one it indexed). */
  idOf(e: Record<string, unknown>): unknown {
    return e.uuid;
  }
}

export const claudeCodeIndexHooks = new ClaudeCodeIndexHooks();
