import type { FormatContext } from "../session/session-format";
import { leafTokenSummary, messageTokens } from "../usage/format-tokens";
import type { ContextSide } from "./diff-contexts";
import { messageText } from "./message-text";
import { quoted, sessionTitle } from "../util/session-title";
import { visibleText } from "../util/visible-text";
import { loadedTitleFacts } from "../formats/title-facts";

/** A message longer than this is cut in the rendering (a diff editor slows down on megabytes). */
export const MAX_MESSAGE_CHARS = 100_000;
/** About the most a whole rendering holds: many messages get a smaller share each (at least 2,000 characters). */
export const MAX_DOC_CHARS = 10_000_000;

const n = (x: number) => x.toLocaleString("en-US");

/** The message's text, cut to `max` characters with a note of how much was left out. */
function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[... ${n(text.length - max)} more characters not shown]`;
}

/**
 * A leaf's context as readable text, one block per message (`### #3 assistant (entry ID,
 * 120 tokens)` then its text), under a header naming the session, the leaf and its size:
 * each side of a context diff in an editor.
 */
export function renderContextText(side: ContextSide, opts: { title?: string; ctx?: FormatContext; maxChars?: number } = {}): string {
  const f = side.session.format;
  const ctx = opts.ctx ?? f.context(side.session, side.leaf);
  const t = leafTokenSummary(side.session, f, side.leaf, { ctx });
  const max = opts.maxChars ?? Math.max(2_000, Math.min(MAX_MESSAGE_CHARS, Math.floor(MAX_DOC_CHARS / Math.max(1, ctx.messages.length))));
  const lines = [
    `# ${opts.title ?? `Context of ${ctx.leafId ?? "(no leaf)"}`}`,
    `# ${f.agent} session ${quoted(sessionTitle(loadedTitleFacts(side.session), side.session.path), 80)}, leaf ${ctx.leafId ?? "(none)"} (${visibleText(side.session.path)})`,
    `# ${n(ctx.messages.length)} message${ctx.messages.length === 1 ? "" : "s"}, ${n(t.contextTokens)} context tokens (${t.source === "recorded" ? `recorded usage at ${t.recordedAt} + estimates after it` : "estimated"})${t.overhead ? `, of which about ${n(t.overhead.tokens)} not in the file (${t.overhead.parts})` : ""}`,
  ];
  if (!ctx.messages.length) lines.push("", "(empty context: nothing is sent)");
  ctx.messages.forEach((m, k) => {
    lines.push("", `### #${k + 1} ${m.kind} (entry ${m.entryId}, ${n(messageTokens(m.message))} tokens)`, clipped(messageText(m.message), max));
  });
  return `${lines.join("\n")}\n`;
}
