import type {
  AgentMessage,
  BashExecutionMessage,
  LlmMessage,
  TextBlock,
  ImageBlock,
} from "../model/messages";

/** Interoperability constants: the exact wrapping pi uses (docs/session-format.md). */
export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

export function bashExecutionText(m: BashExecutionMessage): string {
  let text = `Ran \`${m.command}\`\n`;
  text += m.output ? `\`\`\`\n${m.output}\n\`\`\`` : "(no output)";
  if (m.cancelled) text += "\n\n(command cancelled)";
  else if (m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0) {
    text += `\n\nCommand exited with code ${m.exitCode}`;
  }
  if (m.truncated && m.fullOutputPath) text += `\n\n[Output truncated. Full output: ${m.fullOutputPath}]`;
  return text;
}

function userText(text: string, timestamp: number | undefined): LlmMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/**
 * pi's convertToLlm for one message: user/assistant/toolResult pass through untouched,
 * the rest become user messages, excluded bash runs and unknown roles vanish.
 */
export function toLlmMessage(m: AgentMessage): LlmMessage | undefined {
  switch (m.role) {
    case "bashExecution":
      return m.excludeFromContext ? undefined : userText(bashExecutionText(m), m.timestamp);
    case "custom": {
      const content: Array<TextBlock | ImageBlock> =
        typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content;
      return { role: "user", content, timestamp: m.timestamp };
    }
    case "branchSummary":
      return userText(BRANCH_SUMMARY_PREFIX + m.summary + BRANCH_SUMMARY_SUFFIX, m.timestamp);
    case "compactionSummary":
      return userText(COMPACTION_SUMMARY_PREFIX + m.summary + COMPACTION_SUMMARY_SUFFIX, m.timestamp);
    case "user":
    case "assistant":
    case "toolResult":
      return m;
    default:
      return undefined;
  }
}
