import { kindOf, num, previewOf } from "../../session/line-text";
import { putUsageFigures } from "../../tokens/usage-figures";
import type { EntryTable } from "../../store/entry-table";
import { charsToTokens } from "../../tokens/estimate";
import { parseIsoTime } from "../../util/iso-time";
import type { IndexedEntry, IndexHooks } from "../../store/index-hooks";
import { summarizeToolCall } from "../../session/tool-summary";
import { type ClawdcodeLine, contentText, isCompactBoundary, lineMessage, outputText, toolResultFailed } from "./lines";

/** How a failed tool result's preview starts (describe reads only such results to confirm). */
export const ERROR_PREVIEW = "error:";


function inputText(v: unknown): string {
  return typeof v === "string" ? v : (JSON.stringify(v) ?? "");
}

/** The text a row shows for a line, before clipping. */
function previewText(l: ClawdcodeLine): string {
  switch (l.type) {
    case "tool_use":
      return summarizeToolCall(l.tool?.name, l.tool?.input, typeof l.cwd === "string" ? l.cwd : undefined);
    case "tool_result": {
      const out = outputText(l.toolResult?.output);
      const err = l.toolResult?.error;
      return toolResultFailed(l) ? `${ERROR_PREVIEW} ${outputText(err)}${out ? ` ${out}` : ""}` : out;
    }
    case "system":
      return isCompactBoundary(l) ? `compacted (${l.compactMetadata?.trigger ?? "?"})` : contentText(l.message?.content);
    default:
      return contentText(l.message?.content);
  }
}

/** Characters of a content block as the model reads it. */
function blockChars(b: Record<string, unknown>): number {
  if (!b || typeof b !== "object") return 0;
  if (b.type === "text" && typeof b.text === "string") return b.text.length;
  if (b.type === "tool_use") return String(b.name ?? "").length + inputText(b.input ?? {}).length;
  if (b.type === "tool_result") return outputText(b.content).length;
  return (JSON.stringify(b) ?? "").length;
}

/** chars/4 of the message the line adds to the context (lineMessage decides; system lines add nothing). */
function estimateOf(l: ClawdcodeLine): number {
  const m = lineMessage(l);
  if (!m) return 0;
  if (typeof m.content === "string") return charsToTokens(m.content.length);
  if (!Array.isArray(m.content)) return 0;
  let chars = 0;
  for (const b of m.content as Array<Record<string, unknown>>) chars += blockChars(b);
  return charsToTokens(chars);
}

/** The role a line's message has in the context. */
function roleOf(l: ClawdcodeLine): string {
  if (l.type === "tool_use") return "assistant";
  if (l.type === "tool_result") return "user";
  const r = l.message?.role;
  return typeof r === "string" ? r : l.type;
}

/**
 * The line scanner's view of a clawdcode line: uuid/parentUuid make the tree, the ISO
 * timestamp the time; assistant usage, model and compact boundaries' preTokens go in the
 * index so bars and rows need no second read.
 */
export class ClawdcodeIndexHooks implements IndexHooks {
  readonly formatId = "clawdcode";
  readonly agent = "ClawdCode";

  identify(e: Record<string, unknown>): IndexedEntry | string {
    if (typeof e.uuid !== "string" || !e.uuid) return `a clawdcode line needs a string "uuid"; found ${kindOf(e.uuid)} (line skipped)`;
    const l = e as unknown as ClawdcodeLine;
    const parentId = typeof e.parentUuid === "string" && e.parentUuid ? e.parentUuid : null;
    const type = typeof e.type === "string" ? e.type : "(untyped)";
    const time = typeof e.timestamp === "string" ? parseIsoTime(e.timestamp) : Number.NaN;
    return { id: e.uuid, parentId, type, time, preview: previewOf(previewText(l)), estimate: estimateOf(l) };
  }

  fill(t: EntryTable, i: number, e: Record<string, unknown>): void {
    const l = e as unknown as ClawdcodeLine;
    t.setRole(i, roleOf(l));
    const m = l.message;
    if (l.type === "assistant" && m && typeof m === "object") {
      if (m.usage && typeof m.usage === "object") putUsageFigures(t, i, { input: ["message.usage.input_tokens", m.usage.input_tokens], output: ["message.usage.output_tokens", m.usage.output_tokens] });
      if (typeof m.model === "string") t.setModel(i, m.model);
    } else if (l.type === "tool_use") {
      t.toolCalls[i] = 1;
    } else if (isCompactBoundary(l)) {
      const r = t.rareOf(i);
      r.tokensBefore = num(l.compactMetadata?.preTokens);
      const post = l.compactMetadata?.postTokens;
      if (typeof post === "number" && Number.isFinite(post) && post > 0) r.tokensAfter = post;
    }
  }

  /** The id a line claims (the reader checks a re-read line is still the one it indexed). */
  idOf(e: Record<string, unknown>): unknown {
    return e.uuid;
  }
}

export const clawdcodeIndexHooks = new ClawdcodeIndexHooks();
