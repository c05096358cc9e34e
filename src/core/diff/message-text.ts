/**
 * A context message of any format as readable text, for diffs: its text blocks as they
 * are, other blocks under a bracketed tag ("[tool call read t1]" then its arguments).
 * Image data is never included, only its type and size.
 */
export function messageText(message: unknown): string {
  if (typeof message === "string") return message;
  if (!message || typeof message !== "object") return JSON.stringify(message) ?? "";
  const m = message as Record<string, unknown>;
  if (!("content" in m)) return JSON.stringify(m, null, 2);
  // pi's tool results carry the call they answer on the message, not on a block.
  const head = m.role === "toolResult" ? `[tool result ${str(m.toolName)} ${str(m.toolCallId)}${m.isError ? " error" : ""}]\n` : "";
  return head + contentText(m.content);
}

function str(v: unknown): string {
  return typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v);
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content) ?? "";
  return content.map(blockText).join("\n\n");
}

function imageText(b: Record<string, unknown>): string {
  const src = (b.source && typeof b.source === "object" ? b.source : b) as Record<string, unknown>;
  const type = str(src.media_type ?? src.mimeType ?? b.mimeType) || "unknown type";
  const data = src.data ?? b.data;
  return `[image ${type}${typeof data === "string" ? `, ${data.length} characters of data` : ""}]`;
}

function blockText(block: unknown): string {
  if (typeof block === "string") return block;
  if (!block || typeof block !== "object") return String(block);
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
      return str(b.text);
    case "thinking":
      return `[thinking]\n${str(b.thinking)}`;
    case "redacted_thinking":
      return "[redacted thinking]";
    case "toolCall":
      return `[tool call ${str(b.name)} ${str(b.id)}]\n${JSON.stringify(b.arguments ?? {})}`;
    case "tool_use":
      return `[tool call ${str(b.name)} ${str(b.id)}]\n${JSON.stringify(b.input ?? {})}`;
    case "tool_result":
      return `[tool result ${str(b.tool_use_id)}${b.is_error ? " error" : ""}]\n${contentText(b.content)}`;
    case "image":
      return imageText(b);
    default:
      return JSON.stringify(b);
  }
}
