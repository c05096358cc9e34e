import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import type { HeadFacts, SessionScanner, SubagentSummary, Unread } from "../../store/discover";
import { openRegularAsync } from "../../util/safe-open";
import { agentMeta, isAgentFile, nestedAgentFiles, SAFE_ID } from "./subagent-files";

/** Where Claude Code keeps its transcripts: an explicit folder, else $CLAUDE_CONFIG_DIR, else ~/.claude (doc section 1). */
export function claudeCodeRoot(explicit: string | undefined, env: NodeJS.ProcessEnv): string {
  if (explicit) return explicit;
  if (env.CLAUDE_CONFIG_DIR) return env.CLAUDE_CONFIG_DIR;
  return join(env.HOME || homedir(), ".claude");
}

export const CLAUDE_CODE_ROOT_HELP = "$CLAUDE_CONFIG_DIR, else ~/.claude (transcripts under projects/)";

/** Text of a user message's content: a string, or its text blocks (tool results are not prompts). */
function promptText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as Array<Record<string, unknown>>)
    .filter((b) => b && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join(" ");
}

/** Text Claude Code writes into user lines itself: command echoes, caveats, reminders. */
const GENERATED = /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|system-reminder|bash-input|bash-stdout|bash-stderr)>/;

/**
 * The first prompt a person typed: a user line in the main chain (not a sub-agent's),
 * not written by the CLI itself (isMeta, command echoes), not a compact summary.
 */
export function firstRealPrompt(objects: ReadonlyArray<Record<string, unknown>>): string {
  for (const o of objects) {
    if (o.type !== "user" || o.isSidechain || o.isMeta || o.isCompactSummary) continue;
    const text = promptText((o.message as { content?: unknown } | undefined)?.content).replace(/\s+/g, " ").trim();
    if (text && !GENERATED.test(text)) return text.slice(0, 200);
  }
  return "";
}

/** A title line's title: a custom title (the user's /rename) or the AI's. */
function titleOf(o: Record<string, unknown>): string | undefined {
  const t = o.type === "custom-title" ? o.customTitle : o.type === "ai-title" ? o.aiTitle : undefined;
  return typeof t === "string" && t.trim() ? t.trim().slice(0, 200) : undefined;
}

/** agent-<id>.jsonl -> <id>. */
function agentIdOf(name: string): string {
  return name.replace(/^agent-/, "").replace(/\.jsonl$/, "");
}

async function summary(path: string, meta?: { agentType?: unknown; description?: unknown }): Promise<SubagentSummary> {
  const st = await stat(path);
  if (!st.isFile()) throw new Error(`${path}: not a regular file`);
  const out: SubagentSummary = { path, agentId: agentIdOf(basename(path)), size: st.size, mtimeMs: st.mtimeMs };
  if (typeof meta?.description === "string" && meta.description.trim()) out.description = meta.description.trim().slice(0, 200);
  if (typeof meta?.agentType === "string") out.agentType = meta.agentType;
  return out;
}

/** 2.1.x: <project>/<sessionId>/subagents/**\/agent-*.jsonl, each with an optional agent-*.meta.json. */
async function nestedSubagents(projectDir: string, sessionId: string, notes: Unread[]): Promise<SubagentSummary[]> {
  const out: SubagentSummary[] = [];
  for (const path of nestedAgentFiles(projectDir, sessionId, notes)) {
    const s = await summary(path, agentMeta(path)).catch(() => undefined);
    if (s) out.push(s);
  }
  return out;
}

