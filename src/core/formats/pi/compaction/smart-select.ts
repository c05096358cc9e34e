import type { AgentMessage } from "../model/messages";
import { charsToTokens } from "../../../tokens/estimate";
import { cutText, SEGMENT_LABEL, type Segment, segmentText, toSegments } from "./serialize";

/**
 * The `smart` strategy, precisely:
 *
 * pi reads a compaction back as "summary, then the entries from firstKeptEntryId on",
 * so nothing before the cut can stay in the context as a message of its own. `smart`
 * therefore uses the same cut as `summarize` and carries chosen items from the part
 * before the cut INSIDE the summary text, word for word, in a numbered
 * <kept-verbatim> block after the LLM summary (before the file lists). pi (and our
 * reader) see one ordinary compaction summary, so it reads back everywhere.
 *
 * Chosen items, from the serialized transcript (the same paragraphs the summarizer sees):
 * - every tool-call paragraph ([Assistant tool calls]: name(args...)),
 * - every error: a tool result with isError, a failed or cancelled shell command
 *   (bashExecution with a non-zero exit code), a reply that ended in an API error,
 * - long messages: a user or assistant text paragraph of SMART_LONG_CHARS or more
 *   (pasted specs, long explanations) - thinking is never kept.
 * Each item is cut at SMART_ITEM_MAX_CHARS (tool results are already cut at 2000 by
 * the serializer). Items are taken newest first while they fit in the budget
 * (keepRecentTokens / 2, estimated as chars/4), then printed oldest first. Items that
 * do not fit are summarized like everything else.
 *
 * The LLM gets the transcript with each chosen item replaced by a placeholder
 * "[<label> kept verbatim as #n]", so it summarizes the rest and can refer to them.
 */
export const SMART_LONG_CHARS = 1500;
export const SMART_ITEM_MAX_CHARS = 4000;

export interface SmartItem {
  n: number;
  /** Entry the paragraph came from. */
  entryId: string;
  reason: "tool-call" | "error" | "long";
  text: string;
  tokens: number;
}

export interface SmartSelection {
  items: SmartItem[];
  /** Estimated tokens of the verbatim block. */
  tokens: number;
  budget: number;
  /** Candidates left to the summary because the budget was spent. */
  overBudget: number;
  /** Transcripts for the LLM, with placeholders in place of the chosen items. */
  historyText: string;
  turnPrefixText: string;
}

interface Source {
  entryId: string;
  agent: AgentMessage;
}

function reasonFor(s: Segment): SmartItem["reason"] | undefined {
  if (s.kind === "toolCalls") return "tool-call";
  if (s.isError) return "error";
  if ((s.kind === "user" || s.kind === "assistant") && s.text.length >= SMART_LONG_CHARS) return "long";
  return undefined;
}

export function selectSmart(plan: {
  toSummarize: readonly Source[];
  turnPrefix: readonly Source[];
  settings: { keepRecentTokens: number };
}): SmartSelection {
  const budget = Math.floor(plan.settings.keepRecentTokens / 2);
  const parts = [plan.toSummarize, plan.turnPrefix].map((list) => ({ list, segments: toSegments(list.map((m) => m.agent)) }));
  const candidates: Array<{ part: number; seg: number; reason: SmartItem["reason"]; text: string; tokens: number }> = [];
  parts.forEach((p, part) =>
    p.segments.forEach((s, seg) => {
      const reason = reasonFor(s);
      if (!reason) return;
      const text = segmentText({ ...s, text: cutText(s.text, SMART_ITEM_MAX_CHARS) });
      candidates.push({ part, seg, reason, text, tokens: charsToTokens(text.length) });
    }),
  );
  const chosen = new Set<number>();
  // The block's heading and each item's "#n " count against the budget too.
  let used = charsToTokens(verbatimBlock([{ n: 1, entryId: "", reason: "long", text: "", tokens: 0 }]).length);
  let overBudget = 0;
  for (let c = candidates.length - 1; c >= 0; c--) {
    const cost = candidates[c].tokens + 2;
    if (used + cost > budget) {
      overBudget++;
      continue;
    }
    used += cost;
    chosen.add(c);
  }
  const items: SmartItem[] = [];
  const placeholder = new Map<string, number>();
  candidates.forEach((c, idx) => {
    if (!chosen.has(idx)) return;
    const n = items.length + 1;
    const seg = parts[c.part].segments[c.seg];
    items.push({ n, entryId: parts[c.part].list[seg.message].entryId, reason: c.reason, text: c.text, tokens: c.tokens });
    placeholder.set(`${c.part}:${c.seg}`, n);
  });
  const texts = parts.map((p, part) =>
    p.segments
      .map((s, seg) => {
        const n = placeholder.get(`${part}:${seg}`);
        return n === undefined ? segmentText(s) : `[${SEGMENT_LABEL[s.kind]} kept verbatim as #${n}]`;
      })
      .join("\n\n"),
  );
  const block = verbatimBlock(items);
  return { items, tokens: charsToTokens(block.length), budget, overBudget, historyText: texts[0], turnPrefixText: texts[1] };
}

/** The block appended to the summary; empty when nothing was chosen. */
export function verbatimBlock(items: readonly SmartItem[]): string {
  if (!items.length) return "";
  const body = items.map((i) => `#${i.n} ${i.text}`).join("\n\n");
  return `\n\n## Kept Verbatim\nThese items from the summarized part are copied word for word; the summary refers to them by number.\n\n<kept-verbatim>\n${body}\n</kept-verbatim>`;
}
