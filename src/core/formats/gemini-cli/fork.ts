import { randomUUID } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { cleanStaleTemps, writeNewFile } from "../../store/atomic-file";
import type { ForkResult, FormatWriter } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { GeminiSession } from "./session";
import { pathTo } from "./session-contents";

const pad = (n: number) => String(n).padStart(2, "0");

/** Gemini's file name: session-<local YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl (doc section 1). */
export function geminiFileName(now: Date, sessionId: string): string {
  const minute = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}-${pad(now.getMinutes())}`;
  return `session-${minute}-${sessionId.slice(0, 8)}.jsonl`;
}

function asGemini(session: SessionReader): GeminiSession {
  if (!(session instanceof GeminiSession)) throw new Error(`${session.path}: not read as a Gemini CLI session`);
  return session;
}

/**
 * A new session in Gemini CLI's current JSONL shape beside the source (same project
 * folder, same projectHash, so `gemini --resume` lists it): a metadata line with a new
 * sessionId, then each message on the path root..entry as a record of its own, as Gemini
 * last held it. Gemini's resume replays those records and converts them as it converts
 * the source's, so it sends the same history up to that entry. Written whole or not at
 * all, never over a file; the source is only read.
 */
export function forkGemini(session: SessionReader, entryId: string, opts: { dir?: string; now?: Date } = {}): ForkResult {
  const g = asGemini(session);
  const refused = refusesGemini(session);
  if (refused) throw new Error(refused);
  const at = session.requireIndex(entryId);
  const path = pathTo(g.replayed, session.metas[at].id);
  const now = opts.now ?? new Date();
  const sessionId = randomUUID();
  const meta = g.replayed.meta;
  const header = {
    sessionId,
    projectHash: meta.projectHash,
    startTime: now.toISOString(),
    lastUpdated: now.toISOString(),
    kind: "main",
    ...(Array.isArray(meta.directories) ? { directories: meta.directories } : {}),
  };
  const lines = [header, ...path.map((n) => n.message)].map((r) => JSON.stringify(r));
  // A sub-agent's transcript (chats/<parent>/<agent>.jsonl) forks into chats/ as a main session: gemini --resume offers only those.
  const own = dirname(resolve(session.path));
  const dir = opts.dir ?? (meta.kind === "subagent" ? dirname(own) : own);
  const target = join(dir, geminiFileName(now, sessionId));
  cleanStaleTemps(dir);
  writeNewFile(target, `${lines.join("\n")}\n`, { replace: false });
  return { path: target, sessionId, entryCount: path.length };
}

/** Files Gemini would not read a fork of as a session: no metadata line. */
export function refusesGemini(session: SessionReader): string | undefined {
  const meta = asGemini(session).replayed.meta;
  if (typeof meta.projectHash !== "string" || typeof meta.sessionId !== "string") return `${session.path}: no metadata line with sessionId and projectHash; Gemini CLI would not read a fork of it as a session`;
  return undefined;
}

export const geminiWriter: FormatWriter = {
  capabilities: {
    fork: true,
    label: false,
    compact: false,
    why: "Gemini CLI writes its own session files; labels and compressions are its own",
    reasons: { continue: "Gemini CLI resumes the end of a session: fork here, then gemini --resume the fork" },
  },
  refuses: refusesGemini,
  fork: forkGemini,
};
