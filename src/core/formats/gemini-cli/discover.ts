import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { readTextFile } from "../../util/safe-open";
import type { HeadFacts, SessionScanner, SubagentSummary, Unread } from "../../store/discover";
import { isResumable, isSessionContext } from "./native-context";
import { GEMINI_ID } from "./records";
import { replay } from "./replay";
import { geminiSessionFiles, rootsByHash } from "./store-files";
import { contentText } from "./text-of";

/**
 * Gemini CLI's home: an explicit folder (setting agentSessions.geminiHome), else
 * $GEMINI_CLI_HOME, else the home directory; the store is its `.gemini` (doc section 1).
 */
export function geminiRoot(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit) return explicit;
  if (env.GEMINI_CLI_HOME) return env.GEMINI_CLI_HOME;
  return env.HOME || homedir();
}

export const GEMINI_ROOT_HELP = "$GEMINI_CLI_HOME, else ~ (sessions under .gemini/tmp/<project>/chats/)";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The messages the first lines hold, in order: plain message records and checkpoints' lists. */
function headMessages(objects: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const o of objects) {
    if (typeof o.id === "string") out.push(o);
    else if (isObject(o.$set) && Array.isArray(o.$set.messages)) out.push(...o.$set.messages.filter(isObject));
    else if (Array.isArray(o.messages)) out.push(...o.messages.filter(isObject));
  }
  return out;
}

/** Facts from the first lines: merged metadata, the first prompt a person typed. */
export function geminiHead(objects: Array<Record<string, unknown>>, size: number): HeadFacts {
  if (size === 0) throw new Error("not a Gemini CLI session: the file is empty");
  let meta: Record<string, unknown> = {};
  for (const o of objects) {
    if (typeof o.sessionId === "string" && typeof o.projectHash === "string") meta = { ...meta, ...o };
    else if (isObject(o.$set)) meta = { ...meta, ...o.$set, messages: undefined };
  }
  const id = meta.sessionId;
  if (typeof id !== "string" || !id) throw new Error("not a Gemini CLI session: no metadata line with a sessionId in the first 256 KiB");
  const prompt = headMessages(objects).find((m) => m.type === "user" && isResumable(m) && !isSessionContext(m) && contentText(m.content).trim());
  const firstMessage = prompt ? contentText(prompt.content).replace(/\s+/g, " ").trim().slice(0, 200) : "";
  const dirs = meta.directories;
  const hash = typeof meta.projectHash === "string" ? meta.projectHash : "";
  const cwd = rootsByHash.get(hash) ?? (Array.isArray(dirs) && typeof dirs[0] === "string" ? dirs[0] : hash ? `(unknown project ${hash.slice(0, 12)})` : "");
  return { id, cwd, created: typeof meta.startTime === "string" ? meta.startTime : "", firstMessage, ...(typeof meta.summary === "string" && meta.summary.trim() ? { name: meta.summary.trim().slice(0, 200) } : {}) };
}

/** Sub-agent transcripts of a session: chats/<sessionId>/*.jsonl (doc section 6). */
async function geminiSubagents(sessionPath: string, session: { id: string }, notes: Unread[]): Promise<SubagentSummary[]> {
  const dir = join(dirname(sessionPath), session.id);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".jsonl")).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") notes.push({ path: dir, reason: `cannot read this folder (${(err as NodeJS.ErrnoException).code ?? "error"}); its sub-agents are not listed` });
    return [];
  }
  const out: SubagentSummary[] = [];
  for (const n of names) {
    const path = join(dir, n);
    const st = await stat(path).catch(() => undefined);
    if (st?.isFile()) out.push({ path, agentId: basename(n, ".jsonl"), size: st.size, mtimeMs: st.mtimeMs });
  }
  return out;
}

/** A `$set` line that names the session (its summary). */
function nameOf(o: Record<string, unknown>): string | undefined {
  const s = isObject(o.$set) ? o.$set.summary : typeof o.sessionId === "string" ? o.summary : undefined;
  return typeof s === "string" && s.trim() ? s.trim().slice(0, 200) : undefined;
}

/** A legacy session is one pretty-printed JSON object: its lines are not records, so it is read whole. */
async function legacySummary(path: string, size: number): Promise<(HeadFacts & { entryCount: number }) | undefined> {
  if (!path.endsWith(".json")) return undefined;
  const r = replay(readTextFile(path), path);
  const messages = r.nodes.map((n) => n.message);
  return { ...geminiHead([{ ...r.meta, messages }], size), entryCount: messages.length };
}

/** How Gemini CLI's store is listed: the files Gemini itself offers (store-files.ts), grouped by project root. */
export const geminiScanner: SessionScanner = {
  formatId: GEMINI_ID,
  projectsDir: (root) => root,
  headerLines: 1,
  head: geminiHead,
  files: geminiSessionFiles,
  subagents: geminiSubagents,
  summarizeOwn: legacySummary,
  nameMarker: Buffer.from('"summary"'),
  nameOf,
};
