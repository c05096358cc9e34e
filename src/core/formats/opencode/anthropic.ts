import type { AnthropicMessage } from "../../session/session-format";
import { type Json, isObject } from "./records";

/**
 * Chat-completions wire messages as Anthropic messages, for the neutral renderings
 * (--format anthropic / xml, the preview): reasoning as thinking, tool_calls as tool_use,
 * each `tool` message as a tool_result in a user turn.
 */
export function wireToAnthropic(messages: readonly Json[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      const content = typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.filter(isObject).map((b) => (b.type === "text" ? { type: "text", text: b.text } : { type: "text", text: JSON.stringify(b) })) : "";
      out.push({ role: "user", content });
    } else if (m.role === "assistant") {
      const blocks: Json[] = [];
      if (typeof m.reasoning_content === "string" && m.reasoning_content) blocks.push({ type: "thinking", thinking: m.reasoning_content });
      if (typeof m.content === "string" && m.content) blocks.push({ type: "text", text: m.content });
      for (const c of Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObject) : []) {
        const fn = isObject(c.function) ? c.function : {};
        let input: unknown = {};
        try {
          input = JSON.parse(String(fn.arguments ?? "{}"));
        } catch {
          input = { arguments: fn.arguments };
        }
        blocks.push({ type: "tool_use", id: c.id, name: fn.name, input });
      }
      out.push({ role: "assistant", content: blocks });
    } else if (m.role === "tool") {
      const block = { type: "tool_result", tool_use_id: m.tool_call_id, content: String(m.content ?? "") };
      const last = out.at(-1);
      // Results of one step go in one user turn, as Anthropic expects.
      if (last?.role === "user" && Array.isArray(last.content) && last.content.every((b) => b.type === "tool_result")) last.content.push(block);
      else out.push({ role: "user", content: [block] });
    }
  }
  return out;
}
