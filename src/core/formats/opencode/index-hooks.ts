import { previewOf } from "../../session/line-text";
import type { EntryTable } from "../../store/entry-table";
import type { IndexedEntry, IndexHooks } from "../../store/index-hooks";
import { putUsageFigures } from "../../tokens/usage-figures";
import { type OcEntry, isObject, OPENCODE_ID } from "./records";
import { summarizeToolCall } from "../../session/tool-summary";
import { entryText } from "./text-of";

/**
 * Index hooks over the entries built from the database (entries.ts): one per part. Usage
 * and cost sit on each step-finish part, one per model call, as OpenCode recorded them
 * (its cost is computed from the model's configured prices: kept, never re-priced).
 */
export const opencodeIndexHooks: IndexHooks = {
  formatId: OPENCODE_ID,
  agent: "OpenCode",

  identify(e: Record<string, unknown>): IndexedEntry | string {
    const o = e as OcEntry;
    if (typeof o.id !== "string") return "an entry without an id";
    const text = entryText(o);
    // A tool call's row says what it does ("Agent (general): Survey the notes", "Read notes.txt"),
    // through the neutral summarizer every format's rows use; its estimate stays the input's size.
    const state = o.type === "tool" && o.part && isObject(o.part.state) ? o.part.state : undefined;
    const cwd = typeof o.message.path === "object" && o.message.path && typeof (o.message.path as { cwd?: unknown }).cwd === "string" ? ((o.message.path as { cwd: string }).cwd) : undefined;
    const preview = state ? summarizeToolCall(o.part?.tool, state.input, cwd) : previewOf(text);
    return { id: o.id, parentId: o.parentId, type: o.type, time: o.time, preview, estimate: Math.ceil(text.length / 4) };
  },

  idOf: (e) => e.id,

  fill(table: EntryTable, i: number, e: Record<string, unknown>): void {
    const o = e as OcEntry;
    if (o.role === "user") table.setRole(i, "user");
    else if (o.role === "assistant") table.setRole(i, "assistant");
    if (o.type === "tool") table.toolCalls[i] = 1;
    const m = o.message;
    if (o.role === "assistant" && typeof m.modelID === "string") table.setModel(i, m.modelID);
    const p = o.part;
    if (o.type === "step-finish" && p && isObject(p.tokens)) {
      const t = p.tokens;
      const cache = isObject(t.cache) ? t.cache : {};
      // OpenCode's input excludes cache reads and writes; reasoning is billed as output.
      const output = typeof t.output === "number" && typeof t.reasoning === "number" ? t.output + t.reasoning : t.output;
      putUsageFigures(table, i, {
        input: ["tokens.input", t.input],
        output: ["tokens.output + tokens.reasoning", output],
        cacheRead: ["tokens.cache.read", cache.read],
        cacheWrite: ["tokens.cache.write", cache.write],
        ...(t.total !== undefined ? { total: ["tokens.total", t.total] } : {}),
        ...(p.cost !== undefined ? { cost: ["cost", p.cost] } : {}),
      });
    }
  },
};
