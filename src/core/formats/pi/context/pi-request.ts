import type { Session } from "../pi-session";
import { buildContext } from "./build-context";
import { renderAnthropic } from "./render-anthropic";
import { renderXml } from "./render-xml";

/**
 * The context `ase context` prints for a pi leaf (-1: the empty context): pi's own request
 * (`native` and `pi` alike: leaf, thinking level, model, the system prompt when given, the
 * messages as pi sends them), the Anthropic body (with what the conversion changed as
 * notes) or XML-tagged chunks.
 */
export function piContextRequest(session: Session, leaf: number, as: "native" | "pi" | "anthropic" | "xml", opts: { system?: string; maxTokens?: number }): { request: unknown; notes: string[] } {
  const { system, maxTokens } = opts;
  const ctx = buildContext(session, leaf >= 0 ? session.metas[leaf].id : null);
  if (as === "pi" || as === "native") {
    return { request: { leafId: ctx.leafId, thinkingLevel: ctx.thinkingLevel, model: ctx.model, ...(system ? { systemPrompt: system } : {}), messages: ctx.parts.map((p) => p.llm) }, notes: [] };
  }
  if (as === "anthropic") {
    const { body, notes } = renderAnthropic(ctx, { system });
    return { request: body, notes };
  }
  return { request: { leafId: ctx.leafId, ...renderXml(ctx, { system, maxTokens }) }, notes: [] };
}
