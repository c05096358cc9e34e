import { homedir } from "node:os";
import { join } from "node:path";
import type { HeadFacts, SessionScanner } from "../../store/discover";
import { readTextFile } from "../../util/safe-open";
import { rolloutFiles } from "./files";
import { asObj, type CodexLine, payloadOf, promptOf, str } from "./lines";
import { spawnedBy } from "./subagents";
import { streamZst } from "./zst";

/** Codex's home: an explicit folder (setting agentSessions.codexHome), else $CODEX_HOME, else ~/.codex (docs/codex-format.md section 1). */
export function codexRoot(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit) return explicit;
  if (env.CODEX_HOME) return env.CODEX_HOME;
  return join(env.HOME || homedir(), ".codex");
}

export const CODEX_ROOT_HELP = "$CODEX_HOME, else ~/.codex (rollouts under sessions/ and archived_sessions/)";

/** Facts of a rollout from its first lines: session_meta first, the first real prompt after it. */
export function codexHead(objects: Array<Record<string, unknown>>, size: number): HeadFacts {
  if (size === 0) throw new Error("not a Codex rollout: the file is empty");
  const metaLine = objects.find((o) => o.type === "session_meta");
  const meta = metaLine ? payloadOf(metaLine as CodexLine) : undefined;
  const id = str(meta?.id);
  if (!meta || !id) throw new Error("not a Codex rollout: no session_meta line with an id in the first 256 KiB");
  let firstMessage = "";
  for (const o of objects) {
    const p = promptOf(o as CodexLine);
    if (p) {
      firstMessage = p.replace(/\s+/g, " ").trim().slice(0, 200);
      break;
    }
  }
  const parent = str(meta.forked_from_id) ?? str(asObj(meta.history_base)?.thread_id);
  // A sub-agent's thread is listed under the thread that spawned it (docs/codex-format.md section 8).
  const spawn = spawnedBy(meta);
  const subagentOf = spawn && { parent: spawn.parent, ...(spawn.role || spawn.nickname ? { agentType: spawn.role ?? spawn.nickname } : {}) };
  return { id, cwd: str(meta.cwd) ?? "", created: str(meta.timestamp) ?? str(metaLine?.timestamp) ?? "", firstMessage, ...(parent ? { parentSession: parent } : {}), ...(subagentOf ? { subagentOf } : {}) };
}

const HEAD_BYTES = 256 * 1024;

/** A .zst rollout's facts and line count, read as it is decompressed (no copy is written: the list needs nothing else). */
async function zstSummary(path: string): Promise<HeadFacts & { entryCount: number }> {
  let lines = 0;
  const head: Buffer[] = [];
  let headBytes = 0;
  const got = await streamZst(path, (data) => {
    if (headBytes < HEAD_BYTES) {
      const take = data.subarray(0, HEAD_BYTES - headBytes);
      head.push(Buffer.from(take));
      headBytes += take.length;
    }
    for (let k = data.indexOf(10); k !== -1; k = data.indexOf(10, k + 1)) lines++;
  });
  const objects: Array<Record<string, unknown>> = [];
  for (const line of Buffer.concat(head).toString("utf8").split("\n").slice(0, -1)) {
    try {
      const o = asObj(JSON.parse(line));
      if (o) objects.push(o);
    } catch {
      // The reader reports bad lines; the list looks at what parses.
    }
  }
  return { ...codexHead(objects, got.bytes), entryCount: Math.max(0, lines - 1) };
}

/**
 * Thread names from session_index.jsonl (`{id, thread_name, updated_at}` per line, the
 * latest line for an id wins) [obs, 0.169.0: `codex exec` writes no index; the app-server's
 * thread/name/set appends one line per rename (scripts/codex/record-subagent.mjs)]. A
 * missing or unreadable index names nothing.
 */
export function codexTitles(root: string): Map<string, string> {
  const names = new Map<string, string>();
  let text: string;
  try {
    text = readTextFile(join(root, "session_index.jsonl"));
  } catch {
    return names;
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const o = asObj(JSON.parse(line));
      const id = str(o?.id);
      const name = str(o?.thread_name);
      if (id && name?.trim()) names.set(id, name.trim().slice(0, 200));
    } catch {
      // A torn last line of the index: the others still name their threads.
    }
  }
  return names;
}

/**
 * Codex's store: rollouts under sessions/YYYY/MM/DD and archived_sessions (files.ts),
 * grouped by session_meta.cwd; .zst rollouts summarized as they are decompressed;
 * titles from session_index.jsonl.
 */
export const codexScanner: SessionScanner = {
  formatId: "codex",
  projectsDir: (root) => root,
  headerLines: 1,
  head: codexHead,
  files: async (root, notes) => rolloutFiles(root, notes),
  summarizeOwn: async (path) => (path.endsWith(".zst") ? zstSummary(path) : undefined),
  titles: async (root) => codexTitles(root),
};
