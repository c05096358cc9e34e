import { parseIsoTime } from "../../util/iso-time";
import { firstString, part, type SearchHooks, type SearchPart, valuesText } from "../../session/search-hooks";
import { codexEntryId } from "./index-hooks";
import { asObj, type CodexLine, contentText, isGeneratedUserText, payloadOf, str } from "./lines";
import { decompressRollout } from "./zst";

/** The visible text of a history item (never an event_msg: it repeats the items). */
function itemParts(p: Record<string, unknown>): SearchPart[] {
  switch (p.type) {
    case "message": {
      const text = contentText(p.content);
      if (p.role === "assistant") return part("assistant", text);
      return part(p.role === "user" && !isGeneratedUserText(text) ? "user" : "injected", text);
    }
    case "reasoning":
      return part("assistant", Array.isArray(p.summary) ? p.summary.map((s) => str(asObj(s)?.text) ?? "").join(" ") : "");
    case "function_call":
      return part("tool-call", `${str(p.name) ?? ""} ${typeof p.arguments === "string" ? p.arguments : valuesText(p.arguments)}`.trim());
    case "custom_tool_call":
      return part("tool-call", `${str(p.name) ?? ""} ${typeof p.input === "string" ? p.input : ""}`.trim());
    case "function_call_output":
    case "custom_tool_call_output":
      return part("tool-result", typeof p.output === "string" ? p.output : contentText(p.output));
    default:
      return [];
  }
}

/** Codex's visible text: history items and compaction summaries; the session_meta header is no entry. */
export const codexSearchHooks: SearchHooks = {
  entry(e) {
    if (typeof e.type !== "string" || e.type === "session_meta") return null;
    const l = e as CodexLine;
    const time = typeof e.timestamp === "string" ? parseIsoTime(e.timestamp) : Number.NaN;
    const p = payloadOf(l);
    const parts = l.type === "response_item" ? itemParts(p) : l.type === "compacted" ? part("boundary", str(p.message)) : [];
    return { id: codexEntryId(e), time, parts };
  },
  cwd: (objects) => firstString(objects, (o) => (o.type === "session_meta" ? asObj(o.payload)?.cwd : undefined)),
  // A .zst rollout is searched in its decompressed copy (zst.ts: streamed without blocking, reused while the file is unchanged).
  plainCopy(path) {
    if (!path.endsWith(".zst")) return undefined;
    return decompressRollout(path).then((d) => ({ path: d.plain, size: d.bytes, ...(d.error ? { error: d.error } : {}) }));
  },
};