/** The sessionId on the first line of a file (a 2.0.x sub-agent file names its parent session there). */
async function firstSessionId(path: string): Promise<string | undefined> {
  const fh = await openRegularAsync(path).catch(() => undefined);
  if (!fh) return undefined;
  try {
    const buf = Buffer.alloc(16 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    const line = buf.toString("utf8", 0, bytesRead).split("\n")[0];
    const o = JSON.parse(line) as { sessionId?: unknown };
    return typeof o.sessionId === "string" ? o.sessionId : undefined;
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

/** Parent session of each 2.0.x sub-agent file, by path, kept while the file is unchanged: a project's files are read once, not once per session. */
const parentOf = new Map<string, { mtimeMs: number; sessionId: string | undefined }>();

/** ~2.0.x: agent-*.jsonl beside the sessions, each naming its parent session on its lines. */
async function besideSubagents(projectDir: string, sessionId: string): Promise<SubagentSummary[]> {
  const names = (await readdir(projectDir).catch(() => [] as string[])).filter(isAgentFile).sort();
  const out: SubagentSummary[] = [];
  for (const n of names) {
    const path = join(projectDir, n);
    const st = await stat(path).catch(() => undefined);
    if (!st?.isFile()) continue;
    let known = parentOf.get(path);
    if (!known || known.mtimeMs !== st.mtimeMs) {
      known = { mtimeMs: st.mtimeMs, sessionId: await firstSessionId(path) };
      parentOf.set(path, known);
    }
    if (known.sessionId === sessionId) out.push(await summary(path));
  }
  return out;
}

/**
 * A sub-agent written inline (1.0.x-2.0.x: sidechain lines in the session's own file): the
 * first of its lines, a sidechain user line with no parent, described by its prompt.
 */
function inlineSubagentOf(o: Record<string, unknown>): { agentId: string; description?: string } | undefined {
  if (o.type !== "user" || o.isSidechain !== true || o.parentUuid !== null || typeof o.uuid !== "string") return undefined;
  const prompt = promptText((o.message as { content?: unknown } | undefined)?.content).replace(/\s+/g, " ").trim();
  return { agentId: o.uuid, ...(prompt ? { description: prompt.slice(0, 200) } : {}) };
}

/**
 * Claude Code's store: <root>/projects/<escaped cwd>/<sessionId>.jsonl. The project is the
 * cwd the lines name (the escaped folder name loses characters and can collide); the
 * title is the latest custom or AI title, else the first real prompt. Sub-agent files
 * (agent-*.jsonl beside the sessions, <sessionId>/subagents/) are not sessions of their own.
 */
export const claudeCodeScanner: SessionScanner = {
  formatId: "claude-code",
  projectsDir: (root) => join(root, "projects"),
  accepts: (name) => !name.startsWith("agent-"),
  headerLines: 0,
  nameMarker: Buffer.from('-title"'),
  nameOf: titleOf,
  inlineMarker: Buffer.from('"isSidechain":true'),
  inlineOf: inlineSubagentOf,
  async subagents(sessionPath, session, notes) {
    const dir = dirname(sessionPath);
    // The id comes from the file's lines: a path there (../../tmp/x) is never followed.
    if (!SAFE_ID.test(session.id)) {
      notes.push({ path: sessionPath, reason: `its sessionId ${JSON.stringify(session.id.slice(0, 100))} is not a plain id; its sub-agents are not looked for` });
      return [];
    }
    return [...(await nestedSubagents(dir, session.id, notes)), ...(await besideSubagents(dir, session.id))];
  },
  head(objects, size): HeadFacts {
    if (size === 0) throw new Error("not a Claude Code session: the file is empty");
    const conv = objects.find((o) => typeof o.uuid === "string" && typeof o.sessionId === "string");
    if (!conv) throw new Error("not a Claude Code session: no line with a uuid and a sessionId in the first 256 KiB");
    const cwd = objects.find((o) => typeof o.cwd === "string" && o.cwd)?.cwd as string | undefined;
    let name: string | undefined;
    for (const o of objects) name = titleOf(o) ?? name;
    const forkedFrom = (conv.forkedFrom as { sessionId?: unknown } | undefined)?.sessionId;
    return {
      id: conv.sessionId as string,
      // A /branch copy names the session it came from (an id: Claude Code keeps no path).
      ...(typeof forkedFrom === "string" ? { parentSession: forkedFrom } : {}),
      cwd: cwd ?? "",
      created: typeof conv.timestamp === "string" ? conv.timestamp : "",
      firstMessage: firstRealPrompt(objects),
      ...(name ? { name } : {}),
    };
  },
};
