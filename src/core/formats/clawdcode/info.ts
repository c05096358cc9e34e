import { basename } from "node:path";
import type { SessionInfo, SessionReader } from "../../session/session-reader";
import type { ClawdcodeLine } from "./lines";

/**
 * What the lines say about the session (the store has no header): sessionId, cwd and the
 * agent's version of the first line that has them, created = the first line's time. An
 * empty session is named after its file.
 */
export function clawdcodeInfo(session: SessionReader): SessionInfo {
  const info: SessionInfo = { id: basename(session.path).replace(/\.jsonl$/, ""), cwd: "" };
  const n = session.metas.length;
  let id = false;
  // The first few lines settle it; a file whose early lines lack a field is not read to its end for it.
  for (let i = 0; i < Math.min(n, 50); i++) {
    const l = session.entryAt(i) as unknown as ClawdcodeLine;
    if (!id && typeof l.sessionId === "string" && l.sessionId) {
      info.id = l.sessionId;
      id = true;
    }
    if (!info.cwd && typeof l.cwd === "string") info.cwd = l.cwd;
    if (info.agentVersion === undefined && typeof l.version === "string") info.agentVersion = l.version;
    if (info.created === undefined && typeof l.timestamp === "string") info.created = l.timestamp;
    if (id && info.cwd && info.agentVersion !== undefined && info.created !== undefined) break;
  }
  return info;
}
