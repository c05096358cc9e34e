import { basename } from "node:path";
import type { SessionInfo, SessionReader } from "../../session/session-reader";
import { idFromFileName, str } from "./lines";
import { codexFacts } from "./session";

/** Header facts from session_meta: thread id, cwd, the CLI version that wrote it, its start time. */
export function codexInfo(session: SessionReader): SessionInfo {
  const meta = codexFacts(session).meta;
  const info: SessionInfo = { id: str(meta.id) ?? idFromFileName(basename(session.path)) ?? basename(session.path), cwd: str(meta.cwd) ?? "" };
  const v = str(meta.cli_version);
  if (v) info.agentVersion = v;
  const created = str(meta.timestamp);
  if (created) info.created = created;
  return info;
}
