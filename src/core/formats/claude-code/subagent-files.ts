import { join } from "node:path";
import { CONFIG_CAP, readTextFile } from "../../util/safe-open";
import { walkFiles, type WalkNote } from "../../util/walk-files";

/**
 * A session id or agent id is a file-name part: letters, digits, dashes, underscores.
 * They come from the transcript's lines, so anything else (`../../tmp/x`, a slash, a
 * NUL) is never joined into a path.
 */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Whether a sub-agent transcript's file name (agent-<id>.jsonl). */
export const isAgentFile = (name: string): boolean => name.startsWith("agent-") && name.endsWith(".jsonl");

/**
 * The 2.1.x sub-agent transcripts of session `sessionId` in `projectDir`:
 * <projectDir>/<sessionId>/subagents/**\/agent-*.jsonl, in path order. The walk stays
 * inside the project folder, enters each folder once and is bounded in depth (see
 * walkFiles); what it leaves out for a link out of the project goes to `notes`.
 */
export function nestedAgentFiles(projectDir: string, sessionId: string, notes?: WalkNote[]): string[] {
  if (!SAFE_ID.test(sessionId)) return [];
  return walkFiles(join(projectDir, sessionId, "subagents"), { within: projectDir, accept: isAgentFile, notes });
}

/** A sub-agent's meta file (a small JSON beside its transcript), when there is a readable one. */
export function agentMeta(path: string): Record<string, unknown> | undefined {
  try {
    const m = JSON.parse(readTextFile(path.replace(/\.jsonl$/, ".meta.json"), CONFIG_CAP)) as unknown;
    return m && typeof m === "object" ? (m as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
