import type { ContextFormat, FormatContext, PreviewText, SessionFormat } from "../session/session-format";
import type { SessionReader } from "../session/session-reader";
import { leafTokenSummary, messageTokens, overheadLine, UNRECORDED_PARTS } from "../usage/format-tokens";
import { clipText, visibleText } from "../util/visible-text";
import { sessionTitle, titledPath } from "../util/session-title";
import { loadedTitleFacts } from "../formats/title-facts";
import { renderFormatContext } from "./format-context";

export type { ContextFormat, PreviewText };

/**
 * The exact request for a leaf of any format, as JSONC: a token breakdown in comments,
 * then the JSON. `strategy`: one of the agent's own context strategies, as a dry run.
 */
export function buildPreview(session: SessionReader, leafId: string | undefined, format: ContextFormat, system?: string, strategy?: string): PreviewText & { text: string } {
  // The session by its title, the path at the end: a path alone is a time and an id.
  const of = titledPath(sessionTitle(loadedTitleFacts(session), session.path), session.path);
  const f = session.format;
  if (f.preview) {
    // What the agent sends beside the messages, measured as for every format (the recorded input less the messages).
    const t = leafTokenSummary(session, f, leafId === undefined ? f.defaultLeaf(session) : session.requireIndex(leafId));
    return f.preview(session, leafId, format, { system, of, notes: [t.overhead ? overheadLine(t.overhead) : `Not in the file: ${UNRECORDED_PARTS} (no recorded usage to estimate them from).`] });
  }
  return otherPreview(session, leafId, format, of, system, strategy);
}

/** The preview of a session of a format without its own: its messages (the "pi" choice shows them as native), the Anthropic body, or XML. */
function otherPreview(session: SessionReader, leafId: string | undefined, format: ContextFormat, of: string, system?: string, strategy?: string): PreviewText & { text: string } {
  const f = session.format;
  const leaf = leafId === undefined ? f.defaultLeaf(session) : session.requireIndex(leafId);
  const recorded = f.context(session, leaf);
  const shaped = strategy ? shrink(f, recorded, strategy) : undefined;
  const ctx = shaped?.ctx ?? recorded;
  const t = leafTokenSummary(session, f, leaf, { ctx });
  const byPart = ctx.messages.map((m) => ({ entryId: m.entryId, kind: m.kind, tokens: messageTokens(m.message) }));
  // The system prompt the file records (marked as what it is) when none is given.
  const own = system === undefined ? f.recordedSystemPrompt?.(session) : undefined;
  const rendered = renderFormatContext(session, leaf, format === "pi" ? "native" : format, { system: system ?? own?.text, ctx });
  const request = own && format === "pi" ? { systemPromptApproximate: own.text, ...(rendered as object) } : rendered;
  const lines = [
    `// Context ${f.agent} sends for leaf ${ctx.leafId ?? "(none)"} of ${of}`,
    `// Format: ${format === "pi" ? "native" : format}. Model: ${t.model ?? "unknown"}.`,
    `// Context size: ${t.contextTokens.toLocaleString("en-US")} tokens = ${t.recordedPart.toLocaleString("en-US")} recorded usage + ${t.estimatedPart.toLocaleString("en-US")} estimated (chars/4).`,
    ...(t.overhead ? [`// ${overheadLine(t.overhead)}`] : [`// Not in the file: ${f.unrecordedParts ?? UNRECORDED_PARTS} (no recorded usage to estimate them from).`]),
    ...(own ? [`// System prompt: ${own.note}`] : []),
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
  if (!plan.applies) {
    // Under the agent's limit nothing changes; say what the strategy keeps once the limit is passed.
    const over = strategies.plan(strategy, messages, { maxTokens: 0 });
    if (over.applies) notes.push(`Over its limit it would keep ${keptRanges(over.kept, ctx.messages)}${over.summarized.length ? ` and summarize ${over.summarized.length}` : ""}${over.dropped.length ? `, dropping ${over.dropped.length}` : ""}.`);
    return { ctx, notes };
  }
  notes.push(`Kept: ${keptRanges(plan.kept, ctx.messages)}${plan.reasons ? ` (${reasonCounts(plan.reasons)})` : ""}.`);
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

/** Most ranges a preview lists before it says how many more there are. */
const MAX_RANGES = 12;

/** The kept messages as 1-based ranges with the entry ids at their ends: "#23-#72 (s22..s71)". */
function keptRanges(kept: readonly number[], messages: FormatContext["messages"]): string {
  const ranges: Array<[number, number]> = [];
  for (const k of kept) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] === k - 1) last[1] = k;
    else ranges.push([k, k]);
  }
  const id = (k: number) => visibleText(clipText(messages[k]?.entryId ?? "?", 40));
  const shown = ranges.slice(0, MAX_RANGES).map(([a, b]) => (a === b ? `#${a + 1} (${id(a)})` : `#${a + 1}-#${b + 1} (${id(a)}..${id(b)})`));
  const more = ranges.length - shown.length;
  return `${shown.join(", ")}${more > 0 ? `, and ${more} more range(s)` : ""}`;
}

/** How many kept messages each reason kept: "tool-use 12, long 4". */
function reasonCounts(reasons: ReadonlyMap<number, string>): string {
  const n = new Map<string, number>();
  for (const r of reasons.values()) n.set(r, (n.get(r) ?? 0) + 1);
  return [...n].map(([r, c]) => `${r} ${c}`).join(", ");
}
