import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The pi sessions directory: an explicit path wins, then $PI_CODING_AGENT_DIR/sessions,
 * then ~/.pi/agent/sessions.
 */
export function resolveSessionsDir(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return explicit;
  if (env.PI_CODING_AGENT_DIR) return join(env.PI_CODING_AGENT_DIR, "sessions");
  return join(homedir(), ".pi", "agent", "sessions");
}

/** pi's directory name for a working directory: `/home/ana/proj` -> `--home-ana-proj--`. */
export function projectDirName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}
