import { isPiHeader } from "./index-hooks";
import { listWith, type ListOptions, type ListResult, type SessionScanner } from "../../store/discover";

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Array<{ type?: string; text?: string }>)
    .filter((b) => b && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join(" ");
}

/** A user message's words as a listing shows them ("" for any other line). */
function firstMessageOf(obj: Record<string, unknown>): string {
  const m = obj.message as { role?: string; content?: unknown } | undefined;
  if (obj.type !== "message" || m?.role !== "user") return "";
  return textOf(m.content).replace(/\s+/g, " ").trim().slice(0, 200);
}

/** pi's store: <sessions dir>/<project>/<time>_<id>.jsonl, a header line first, session_info names. */
export const piScanner: SessionScanner = {
  formatId: "pi",
  projectsDir: (root) => root,
  headerLines: 1,
  nameMarker: Buffer.from('"session_info"'),
  nameOf: (obj) => (obj.type === "session_info" && typeof obj.name === "string" && obj.name.trim() ? obj.name.trim() : undefined),
  // A loaded session's name is its last session_info name too (SessionTree.name).
  namesInLoad: true,
  // The header, then the first user message with words: the facts need nothing after them.
  headDone: (objects) => objects.length === 1 ? !isPiHeader(objects[0]) : firstMessageOf(objects[objects.length - 1]) !== "",
  head(objects, size) {
    const header = objects[0];
    if (!header) throw new Error(size === 0 ? "not a pi session: empty file" : "not a pi session: no JSON line in the first 256 KiB");
    if (!isPiHeader(header)) throw new Error(`not a pi session: first JSON line is not a header {"type":"session","id":...}`);
    let firstMessage = "";
    for (const obj of objects.slice(1)) {
      firstMessage = firstMessageOf(obj);
      if (firstMessage) break;
    }
    return {
      id: header.id,
      cwd: typeof header.cwd === "string" ? header.cwd : "",
      version: typeof header.version === "number" ? header.version : 1,
      parentSession: typeof header.parentSession === "string" ? header.parentSession : undefined,
      created: typeof header.timestamp === "string" ? header.timestamp : "",
      firstMessage,
    };
  },
};

/** Lists every pi session under a sessions dir, grouped by cwd, newest first. */
export function listSessions(sessionsDir: string, opts: ListOptions = {}): Promise<ListResult> {
  return listWith(piScanner, sessionsDir, opts);
}
