import { part, type SearchHooks, type SearchPart, valuesText } from "../../session/search-hooks";
import { COMPACTION_ROW, isCompactionType, type OcEntry, isObject } from "./records";
import { entryText } from "./text-of";

/**
 * What a search reads of an OpenCode entry (entries.ts): the text a person sees in its
 * row, by the neutral kinds describe.ts gives; a tool call by its name and argument
 * values, not the JSON keys. Step markers and patches hold nothing to search.
 */
function partsOf(e: OcEntry): SearchPart[] {
  const p = e.part ?? {};
  switch (isCompactionType(e.type) ? COMPACTION_ROW : e.type) {
    case "text":
      if (e.role === "user") return part(p.synthetic ? "injected" : "user", p.text);
      return part(e.message.summary === true ? "summary" : "assistant", p.text);
    case "reasoning":
      return part("assistant", p.text);
    case "tool": {
      const state = isObject(p.state) ? p.state : {};
      return part("tool-call", `${String(p.tool ?? "")} ${valuesText(state.input)}`.trim());
    }
    case "tool-result":
      return part("tool-result", entryText(e));
    case COMPACTION_ROW:
      return part("boundary", entryText(e));
    default:
      return [];
  }
}

export const opencodeSearchHooks: SearchHooks = {
  entry(e) {
    const o = e as OcEntry;
    if (typeof o.id !== "string" || typeof o.type !== "string") return null;
    return { id: o.id, time: typeof o.time === "number" ? o.time : Number.NaN, parts: partsOf(o) };
  },
  cwd: () => "",
};
