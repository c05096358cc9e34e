import { existsSync, statSync } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { LineProblem } from "../../store/entry-meta";
import { edgeHashesOf, type FileStamp, StaleSessionError } from "../../store/file-stamp";
import { MemorySession } from "../../session/memory-session";
import { readTextFile } from "../../util/safe-open";
import { geminiIndexHooks } from "./index-hooks";
import { isSessionContext } from "./native-context";
import { entriesOf, GEMINI_ID, type GeminiEntry } from "./records";
import { type Replay, type ReplayEnd, replayFile } from "./replay";

/** Largest session read whole (a JavaScript string holds ~512 MiB). */
const MAX_BYTES = 512 * 2 ** 20;

/**
 * A Gemini CLI session: the replayed file as a tree of messages, read whole. It is "live"
 * as the explorer needs (size, stamp, refresh), but never reads on from where it stopped:
 * a new line may replace an earlier message or the whole list, so any change to the file
 * asks for a reload (StaleSessionError), which replays it again.
 */
export class GeminiSession extends MemorySession {
  /** Read on one thread, whole. */
  readonly threads = 1;
  readonly workerFailure: string | undefined = undefined;
  /** Bytes read: the whole file as it was when stamped. */
  readonly size: number;

  constructor(
    path: string,
    readonly replayed: Replay,
    /** The file as it was when read; a session built in memory has none. */
    readonly stamp: FileStamp = { size: 0, mtimeMs: 0 },
  ) {
    const problems: LineProblem[] = [
      ...replayed.problems.map((p) => ({ kind: "parse-error" as const, line: p.line, message: p.message })),
      ...replayed.unknown.map((u) => ({ kind: "bad-field" as const, line: u.line, message: `line ${u.line}: a record of a kind this reader does not know (keys ${u.keys.join(", ")}): kept out of the tree` })),
    ];
    const entries = entriesOf(replayed, isSessionContext);
    const lines = new Map(replayed.nodes.map((n) => [n.key, n.line]));
    super(GEMINI_ID, geminiIndexHooks, entries, path, 0, 0, (r) => lines.get((r as GeminiEntry).id) ?? 0, problems);
    this.size = stamp.size;
  }

  /** Where the read of the file ended, to go on from when it has only grown since (see open). */
  private readEnd: { end: ReplayEnd; edges: string } | undefined;

  /**
   * Reads and replays a session file (.jsonl, or a legacy .json). A live session is read
   * again at every line Gemini writes (refresh says reload): when the file was read lately
   * (its session is still in memory) and has only grown since (same inode, the bytes read
   * then unchanged at both ends), only the lines appended are replayed, onto a copy of
   * that replay's state.
   */
  static open(path: string): GeminiSession {
    // Stamped before the read: a change during it is seen by the next refresh.
    const st = statSync(path);
    const { replayed, size, end } = replayFile(path, MAX_BYTES, GeminiSession.grownFrom(path, st.ino, st.size));
    const s = new GeminiSession(path, replayed, { size, mtimeMs: st.mtimeMs, ino: st.ino });
    if (end) {
      s.readEnd = { end, edges: edgeHashesOf(path, end.offset) };
      // Sessions let go of are dropped now and then (a WeakRef alone is all that is left of them).
      if (lastRead.size >= 32) for (const [p, ref] of lastRead) if (!ref.deref()) lastRead.delete(p);
      lastRead.set(path, new WeakRef(s));
    } else lastRead.delete(path);
    return s;
  }

  /** The end of the last read of `path`, if the file has only grown since (same inode, both ends of what was read unchanged). */
  private static grownFrom(path: string, ino: number, size: number): ReplayEnd | undefined {
    const s = lastRead.get(path)?.deref();
    if (!s) {
      lastRead.delete(path);
      return undefined;
    }
    const r = s.readEnd;
    if (!r || s.stamp.ino !== ino || size < r.end.offset || edgeHashesOf(path, r.end.offset) !== r.edges) return undefined;
    return r.end;
  }

  /** Nothing to read while the file is as it was; a change asks for a reload (see the class). */
  async refresh(): Promise<{ added: number }> {
    const st = await stat(this.path);
    if (this.stamp.ino !== undefined && st.ino !== this.stamp.ino) throw new StaleSessionError(this.path, "replaced by another file");
    if (st.size !== this.stamp.size || st.mtimeMs !== this.stamp.mtimeMs) throw new StaleSessionError(this.path, "Gemini CLI wrote to it; its lines may rewrite earlier messages");
    return { added: 0 };
  }

  /** Position of the message Gemini would resume from: the end of the current list (-1: none). */
  get resumeLeaf(): number {
    const key = this.replayed.current.at(-1);
    return key === undefined ? -1 : (this.tree.indexOf(key) ?? -1);
  }
}

/** The session last read from each file, while something still holds it. */
const lastRead = new Map<string, WeakRef<GeminiSession>>();

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
