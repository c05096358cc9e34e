import { parseIsoTime } from "../../util/iso-time";
import { firstString, part, type SearchHooks, type SearchPart, valuesText } from "../../session/search-hooks";
import { type ClawdcodeLine, contentText, isCompactBoundary, outputText, toolResultFailed } from "./lines";

/** Text and tool_use blocks of a message's content. */
function messageParts(kind: "user" | "assistant", content: unknown): SearchPart[] {
  const out = part(kind, contentText(content));
  if (Array.isArray(content)) {
    for (const b of content as Array<Record<string, unknown>>) {
      if (b && b.type === "tool_use") out.push(...part("tool-call", `${String(b.name ?? "")} ${valuesText(b.input)}`.trim()));
    }
  }
  return out;
}

function partsOf(l: ClawdcodeLine): SearchPart[] {
  switch (l.type) {
    case "user":
      return l.isCompactSummary ? part("summary", contentText(l.message?.content)) : messageParts("user", l.message?.content);
    case "assistant":
      return messageParts("assistant", l.message?.content);
    case "tool_use":
      return part("tool-call", `${l.tool?.name ?? ""} ${valuesText(l.tool?.input)}`.trim());
    case "tool_result": {
      const out = outputText(l.toolResult?.output);
      return part("tool-result", toolResultFailed(l) ? [outputText(l.toolResult?.error), out].filter((x) => x).join("\n") : out);
    }
    case "system":
      return part(isCompactBoundary(l) ? "boundary" : "info", contentText(l.message?.content));
    default:
      return [];
  }
}

/** The clawdcode store's visible text: messages, tool calls and results, compaction lines. */
export const clawdcodeSearchHooks: SearchHooks = {
  entry(e) {
    if (typeof e.uuid !== "string" || !e.uuid) return null;
    const time = typeof e.timestamp === "string" ? parseIsoTime(e.timestamp) : Number.NaN;
    return { id: e.uuid, time, parts: partsOf(e as unknown as ClawdcodeLine) };
  },
  cwd: (objects) => firstString(objects, (o) => o.cwd),
};
