import type { FormatContext } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { claudeCodeChain } from "./chain";
import { asLine } from "./lines";
import { chainMessages } from "./messages";

/**
 * The context Claude Code sends for a leaf, its transcript part: the chain it loads
 * (chain.ts) made into API messages (messages.ts). Each message names the chain line it
 * starts at. Its messages are Anthropic's {role, content} already.
 */
export function claudeCodeContext(session: SessionReader, leaf: number): FormatContext {
  if (leaf < 0) return { leafId: null, messages: [] };
  // Only user and assistant lines become messages: the others (progress, attachments, system) are not read.
  const t = session.table;
  const lines = claudeCodeChain(session, leaf)
    .filter((i) => {
      const type = t.typeAt(i);
      return type === "user" || type === "assistant";
    })
    .map((i) => asLine(session.entryAt(i)));
  return { leafId: session.table.idAt(leaf), messages: chainMessages(lines) };
}
