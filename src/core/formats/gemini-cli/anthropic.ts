import type { AnthropicMessage } from "../../session/session-format";
import { callsOf, resultText } from "./text-of";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parts of a Gemini content ({text}, {functionCall}, {functionResponse}, thoughts) as Anthropic blocks. */
export function partsToBlocks(parts: unknown): Array<Record<string, unknown>> {
  if (typeof parts === "string") return parts ? [{ type: "text", text: parts }] : [];
  if (!Array.isArray(parts)) return [];
  const blocks: Array<Record<string, unknown>> = [];
  for (const p of parts.filter(isObject)) {
    if (typeof p.text === "string") blocks.push(p.thought ? { type: "thinking", thinking: p.text } : { type: "text", text: p.text });
    else if (isObject(p.functionCall)) blocks.push({ type: "tool_use", id: p.functionCall.id ?? "", name: p.functionCall.name ?? "?", input: p.functionCall.args ?? {} });
    else if (isObject(p.functionResponse)) {
      const r = p.functionResponse.response;
      blocks.push({ type: "tool_result", tool_use_id: p.functionResponse.id ?? "", content: resultText(r), ...(isObject(r) && r.error !== undefined ? { is_error: true } : {}) });
    } else if (isObject(p.inlineData)) blocks.push({ type: "image", source: { type: "base64", media_type: p.inlineData.mimeType, data: p.inlineData.data } });
    else blocks.push({ type: "text", text: JSON.stringify(p) });
  }
  return blocks;
}

/** A stored message (user, gemini) in Anthropic's shape, for details: thoughts, text, calls. */
export function storedToAnthropic(m: Record<string, unknown>): AnthropicMessage | undefined {
  if (m.type === "user") return { role: "user", content: partsToBlocks(m.content) };
  if (m.type !== "gemini") return undefined;
  const blocks: Array<Record<string, unknown>> = [];
  const thoughts = Array.isArray(m.thoughts) ? m.thoughts.filter(isObject) : [];
  for (const t of thoughts) blocks.push({ type: "thinking", thinking: `${t.subject ? `**${String(t.subject)}** ` : ""}${String(t.description ?? "")}` });
  const content = partsToBlocks(m.content).filter((b) => b.type !== "tool_use" || !Array.isArray(m.toolCalls));
  blocks.push(...content);
  if (Array.isArray(m.toolCalls)) for (const c of callsOf(m)) blocks.push({ type: "tool_use", id: c.id ?? "", name: c.name, input: c.args ?? {} });
  return { role: "assistant", content: blocks };
}

/** Wire contents ({parts, role}) as Anthropic messages (one per content). */
export function contentsToAnthropic(contents: ReadonlyArray<{ role: string; parts: unknown }>): AnthropicMessage[] {
  return contents.map((c) => ({ role: c.role === "model" ? "assistant" : "user", content: partsToBlocks(c.parts) }));
}
