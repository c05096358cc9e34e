import * as vscode from "vscode";
import { buildContext } from "../core/context/build-context";
import { renderAnthropic } from "../core/context/render-anthropic";
import { renderXml } from "../core/context/render-xml";
import { renderFormatContext } from "../core/context/format-context";
import { Session } from "../core/formats/pi/pi-session";
import { formatOf } from "../core/formats/registry";
import type { FormatContext, SessionFormat } from "../core/formats/session-format";
import type { SessionReader } from "../core/formats/session-reader";
import { leafTokenSummary, messageTokens } from "../core/tokens/format-tokens";
import { contextTokens } from "../core/tokens/context-tokens";
import { estimateMessageTokens } from "../core/formats/pi/tokens/pi-estimate";

export const PREVIEW_SCHEME = "ase-context";
export type ContextFormat = "pi" | "anthropic" | "xml";

/** Read-only documents holding context previews, keyed by URI. */
export class ContextPreviewProvider implements vscode.TextDocumentContentProvider {
  private docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? "// This preview is no longer available; run Preview Context again.";
  }

  set(uri: vscode.Uri, text: string): void {
    this.docs.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface PreviewResult {
  uri: vscode.Uri;
  /** The exact request (pi message list, Anthropic body or XML rendering). */
  request: unknown;
  tokens: { context: number; recorded: number; estimated: number; byPart: Array<{ entryId: string; kind: string; tokens: number }> };
}

/** The exact request for a leaf, as JSONC: a token breakdown in comments, then the JSON. */
export function buildPreview(session: SessionReader, leafId: string | undefined, format: ContextFormat, system?: string, strategy?: string): Omit<PreviewResult, "uri"> & { text: string } {
  if (!(session instanceof Session)) return otherPreview(session, leafId, format, system, strategy);
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
    `// Context pi sends for leaf ${ctx.leafId ?? "(none)"} of ${session.path}`,
    `// Format: ${format}. Model: ${ctx.model ? `${ctx.model.provider}/${ctx.model.modelId}` : "unknown"}. Thinking: ${ctx.thinkingLevel}.`,
    `// Context size (pi's rule): ${sizes.tokens.toLocaleString("en-US")} tokens = ${sizes.recorded.toLocaleString("en-US")} recorded usage + ${sizes.estimated.toLocaleString("en-US")} estimated (chars/4).`,
    `// ${ctx.parts.length} messages sent${ctx.compactionId ? `, compaction ${ctx.compactionId} in effect` : ""}. Estimated tokens by part:`,
    ...[...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `//   ${k.padEnd(20)} ${n.toLocaleString("en-US").padStart(10)}`),
    "",
  ];
  return { request, tokens: { context: sizes.tokens, recorded: sizes.recorded, estimated: sizes.estimated, byPart }, text: `${lines.join("\n")}${JSON.stringify(request, null, 2)}\n` };
}

/** The preview of a session of another format: its own messages (pi's format shows them as native), the Anthropic body, or XML. */
function otherPreview(session: SessionReader, leafId: string | undefined, format: ContextFormat, system?: string, strategy?: string): Omit<PreviewResult, "uri"> & { text: string } {
  const f = formatOf(session);
  const leaf = leafId === undefined ? f.defaultLeaf(session) : session.requireIndex(leafId);
  const recorded = f.context(session, leaf);
  const shaped = strategy ? shrink(f, recorded, strategy) : undefined;
  const ctx = shaped?.ctx ?? recorded;
  const t = leafTokenSummary(session, f, leaf, { ctx });
  const byPart = ctx.messages.map((m) => ({ entryId: m.entryId, kind: m.kind, tokens: messageTokens(m.message) }));
  const request = renderFormatContext(session, leaf, format === "pi" ? "native" : format, { system, ctx });
  const lines = [
    `// Context ${f.agent} sends for leaf ${ctx.leafId ?? "(none)"} of ${session.path}`,
    `// Format: ${format === "pi" ? "native" : format}. Model: ${t.model ?? "unknown"}.`,
    `// Context size: ${t.contextTokens.toLocaleString("en-US")} tokens = ${t.recordedPart.toLocaleString("en-US")} recorded usage + ${t.estimatedPart.toLocaleString("en-US")} estimated (chars/4).`,
    ...(shaped ? shaped.notes.map((n) => `// ${n}`) : []),
    `// ${ctx.messages.length} messages sent. Estimated tokens by part:`,
    ...Object.entries(t.byKind)
      .sort((a, b) => (b[1] as number) - (a[1] as number))
      .map(([k, n]) => `//   ${k.padEnd(20)} ${(n as number).toLocaleString("en-US").padStart(10)}`),
    "",
  ];
  return { request, tokens: { context: t.contextTokens, recorded: t.recordedPart, estimated: t.estimatedPart, byPart }, text: `${lines.join("\n")}${JSON.stringify(request, null, 2)}\n` };
}

/**
 * The context after one of the agent's own strategies, as a dry run: nothing is called,
 * the summary the agent would ask its LLM for stands as a marked placeholder.
 */
function shrink(f: SessionFormat, ctx: FormatContext, strategy: string): { ctx: FormatContext; notes: string[] } {
  const strategies = f.strategies;
  if (!strategies) throw new Error(`${f.agent} sessions have no context strategies`);
  const messages = ctx.messages.map((m) => m.message);
  const plan = strategies.plan(strategy, messages);
  const notes = [`Strategy: ${strategy} (dry run: nothing called). ${plan.applies ? `keeps ${plan.kept.length}, summarizes ${plan.summarized.length}, drops ${plan.dropped.length} of ${messages.length} messages` : `changes nothing: ${plan.why ?? "below its limits"}`}.`];
  if (!plan.applies) return { ctx, notes };
  const placeholder = plan.summarized.length ? `(the agent's summary of ${plan.summarized.length} messages, made by its LLM when the context is sent)` : undefined;
  const out = strategies.apply(plan, messages, placeholder);
  const kept = plan.kept.map((k) => ctx.messages[k]);
  const summaryFirst = out.length > kept.length;
  const shaped: FormatContext = {
    leafId: ctx.leafId,
    messages: out.map((message, k) => {
      if (summaryFirst && k === 0) return { entryId: ctx.leafId ?? "", kind: "summary" as const, message };
      const src = kept[summaryFirst ? k - 1 : k];
      return { entryId: src?.entryId ?? "", kind: src?.kind ?? "user", message };
    }),
  };
  if (placeholder) notes.push("The summary message holds a placeholder: the real one is the agent's LLM's.");
  return { ctx: shaped, notes };
}
