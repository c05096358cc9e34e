import { parseIsoTime } from "../../util/iso-time";
import { part, type SearchHooks, type SearchPart, valuesText } from "../../session/search-hooks";
import { isSessionContext } from "./native-context";
import { isStateSnapshot } from "./replay";
import { rootsByHash } from "./store-files";
import { callsOf, contentText, responsesOf, resultText } from "./text-of";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The visible text of one message: prompts, answers, thoughts, tool calls and results, UI lines. */
function messageParts(m: Record<string, unknown>): SearchPart[] {
  switch (m.type) {
    case "user": {
      if (isSessionContext(m)) return part("injected", contentText(m.content));
      if (isStateSnapshot(m)) return part("summary", contentText(m.content));
      const out = part("user", contentText(m.content));
      for (const r of responsesOf(m)) out.push(...part("tool-result", `${r.name} ${resultText(r.response)}`));
      return out;
    }
    case "gemini": {
      const out = part("assistant", contentText(m.content));
      if (Array.isArray(m.thoughts)) for (const t of m.thoughts.filter(isObject)) out.push(...part("assistant", `${String(t.subject ?? "")} ${String(t.description ?? "")}`.trim()));
      for (const c of callsOf(m)) out.push(...part("tool-call", `${c.name} ${valuesText(c.args)}`.trim()));
      return out;
    }
    case "info":
    case "warning":
    case "error":
      return part("info", contentText(m.content));
    default:
      return [];
  }
}

/**
 * Gemini CLI's lines for a search: a message record is an entry. A checkpoint repeats
 * messages recorded as lines of their own, except a compression's state snapshot, which
 * only a checkpoint holds: that one is searched. Metadata lines are no entries.
 */
export const geminiSearchHooks: SearchHooks = {
  entry(e) {
    let m: Record<string, unknown> | undefined;
    if (typeof e.id === "string" && typeof e.type === "string") m = e;
    else if (isObject(e.$set) && Array.isArray(e.$set.messages)) m = e.$set.messages.filter(isObject).find((x) => typeof x.id === "string" && isStateSnapshot(x));
    if (!m) return null;
    const time = typeof m.timestamp === "string" ? parseIsoTime(m.timestamp) : Number.NaN;
    return { id: String(m.id), time, parts: messageParts(m) };
  },
  cwd(objects) {
    const meta = objects.find((o): o is Record<string, unknown> => isObject(o) && typeof o.sessionId === "string");
    if (!meta) return "";
    const known = typeof meta.projectHash === "string" ? rootsByHash.get(meta.projectHash) : undefined;
    const dirs = meta.directories;
    return known ?? (Array.isArray(dirs) && typeof dirs[0] === "string" ? dirs[0] : "");
  },
};
