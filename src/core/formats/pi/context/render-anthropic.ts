import type { ImageBlock, LlmMessage, TextBlock } from "../model/messages";
import type { SessionContext } from "./build-context";
import { pushAll } from "../../../util/push-all";

type ABlock = Record<string, unknown> & { type: string };
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: ABlock[];
}
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: string;
  messages: AnthropicMessage[];
}

export interface AnthropicRenderOptions {
  system?: string;
  model?: string;
  maxTokens?: number;
}

export const DEFAULT_MAX_TOKENS = 16384;

function userBlocks(content: string | Array<TextBlock | ImageBlock>): ABlock[] {
  const blocks = typeof content === "string" ? [{ type: "text", text: content } as TextBlock] : content;
  return blocks.map((b) =>
    b.type === "image"
      ? { type: "image", source: { type: "base64", media_type: b.mimeType, data: b.data } }
      : { type: "text", text: b.text },
  );
}

function assistantBlocks(m: Extract<LlmMessage, { role: "assistant" }>, notes: string[]): ABlock[] {
  const out: ABlock[] = [];
  for (const b of m.content) {
    if (b.type === "text") out.push({ type: "text", text: b.text });
    else if (b.type === "toolCall") out.push({ type: "tool_use", id: b.id, name: b.name, input: b.arguments ?? {} });
    else if (b.type === "thinking") {
      if (b.redacted && b.thinkingSignature) out.push({ type: "redacted_thinking", data: b.thinkingSignature });
      else if (b.thinkingSignature) out.push({ type: "thinking", thinking: b.thinking, signature: b.thinkingSignature });
      else if (b.thinking) {
        // The API refuses unsigned thinking; send it as text so the content survives.
        out.push({ type: "text", text: b.thinking });
        notes.push("a thinking block without signature was sent as text");
      }
    }
  }
  return out;
}

/**
 * The Anthropic Messages API request body a context becomes: tool calls as tool_use,
 * tool results as user tool_result blocks, consecutive same-role turns merged, empty text
 * dropped (the API rejects it). Returns the notes on anything it had to change.
 */
export function renderAnthropic(ctx: SessionContext, opts: AnthropicRenderOptions = {}): { body: AnthropicRequestBody; notes: string[] } {
  const notes: string[] = [];
  const messages: AnthropicMessage[] = [];
  const add = (role: "user" | "assistant", blocks: ABlock[], entryId: string) => {
    const kept = blocks.filter((b) => !(b.type === "text" && !(b.text as string)));
    if (kept.length < blocks.length) notes.push(`${entryId}: empty text block dropped`);
    if (!kept.length) {
      notes.push(`${entryId}: ${role} message with no content dropped`);
      return;
    }
    const last = messages[messages.length - 1];
    if (last && last.role === role) pushAll(last.content, kept);
    else messages.push({ role, content: kept });
  };
  for (const part of ctx.parts) {
    const m = part.llm;
    if (m.role === "user") add("user", userBlocks(m.content), part.entryId);
    else if (m.role === "assistant") add("assistant", assistantBlocks(m, notes), part.entryId);
    else if (m.role === "toolResult") {
      add(
        "user",
        [{ type: "tool_result", tool_use_id: m.toolCallId, content: userBlocks(m.content), is_error: !!m.isError }],
        part.entryId,
      );
    }
  }
  const body: AnthropicRequestBody = {
    model: opts.model ?? ctx.model?.modelId ?? "",
    max_tokens: opts.maxTokens ?? DEFAULT_MAX_TOKENS,
    messages,
  };
  if (opts.system) body.system = opts.system;
  return { body, notes: [...new Set(notes)] };
}
