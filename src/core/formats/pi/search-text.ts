import { parseIsoTime } from "../../util/iso-time";
import { firstString, part, type SearchHooks, type SearchPart, valuesText } from "../../session/search-hooks";
import { isPiHeader, v1EntryId } from "./index-hooks";

type Obj = Record<string, unknown>;

/** Text blocks of a content value (a string is one), joined by line breaks. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const b of content as Obj[]) if (b && b.type === "text" && typeof b.text === "string") parts.push(b.text);
  return parts.join("\n");
}

function assistantParts(m: Obj): SearchPart[] {
  const out: SearchPart[] = [];
  for (const b of Array.isArray(m.content) ? (m.content as Obj[]) : []) {
    if (!b) continue;
    if (b.type === "text") out.push(...part("assistant", b.text));
    else if (b.type === "thinking") out.push(...part("assistant", b.thinking));
    else if (b.type === "toolCall") out.push(...part("tool-call", `${String(b.name ?? "")} ${valuesText(b.arguments)}`.trim()));
  }
  return [...out, ...part("assistant", m.errorMessage)];
}

function messageParts(m: Obj): SearchPart[] {
  switch (m.role) {
    case "user":
      return part("user", contentText(m.content));
    case "assistant":
      return assistantParts(m);
    case "toolResult":
      return part("tool-result", contentText(m.content));
    case "bashExecution":
      return part("shell", [m.command, m.output].filter((x) => typeof x === "string" && x).join("\n"));
    case "custom":
    case "hookMessage":
      return part("injected", contentText(m.content));
    case "branchSummary":
      return part("branch-summary", m.summary);
    case "compactionSummary":
      return part("summary", m.summary);
    default:
      return [];
  }
}

function partsOf(e: Obj): SearchPart[] {
  switch (e.type) {
    case "message":
      return e.message && typeof e.message === "object" ? messageParts(e.message as Obj) : [];
    case "compaction":
      return part("boundary", e.summary);
    case "branch_summary":
      return part("branch-summary", e.summary);
    case "custom_message":
      return part("injected", contentText(e.content));
    case "label":
      return part("label", e.label);
    case "session_info":
      return part("info", e.name);
    default:
      return [];
  }
}

/** pi's visible text per entry: message content, tool calls and output, summaries, labels and names. */
export const piSearchHooks: SearchHooks = {
  entry(e, at) {
    if (isPiHeader(e)) return null;
    const id = at.version < 2 ? v1EntryId(at.lineNo) : e.id;
    if (typeof id !== "string" || !id) return null;
    const time = typeof e.timestamp === "string" ? parseIsoTime(e.timestamp) : Number.NaN;
    return { id, time, parts: partsOf(e) };
  },
  cwd: (objects) => (isPiHeader(objects[0]) ? firstString(objects.slice(0, 1), (o) => o.cwd) : ""),
};
