import {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  bashExecutionText,
} from "../context/convert";
import type { BashExecutionMessage } from "../model/messages";
import type { ContentPieces, EntryTokenKind } from "../../../tokens/kind-counts";

type Obj = Record<string, unknown>;

function blocks(content: unknown, kind: EntryTokenKind, out: ContentPieces): void {
  if (typeof content === "string") {
    if (content) out.texts.push({ kind, text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  for (const b of content as Obj[]) {
    if (!b || typeof b !== "object") continue;
    if (b.type === "text" && typeof b.text === "string") out.texts.push({ kind, text: b.text });
    else if (b.type === "image") out.images++;
  }
}

/** Pieces of one agent message (a `message` entry's body, or a retained-tail message). */
export function messagePieces(m: Obj, out: ContentPieces = { texts: [], images: 0 }): ContentPieces {
  switch (m.role) {
    case "user":
      blocks(m.content, "user", out);
      break;
    case "assistant":
      for (const b of Array.isArray(m.content) ? (m.content as Obj[]) : []) {
        if (!b || typeof b !== "object") continue;
        if (b.type === "text" && typeof b.text === "string") out.texts.push({ kind: "assistant", text: b.text });
        else if (b.type === "thinking" && typeof b.thinking === "string") out.texts.push({ kind: "thinking", text: b.thinking });
        // Same text pi's estimate measures for a call: the name plus the JSON arguments.
        else if (b.type === "toolCall") out.texts.push({ kind: "toolCall", text: String(b.name ?? "") + (JSON.stringify(b.arguments ?? {}) ?? "") });
      }
      break;
    case "toolResult":
      blocks(m.content, "toolResult", out);
      break;
    case "custom":
    case "hookMessage": // v1/v2 files: same role under its old name
      blocks(m.content, "custom", out);
      break;
    case "bashExecution":
      // A `!!` run is never sent to the LLM: it adds nothing.
      if (!m.excludeFromContext) out.texts.push({ kind: "bash", text: bashExecutionText(m as unknown as BashExecutionMessage) });
      break;
    case "branchSummary":
      if (typeof m.summary === "string" && m.summary) out.texts.push({ kind: "summary", text: BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX });
      break;
    case "compactionSummary":
      if (typeof m.summary === "string") out.texts.push({ kind: "summary", text: COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX });
      break;
  }
  return out;
}

/**
 * What a raw entry puts into the context, as the LLM text pi's convertToLlm produces
 * (summaries wrapped, bash runs formatted), so tokenizer counts measure what is sent.
 * A compaction's retained tail counts under the compaction entry, as in buildContext.
 */
export function entryPieces(entry: Obj): ContentPieces {
  const out: ContentPieces = { texts: [], images: 0 };
  switch (entry.type) {
    case "message":
      if (entry.message && typeof entry.message === "object") messagePieces(entry.message as Obj, out);
      break;
    case "compaction":
      messagePieces({ role: "compactionSummary", summary: typeof entry.summary === "string" ? entry.summary : "" }, out);
      if (Array.isArray(entry.retainedTail)) for (const m of entry.retainedTail as Obj[]) if (m && typeof m === "object") messagePieces(m, out);
      break;
    case "branch_summary":
      messagePieces({ role: "branchSummary", summary: entry.summary }, out);
      break;
    case "custom_message":
      blocks(entry.content, "custom", out);
      break;
  }
  return out;
}

/** The coarse kind of an entry from its index record alone (no body read): used for instant bars. */
export function primaryKind(type: string, role: string | undefined): EntryTokenKind | undefined {
  if (type === "message") {
    switch (role) {
      case "user":
        return "user";
      case "assistant":
        return "assistant";
      case "toolResult":
        return "toolResult";
      case "bashExecution":
        return "bash";
      case "custom":
        return "custom";
      default:
        return undefined;
    }
  }
  if (type === "compaction" || type === "branch_summary") return "summary";
  if (type === "custom_message") return "custom";
  return undefined;
}
