import { conversationBlock, NEW_SUMMARY_PROMPT, withInstructions } from "../../compaction/prompts";
import type { ClawdcodeContextItem } from "./context";
import type { IncludedFile } from "./file-ranking";
import { contentText, outputText, type ToolResultBlock, type ToolUseBlock } from "./lines";

/** A tool output longer than this goes to the summarizer cut, with the count of what was left out. */
const MAX_TOOL_OUTPUT_CHARS = 20_000;

function clip(text: string): string {
  if (text.length <= MAX_TOOL_OUTPUT_CHARS) return text;
  return `${text.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n[... ${text.length - MAX_TOOL_OUTPUT_CHARS} more characters]`;
}

/** One message as a transcript paragraph, from the message the context holds (no second conversion). */
function paragraph(it: ClawdcodeContextItem): string {
  const { message, line } = it;
  if (Array.isArray(message.content)) {
    const parts: string[] = [];
    for (const b of message.content as Array<Record<string, unknown>>) {
      if (b?.type === "tool_use") {
        const u = b as unknown as ToolUseBlock;
        parts.push(`[Assistant tool call]: ${u.name}(${JSON.stringify(u.input) ?? ""})`);
      } else if (b?.type === "tool_result") {
        const r = b as unknown as ToolResultBlock;
        parts.push(`[${r.is_error ? "Tool error" : "Tool result"}]: ${clip(outputText(r.content))}${r.is_error && typeof line.toolResult?.error === "string" ? ` (${clip(line.toolResult.error)})` : ""}`);
      }
    }
    const text = contentText(message.content);
    if (text) parts.unshift(`[${message.role === "user" ? "User" : "Assistant"}]: ${text}`);
    return parts.join("\n");
  }
  const who = line.isCompactSummary ? "Summary of the conversation before" : message.role === "user" ? "User" : "Assistant";
  return `[${who}]: ${contentText(message.content)}`;
}

export function serializeForSummary(items: readonly ClawdcodeContextItem[]): string {
  return items.map(paragraph).filter((p) => p).join("\n\n");
}

/** The files as they are now, for the summarizer; their text is data, like the transcript. */
export function filesBlock(files: readonly IncludedFile[]): string {
  if (!files.length) return "";
  const each = files.map((f) => {
    const range = f.lines < f.totalLines ? ` lines="1-${f.lines} of ${f.totalLines}"` : "";
    return `<file path=${JSON.stringify(f.path)}${range}>\n${f.text}\n</file>`;
  });
  return `<files note="the files the conversation worked on most, as they are on disk now">\n${each.join("\n")}\n</files>\n\n`;
}

export function summaryPrompt(items: readonly ClawdcodeContextItem[], files: readonly IncludedFile[], customInstructions?: string): string {
  return conversationBlock(serializeForSummary(items)) + filesBlock(files) + withInstructions(NEW_SUMMARY_PROMPT, customInstructions);
}

/**
 * The summary written when the summarizer failed. The seed's design names a failure
 * summary but neither the doc nor the fixtures give its text, so this one is ours: it
 * tells the model what is missing and why, quoting no session content.
 */
export function failureSummary(dropped: number, reason: string): string {
  const why = reason.length > 300 ? `${reason.slice(0, 297)}...` : reason;
  return (
    `[Compaction summary unavailable] The ${dropped} earliest message(s) of this conversation were removed to free context, ` +
    `but no summary of them could be made (${why}). Only the most recent messages follow. ` +
    "Ask the user to restate any earlier goal, decision or detail that is needed to continue."
  );
}
