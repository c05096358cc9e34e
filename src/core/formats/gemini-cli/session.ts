import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { LineProblem } from "../../store/entry-meta";
import { MemorySession } from "../../session/memory-session";
import { readBytesFile, readTextFile } from "../../util/safe-open";
import { geminiIndexHooks } from "./index-hooks";
import { isSessionContext } from "./native-context";
import { entriesOf, GEMINI_ID, type GeminiEntry } from "./records";
import { type Replay, replay } from "./replay";

/** Largest session read whole (a JavaScript string holds ~512 MiB). */
const MAX_BYTES = 512 * 2 ** 20;

/** A Gemini CLI session: the replayed file as a tree of messages, read whole. */
export class GeminiSession extends MemorySession {
  constructor(
    path: string,
    readonly replayed: Replay,
  ) {
    const problems: LineProblem[] = [
      ...replayed.problems.map((p) => ({ kind: "parse-error" as const, line: p.line, message: p.message })),
      ...replayed.unknown.map((u) => ({ kind: "bad-field" as const, line: u.line, message: `line ${u.line}: a record of a kind this reader does not know (keys ${u.keys.join(", ")}): kept out of the tree` })),
    ];
    const entries = entriesOf(replayed, isSessionContext);
    const lines = new Map(replayed.nodes.map((n) => [n.key, n.line]));
    super(GEMINI_ID, geminiIndexHooks, entries, path, 0, 0, (r) => lines.get((r as GeminiEntry).id) ?? 0, problems);
  }

  /** Reads and replays a session file (.jsonl, or a legacy .json). */
  static open(path: string): GeminiSession {
    return new GeminiSession(path, replay(readBytesFile(path, MAX_BYTES), path));
  }

  /** Position of the message Gemini would resume from: the end of the current list (-1: none). */
  get resumeLeaf(): number {
    const key = this.replayed.current.at(-1);
    return key === undefined ? -1 : (this.tree.indexOf(key) ?? -1);
  }
}

/** The project root a session belongs to: its folder's .project_root, else the metadata's first directory. */
export function projectRootOf(path: string, meta: Record<string, unknown>): string {
  const chats = dirname(path);
  const marker = basename(chats) === "chats" ? join(dirname(chats), ".project_root") : join(dirname(dirname(chats)), ".project_root");
  try {
    if (existsSync(marker)) return readTextFile(marker).trim();
  } catch {
    // An unreadable marker: fall back to what the session itself says.
  }
  const dirs = meta.directories;
  return Array.isArray(dirs) && typeof dirs[0] === "string" ? dirs[0] : "";
}
