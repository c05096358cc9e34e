import type { ImageBlock, TextBlock } from "../model/messages";
import { IMAGE_CHARS } from "../../../tokens/estimate";
import { mk, renderXmlItems, tag, type XmlItem, type XmlRendering } from "../../../context/xml-items";
import type { ContextPart, SessionContext } from "./build-context";
import { pushAll } from "../../../util/push-all";

function blockItems(
  blocks: Array<TextBlock | ImageBlock>,
  id: (n: number) => string,
  textTag: string,
  extra: Record<string, string | number | undefined> = {},
): XmlItem[] {
  return blocks.map((b, n) =>
    b.type === "image"
      ? mk(id(n), "image", "user", tag("image", { id: id(n), media_type: b.mimeType }), IMAGE_CHARS)
      : mk(id(n), textTag, "user", tag(textTag, { id: id(n), ...extra }, b.text)),
  );
}

function partItems(part: ContextPart, tailNo: number): XmlItem[] {
  const a = part.agent;
  const base = part.kind === "retained-tail" ? `${part.entryId}.tail${tailNo}` : part.entryId;
  const sub = (count: number) => (n: number) => (count > 1 ? `${base}.${n}` : base);
  switch (a.role) {
    case "compactionSummary":
      return [mk(base, "progress_summary", "user", tag("progress_summary", { id: base, tokens_before: a.tokensBefore }, a.summary))];
    case "branchSummary":
      return [mk(base, "branch_summary", "user", tag("branch_summary", { id: base, from: a.fromId }, a.summary))];
    case "bashExecution":
      return [
        mk(base, "bash_execution", "user", tag("bash_execution", { id: base, command: a.command, exit_code: a.exitCode ?? undefined, cancelled: a.cancelled ? "true" : undefined }, a.output)),
      ];
    case "custom": {
      const blocks = typeof a.content === "string" ? [{ type: "text", text: a.content } as TextBlock] : a.content;
      return blockItems(blocks, sub(blocks.length), "injected_context", { custom_type: a.customType });
    }
    case "user": {
      const blocks = typeof a.content === "string" ? [{ type: "text", text: a.content } as TextBlock] : a.content;
      return blockItems(blocks, sub(blocks.length), "user_message");
    }
    case "toolResult": {
      const text = a.content.filter((b): b is TextBlock => b.type === "text").map((b) => b.text).join("\n");
      const images = a.content.filter((b) => b.type === "image").length;
      const status = a.isError ? "error" : "success";
      return [
        mk(base, "tool_result", "user", tag("tool_result", { id: base, call_id: a.toolCallId, name: a.toolName, status, images: images || undefined }, text), text.length + images * IMAGE_CHARS),
      ];
    }
    case "assistant": {
      const id = sub(a.content.length);
      return a.content.map((b, n) => {
        if (b.type === "thinking") return mk(id(n), "thinking", "assistant", tag("thinking", { id: id(n) }, b.thinking));
        if (b.type === "toolCall") {
          return mk(id(n), "tool_call", "assistant", tag("tool_call", { id: id(n), call_id: b.id, name: b.name }, JSON.stringify(b.arguments ?? {})));
        }
        return mk(id(n), "assistant_response", "assistant", tag("assistant_response", { id: id(n) }, b.type === "text" ? b.text : ""));
      });
    }
    default:
      return [];
  }
}

/**
 * The context as XML-tagged chunks, consecutive same-role items grouped into one message.
 * With maxTokens, the oldest items are dropped first until the rest fits.
 */
export function renderXml(ctx: SessionContext, opts: { system?: string; maxTokens?: number } = {}): XmlRendering {
  const items: XmlItem[] = [];
  let tailNo = 0;
  for (const part of ctx.parts) pushAll(items, partItems(part, part.kind === "retained-tail" ? tailNo++ : 0));
  return renderXmlItems(items, opts);
}

