import { toLlmMessage } from "../context/convert";
import type { AgentMessage, LlmMessage } from "../model/messages";

/**
 * The conversation as plain text for the summarizer. Sending it as text (inside
 * <conversation> tags) instead of as chat turns keeps the model from answering the
 * conversation instead of summarizing it. Labels and the 2000-char cut of tool results
 * follow pi's serializeConversation so summaries see what pi's would.
 */

export const TOOL_RESULT_MAX_CHARS = 2000;

export type SegmentKind = "user" | "thinking" | "assistant" | "toolCalls" | "toolResult";

export const SEGMENT_LABEL: Record<SegmentKind, string> = {
  user: "User",
  thinking: "Assistant thinking",
  assistant: "Assistant",
  toolCalls: "Assistant tool calls",
  toolResult: "Tool result",
};

/** One labelled paragraph of the serialized conversation. */
export interface Segment {
  kind: SegmentKind;
  text: string;
  /** Index of the source message in the list given to toSegments. */
  message: number;
  /** A failed tool call, failed command or errored reply (used by `smart`). */
  isError?: boolean;
}

export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[... ${text.length - max} more characters truncated]`;
}

function joinText(content: LlmMessage["content"]): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** pi renders tool arguments as key=JSON pairs. */
export function toolCallText(name: string, args: Record<string, unknown>): string {
  const parts = Object.entries(args ?? {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return `${name}(${parts.join(", ")})`;
}

/** Agent messages -> labelled segments, after pi's convertToLlm. */
export function toSegments(messages: readonly AgentMessage[]): Segment[] {
  const out: Segment[] = [];
  messages.forEach((agent, index) => {
    const m = toLlmMessage(agent);
    if (!m) return;
    const failedCommand = agent.role === "bashExecution" && (agent.cancelled || (agent.exitCode !== null && agent.exitCode !== undefined && agent.exitCode !== 0));
    if (m.role === "user") {
      const text = joinText(m.content);
      if (text) out.push({ kind: "user", text, message: index, isError: failedCommand || undefined });
    } else if (m.role === "assistant") {
      const text: string[] = [];
      const thinking: string[] = [];
      const calls: string[] = [];
      for (const b of m.content) {
        if (b.type === "text") text.push(b.text);
        else if (b.type === "thinking") thinking.push(b.thinking);
        else if (b.type === "toolCall") calls.push(toolCallText(b.name, b.arguments));
      }
      if (thinking.length) out.push({ kind: "thinking", text: thinking.join("\n"), message: index });
      if (text.length) out.push({ kind: "assistant", text: text.join("\n"), message: index });
      if (calls.length) out.push({ kind: "toolCalls", text: calls.join("; "), message: index });
      if (m.stopReason === "error" && m.errorMessage) {
        out.push({ kind: "assistant", text: `(request failed: ${m.errorMessage})`, message: index, isError: true });
      }
    } else {
      const text = joinText(m.content);
      if (text) out.push({ kind: "toolResult", text: cutText(text, TOOL_RESULT_MAX_CHARS), message: index, isError: m.isError || undefined });
    }
  });
  return out;
}

export function segmentText(s: Segment): string {
  return `[${SEGMENT_LABEL[s.kind]}]: ${s.text}`;
}

export function serializeSegments(segments: readonly Segment[]): string {
  return segments.map(segmentText).join("\n\n");
}

export function serializeConversation(messages: readonly AgentMessage[]): string {
  return serializeSegments(toSegments(messages));
}

/** pi's file lists appended to a summary: only the non-empty ones, one path a line. */
export function formatFileLists(readFiles: readonly string[], modifiedFiles: readonly string[]): string {
  const parts: string[] = [];
  if (readFiles.length) parts.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length) parts.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  return parts.length ? `\n\n${parts.join("\n\n")}` : "";
}

/** A previous summary without its trailing file lists (ours are cumulative anyway). */
export function stripFileLists(summary: string): string {
  return summary.replace(/(\s*<(read|modified)-files>[\s\S]*?<\/\2-files>)+\s*$/, "");
}
