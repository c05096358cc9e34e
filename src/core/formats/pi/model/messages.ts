/** Message shapes as pi writes them into `message` entries (see docs/session-format.md). */

export interface TextBlock {
  type: "text";
  text: string;
  textSignature?: string;
}

export interface ImageBlock {
  type: "image";
  data: string;
  mimeType: string;
}

export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
}

export interface ToolCallBlock {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type UserContent = string | Array<TextBlock | ImageBlock>;
export type AssistantBlock = TextBlock | ThinkingBlock | ToolCallBlock;

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens?: number;
  cost?: Record<string, number>;
}

export interface UserMessage {
  role: "user";
  content: UserContent;
  timestamp?: number;
}

export interface AssistantMessage {
  role: "assistant";
  content: AssistantBlock[];
  api?: string;
  provider?: string;
  model?: string;
  usage?: Usage;
  stopReason?: string;
  errorMessage?: string;
  timestamp?: number;
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: Array<TextBlock | ImageBlock>;
  isError: boolean;
  details?: unknown;
  usage?: Usage;
  timestamp?: number;
}

export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode: number | null | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  excludeFromContext?: boolean;
  timestamp?: number;
}

export interface CustomMessage {
  role: "custom";
  customType: string;
  content: UserContent;
  display: boolean;
  details?: unknown;
  timestamp?: number;
}

export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}

export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

/** Any message an entry can hold or the context builder can make. */
export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

/** What goes to the LLM after pi's convertToLlm. */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage;
