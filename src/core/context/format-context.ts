import type { AnthropicMessage, FormatContext } from "../session/session-format";
import type { SessionReader } from "../session/session-reader";
import { renderXmlMessages } from "./xml-anthropic";

export type OtherContextFormat = "native" | "anthropic" | "xml";

/**
 * The context of a leaf of a session in another format than pi's, rendered: `native` is
 * `{messages}` as the agent holds them, `anthropic` the request body's messages, `xml`
 * tagged chunks per content block.
 */
export function renderFormatContext(session: SessionReader, leaf: number, format: OtherContextFormat, opts: { system?: string; maxTokens?: number; ctx?: FormatContext } = {}): unknown {
  const f = session.format;
  const ctx = opts.ctx ?? f.context(session, leaf);
  if (format === "native") return { messages: ctx.messages.map((m) => m.message) };
  const messages = f.anthropic ? f.anthropic(ctx) : ctx.messages.map((m) => m.message as AnthropicMessage);
  if (format === "anthropic") return { ...(opts.system ? { system: opts.system } : {}), messages };
  // Entry ids follow the messages one for one unless the format merged some for the API.
  const ids = messages.length === ctx.messages.length ? ctx.messages.map((m) => m.entryId) : messages.map(() => "");
  return { leafId: ctx.leafId, ...renderXmlMessages(messages.map((message, k) => ({ entryId: ids[k], message })), { system: opts.system, maxTokens: opts.maxTokens }) };
}
