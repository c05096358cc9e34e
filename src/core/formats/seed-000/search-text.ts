import { firstString, part, type SearchHooks, type SearchPart, valuesText } from "../../session/search-hooks";
import { lineProblem, parseToolCall, type Seed000Line } from "./line";

function partsOf(l: Seed000Line): SearchPart[] {
  switch (l.type) {
    case "user":
      return part("user", l.content);
    case "assistant":
      return part("assistant", l.content);
    case "tool_call": {
      const call = parseToolCall(l.content);
      return part("tool-call", call ? `${call.name} ${valuesText(call.input)}`.trim() : l.content);
    }
    case "tool_result":
      return part("tool-result", l.content);
  }
}

/** Seed 000's visible text: each line's content (a tool call's name and argument values). */
export const seed000SearchHooks: SearchHooks = {
  entry(e) {
    if (lineProblem(e)) return null;
    const l = e as unknown as Seed000Line;
    return { id: l.id, time: typeof l.timestamp === "number" && Number.isFinite(l.timestamp) ? l.timestamp : Number.NaN, parts: partsOf(l) };
  },
  cwd: (objects) => firstString(objects.slice(0, 1), (o) => (o.metadata as Record<string, unknown> | undefined)?.cwd),
};
