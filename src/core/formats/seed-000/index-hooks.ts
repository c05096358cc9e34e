import type { EntryTable } from "../../store/entry-table";
import type { IndexedEntry, IndexHooks } from "../../store/index-hooks";
import { putUsageFigures } from "../../tokens/usage-figures";
import { summarizeToolCall } from "../../session/tool-summary";
import { lineProblem, parseToolCall } from "./line";
import { ROLE } from "./messages";
import type { Seed000Type } from "./line";

export const SEED000_ID = "seed-000";

const PREVIEW_MAX = 100;

/** The first n UTF-16 units of s, one fewer when the cut would split a surrogate pair. */
function head(s: string, n: number): string {
  if (s.length <= n) return s;
  const c = s.charCodeAt(n - 1);
  return s.slice(0, c >= 0xd800 && c <= 0xdbff ? n - 1 : n);
}

/** Up to PREVIEW_MAX chars on one line: whitespace runs become one space, "..." past the end. */
export function oneLine(text: string): string {
  // Only the head is looked at: a megabyte tool output costs no more than a short one.
  const s = head(text, PREVIEW_MAX * 3).replace(/\s+/g, " ").trim();
  return s.length > PREVIEW_MAX ? `${head(s, PREVIEW_MAX - 3)}...` : s;
}

function previewOf(type: Seed000Type, content: string): string {
  if (type !== "tool_call") return oneLine(content);
  const call = parseToolCall(content);
  // Paths stay as written: the cwd is on the session's first line, not this one (the explorer makes them relative).
  return call ? oneLine(summarizeToolCall(call.name, call.input)) : oneLine(content);
}

/** chars/4 of the JSON of the content, as the seed's design estimates. */
export function contentEstimate(content: unknown): number {
  return Math.ceil((JSON.stringify(content) ?? "").length / 4);
}

export const seed000IndexHooks: IndexHooks = {
  formatId: SEED000_ID,
  agent: "Seed 000",

  identify(e: Record<string, unknown>): IndexedEntry | string {
    const problem = lineProblem(e);
    if (problem) return problem;
    const type = e.type as Seed000Type;
    const content = e.content as string;
    return {
      id: e.id as string,
      parentId: e.parentId as string | null,
      type,
      time: typeof e.timestamp === "number" && Number.isFinite(e.timestamp) ? e.timestamp : Number.NaN,
      preview: previewOf(type, content),
      estimate: contentEstimate(content),
    };
  },

  idOf: (e) => e.id,

  fill(table: EntryTable, i: number, e: Record<string, unknown>): void {
    const type = e.type as Seed000Type;
    table.setRole(i, ROLE[type]);
    if (type === "tool_call") table.toolCalls[i] = 1;
    const meta = e.metadata;
    if (!meta || typeof meta !== "object") return;
    const m = meta as Record<string, unknown>;
    if (typeof m.model === "string" && m.model) table.setModel(i, m.model);
    const u = m.usage as Record<string, unknown> | undefined;
    // Both counts or no usage, as the seed's lines have them; a count there but not to be believed is noted.
    if (u && typeof u === "object" && u.input_tokens !== undefined && u.output_tokens !== undefined) {
      putUsageFigures(table, i, { input: ["metadata.usage.input_tokens", u.input_tokens], output: ["metadata.usage.output_tokens", u.output_tokens] });
    }
  },
};
