import type { ContextFormat, PreviewOptions, PreviewText } from "../../../session/session-format";
import type { Session } from "../pi-session";
import { contextTokens } from "../tokens/context-tokens";
import { estimateMessageTokens } from "../tokens/pi-estimate";
import { buildContext } from "./build-context";
import { renderAnthropic } from "./render-anthropic";
import { renderXml } from "./render-xml";

/** The exact request pi sends for a leaf, as JSONC: a token breakdown in comments, then the JSON. */
export function piPreview(session: Session, leafId: string | undefined, format: ContextFormat, { system, of, notes }: PreviewOptions): PreviewText & { text: string } {
  const ctx = buildContext(session, leafId);
  const sizes = contextTokens(ctx);
  const byPart = ctx.agent.map((p) => ({ entryId: p.entryId, kind: p.kind === "message" ? p.agent.role : p.kind, tokens: estimateMessageTokens(p.agent) }));
  let request: unknown;
  if (format === "pi") request = { thinkingLevel: ctx.thinkingLevel, model: ctx.model, messages: ctx.parts.map((p) => p.llm) };
  else if (format === "anthropic") request = renderAnthropic(ctx, { system }).body;
  else request = renderXml(ctx, { system });
  const kinds = new Map<string, number>();
  for (const p of byPart) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + p.tokens);
  const lines = [
    `// Context pi sends for leaf ${ctx.leafId ?? "(none)"} of ${of}`,
    `// Format: ${format}. Model: ${ctx.model ? `${ctx.model.provider}/${ctx.model.modelId}` : "unknown"}. Thinking: ${ctx.thinkingLevel}.`,
    `// Context size (pi's rule): ${sizes.tokens.toLocaleString("en-US")} tokens = ${sizes.recorded.toLocaleString("en-US")} recorded usage + ${sizes.estimated.toLocaleString("en-US")} estimated (chars/4).`,
    ...notes.map((n) => `// ${n}`),
    `// ${ctx.parts.length} messages sent${ctx.compactionId ? `, compaction ${ctx.compactionId} in effect` : ""}. Estimated tokens by part:`,
    ...[...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `//   ${k.padEnd(20)} ${n.toLocaleString("en-US").padStart(10)}`),
    "",
  ];
  return { request, tokens: { context: sizes.tokens, recorded: sizes.recorded, estimated: sizes.estimated, byPart }, text: `${lines.join("\n")}${JSON.stringify(request, null, 2)}\n` };
}

