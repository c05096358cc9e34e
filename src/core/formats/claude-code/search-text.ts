import { parseIsoTime } from "../../util/iso-time";
import { firstString, part, type SearchHooks, type SearchPart, valuesText } from "../../session/search-hooks";
import { asLine, asText, blocksOf, type ClaudeLine, contentText, isCompactBoundary, isConversationType } from "./lines";

function userParts(l: ClaudeLine): SearchPart[] {
  if (l.isCompactSummary) return part("summary", contentText(l.message?.content));
  const out: SearchPart[] = [];
  for (const b of blocksOf(l.message?.content)) {
    if (b.type === "text") out.push(...part(l.isMeta ? "injected" : "user", b.text));
    else if (b.type === "tool_result") out.push(...part("tool-result", typeof b.content === "string" ? b.content : contentText(b.content)));
  }
  return out;
}

function assistantParts(l: ClaudeLine): SearchPart[] {
  const out: SearchPart[] = [];
  for (const b of blocksOf(l.message?.content)) {
    if (b.type === "text") out.push(...part("assistant", b.text));
    else if (b.type === "thinking") out.push(...part("assistant", b.thinking));
    else if (b.type === "tool_use" || b.type === "server_tool_use") out.push(...part("tool-call", `${asText(b.name)} ${valuesText(b.input)}`.trim()));
  }
  return out;
}

function partsOf(l: ClaudeLine): SearchPart[] {
  switch (l.type) {
    case "user":
      return userParts(l);
    case "assistant":
      return assistantParts(l);
    case "system":
      return part(isCompactBoundary(l) ? "boundary" : "system", asText(l.content));
    default:
      // Attachments and progress lines carry hook and tool bookkeeping, not conversation.
      return [];
  }
}

/** Claude Code's visible text: the five conversation types with a uuid; metadata lines are no entries. */
export const claudeCodeSearchHooks: SearchHooks = {
  entry(e) {
    if (!isConversationType(e.type) || typeof e.uuid !== "string" || !e.uuid) return null;
    const time = typeof e.timestamp === "string" ? parseIsoTime(e.timestamp) : Number.NaN;
    return { id: e.uuid, time, parts: partsOf(asLine(e)) };
  },
  cwd: (objects) => firstString(objects, (o) => o.cwd),
};
