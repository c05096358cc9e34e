import { basename } from "node:path";
import type { SessionInfo, SessionReader } from "../../session/session-reader";
import { asLine, str } from "./lines";

/**
 * What the lines say about the session (no header): sessionId, cwd and Claude Code's
 * version from the first lines that have them, created = the first line's time. The file
 * name is the session id when no line says it (an empty file).
 */
export function claudeCodeInfo(session: SessionReader): SessionInfo {
  const info: SessionInfo = { id: basename(session.path).replace(/\.jsonl$/, ""), cwd: "" };
  let id = false;
  for (let i = 0; i < Math.min(session.metas.length, 50); i++) {
    const l = asLine(session.entryAt(i));
    const sid = str(l.sessionId);
    if (!id && sid) [info.id, id] = [sid, true];
    if (!info.cwd && str(l.cwd)) info.cwd = l.cwd as string;
    if (info.agentVersion === undefined && str(l.version)) info.agentVersion = l.version as string;
    if (info.created === undefined && str(l.timestamp)) info.created = l.timestamp as string;
    if (id && info.cwd && info.agentVersion !== undefined && info.created !== undefined) break;
  }
  return info;
}
