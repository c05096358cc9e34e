import type { AnthropicMessage, FormatContext } from "../../session/session-format";
import { callInput } from "./index-hooks";
import { asObj, contentText, str } from "./lines";

type Block = Record<string, unknown>;

/** One Responses-API item as an Anthropic role and content block. */
function blockOf(item: unknown): { role: "user" | "assistant"; block: Block } {
  const p = asObj(item) ?? {};
  switch (p.type) {
    case "message":
      return { role: p.role === "assistant" ? "assistant" : "user", block: { type: "text", text: contentText(p.content) } };
    case "reasoning": {
      const summary = Array.isArray(p.summary) ? p.summary.map((s) => str(asObj(s)?.text) ?? "").join("\n") : "";
      return { role: "assistant", block: { type: "thinking", thinking: summary } };
    }
    case "function_call":
      return { role: "assistant", block: { type: "tool_use", id: p.call_id, name: p.name, input: callInput(p.arguments) } };
    case "custom_tool_call":
      return { role: "assistant", block: { type: "tool_use", id: p.call_id, name: p.name, input: { input: p.input } } };
    case "function_call_output":
    case "custom_tool_call_output":
      return { role: "user", block: { type: "tool_result", tool_use_id: p.call_id, content: typeof p.output === "string" ? p.output : contentText(p.output) } };
    default:
      return { role: "user", block: { type: "text", text: `[${String(p.type ?? "item")}] ${JSON.stringify(p)}` } };
  }
}

/**
 * Codex's history as Anthropic messages, for --format anthropic and xml: items become
 * blocks (reasoning summaries as thinking, calls as tool_use, outputs as tool_result),
 * consecutive items of one role one message. A translation, not what Codex sends.
 */
export function codexAnthropic(ctx: FormatContext): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const m of ctx.messages) {
    const { role, block } = blockOf(m.message);
    const last = out[out.length - 1];
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(block);
    else out.push({ role, content: [block] });
  }
  return out;
}
