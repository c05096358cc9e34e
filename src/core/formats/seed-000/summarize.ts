import { conversationBlock, SYSTEM_PROMPT } from "../../compaction/prompts";
import { resolveSummaryModel, summaryFallbackModel } from "../../compaction/summary-model";
import { type LlmOptions, requestSummary, type SummaryProgress, type SummaryResult } from "../../compaction/summarizer";
import type { Seed000Message } from "./messages";

/** Tool results longer than this are cut in the transcript the summarizer reads. */
export const TOOL_RESULT_MAX_CHARS = 2000;
export const SEED000_SUMMARY_MAX_TOKENS = 4096;

export const SEED000_SUMMARY_PROMPT = `Summarize the transcript above so that the assistant can continue the work without it. It replaces these messages in the assistant's context; the most recent messages (or the important ones) stay word for word after your summary.
Say what the user asked for, what was done and decided, which files and commands mattered, what failed and why, and what is still open. Be concise: short paragraphs or bullet points, no preamble.`;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n[... ${text.length - max} more characters]` : text;
}

/** One paragraph per message, in the shape the summarizer reads best. */
export function seed000Transcript(messages: readonly Seed000Message[]): string {
  const out: string[] = [];
  for (const m of messages) {
    const who = m.role === "user" ? "User" : "Assistant";
    if (typeof m.content === "string") {
      out.push(`[${who}]: ${m.content}`);
      continue;
    }
    for (const b of m.content) {
      if (b.type === "tool_use") out.push(`[Assistant tool call]: ${b.name}(${JSON.stringify(b.input)})`);
      else out.push(`[Tool result]: ${cut(b.content, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return out.join("\n\n");
}

export interface SummarizeOptions {
  signal?: AbortSignal;
  onProgress?: (p: SummaryProgress) => void;
  /** Most tokens the summary may take. Default SEED000_SUMMARY_MAX_TOKENS. */
  maxTokens?: number;
  /** The session's own model (metadata.model): used when llm.model is unset and it is a Claude model. */
  sessionModel?: string;
}

/**
 * The summary for compress or smart, through the compaction's summarizer: the same
 * time budgets, retries, error messages and cancellation. Resolves with a non-empty
 * text or rejects with a SummaryError; nothing is written either way.
 */
export async function summarizeMessages(messages: readonly Seed000Message[], llm: LlmOptions, opts: SummarizeOptions = {}): Promise<SummaryResult> {
  if (!messages.length) throw new Error("nothing to summarize: no messages");
  const own = opts.sessionModel && /^claude-/.test(opts.sessionModel) ? { provider: "anthropic", modelId: opts.sessionModel } : null;
  const { model, source } = resolveSummaryModel(own, llm.model);
  return requestSummary(
    {
      part: "history",
      system: SYSTEM_PROMPT,
      prompt: conversationBlock(seed000Transcript(messages)) + SEED000_SUMMARY_PROMPT,
      maxTokens: opts.maxTokens ?? SEED000_SUMMARY_MAX_TOKENS,
    },
    { ...llm, model, fallbackModel: summaryFallbackModel(source), signal: opts.signal, onProgress: opts.onProgress },
  );
}
