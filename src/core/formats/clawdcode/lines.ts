/**
 * The lines of the seed "clawdcode" store (claude-code-format.md 15.2) and the one
 * conversion of a line into the message the agent sends. Everything in this folder that
 * needs a message goes through lineMessage: context, compaction and the summary prompt.
 */

export const CLAWDCODE_TYPES = ["user", "assistant", "tool_use", "tool_result", "system"] as const;
export type ClawdcodeType = (typeof CLAWDCODE_TYPES)[number];

export const COMPACT_BOUNDARY = "compact_boundary";

export interface ClawdcodeLine {
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  timestamp: string;
  type: string;
  subtype?: string;
  cwd?: string;
  gitBranch?: string;
  version?: string;
  message?: { role?: string; content?: unknown; model?: string; usage?: { input_tokens?: number; output_tokens?: number } };
  tool?: { id?: string; name?: string; input?: unknown };
  toolResult?: { id?: string; output?: unknown; error?: unknown };
  isCompactSummary?: boolean;
  compactMetadata?: { trigger?: string; preTokens?: number; postTokens?: number; filesIncluded?: string[] };
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: unknown;
  is_error?: true;
}

/** A message as the agent holds it: Anthropic's {role, content}. */
export interface ClawdcodeMessage {
  role: "user" | "assistant";
  content: unknown;
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** A tool result's error flag: any non-empty error value. */
export function toolResultFailed(line: ClawdcodeLine): boolean {
  const err = line.toolResult?.error;
  return err !== undefined && err !== null && err !== false && err !== "";
}

export function isCompactBoundary(line: ClawdcodeLine): boolean {
  return line.type === "system" && line.subtype === COMPACT_BOUNDARY;
}

/**
 * The message a line adds to the context, or undefined for a line that carries none
 * (system lines, unknown types, a user/assistant line without a message).
 * user/assistant: their message's role and content; tool_use: an assistant message with
 * one tool_use block; tool_result: a user message with one tool_result block, is_error
 * when the result records an error.
 */
export function lineMessage(line: ClawdcodeLine): ClawdcodeMessage | undefined {
  switch (line.type) {
    case "user":
    case "assistant": {
      const m = line.message;
      if (!m || typeof m !== "object") return undefined;
      return { role: line.type, content: m.content ?? "" };
    }
    case "tool_use": {
      const t = line.tool ?? {};
      const block: ToolUseBlock = { type: "tool_use", id: str(t.id), name: str(t.name), input: t.input ?? {} };
      return { role: "assistant", content: [block] };
    }
    case "tool_result": {
      const r = line.toolResult ?? {};
      // The seed says content = output; a result with no output at all shows its error instead.
      const content = r.output !== undefined ? r.output : toolResultFailed(line) ? r.error : "";
      const block: ToolResultBlock = { type: "tool_result", tool_use_id: str(r.id), content };
      if (toolResultFailed(line)) block.is_error = true;
      return { role: "user", content: [block] };
    }
    default:
      return undefined;
  }
}

/** The plain text of a message's content: strings as they are, text blocks joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content as Array<Record<string, unknown>>) {
    if (b && b.type === "text" && typeof b.text === "string") parts.push(b.text);
  }
  return parts.join("\n");
}

/** A tool result's output as text (non-string outputs as JSON). */
export function outputText(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  return JSON.stringify(v) ?? "";
}
