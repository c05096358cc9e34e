import type { AnthropicMessage } from "../session/session-format";
import { IMAGE_CHARS } from "../tokens/estimate";
import { pushAll } from "../util/push-all";
import { mk, renderXmlItems, tag, type XmlItem, type XmlRendering } from "./xml-items";

type Block = Record<string, unknown>;

function text(v: unknown): string {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map((b) => (b && typeof b === "object" && typeof (b as Block).text === "string" ? (b as Block).text : "")).join("\n");
  return v === undefined ? "" : JSON.stringify(v);
}

function blockItem(b: Block, id: string, role: "user" | "assistant"): XmlItem {
  switch (b.type) {
    case "text":
      return mk(id, role === "user" ? "user_message" : "assistant_response", role, tag(role === "user" ? "user_message" : "assistant_response", { id }, text(b.text)));
    case "thinking":
      return mk(id, "thinking", role, tag("thinking", { id }, text(b.thinking)));
    case "tool_use":
      return mk(id, "tool_call", role, tag("tool_call", { id, call_id: String(b.id ?? ""), name: String(b.name ?? "") }, JSON.stringify(b.input ?? {})));
    case "tool_result": {
      const body = text(b.content);
      return mk(id, "tool_result", role, tag("tool_result", { id, call_id: String(b.tool_use_id ?? ""), status: b.is_error ? "error" : "success" }, body));
    }
    case "image":
      return mk(id, "image", role, tag("image", { id }), IMAGE_CHARS);
    default:
      return mk(id, "block", role, tag("block", { id, type: String(b.type ?? "") }, JSON.stringify(b)));
  }
}

/**
 * A context of Anthropic-shaped messages (formats other than pi) as XML-tagged chunks,
 * one per content block, named by the entry they came from.
 */
export function renderXmlMessages(messages: ReadonlyArray<{ entryId: string; message: AnthropicMessage }>, opts: { system?: string; maxTokens?: number } = {}): XmlRendering {
  const items: XmlItem[] = [];
  for (const { entryId, message } of messages) {
    const role = message.role === "assistant" ? "assistant" : "user";
    const blocks: Block[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    pushAll(items, blocks.map((b, n) => blockItem(b, blocks.length > 1 ? `${entryId}.${n}` : entryId, role)));
  }
  return renderXmlItems(items, opts);
}
