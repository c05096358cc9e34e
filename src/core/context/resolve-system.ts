import type { SessionReader } from "../session/session-reader";
import { type SystemPrompt, systemPromptFile } from "../session/system-prompt";

/**
 * The `--system` setting: "auto" rebuilds the agent's prompt from its files (the format's
 * own rule: pi's agent dir and context files), anything else is a file path. Errors are
 * one line naming the path or the agent (front ends show them as is).
 */
export function resolveSystemPrompt(spec: string, session: SessionReader, env: NodeJS.ProcessEnv = process.env): SystemPrompt {
  if (spec !== "auto") return systemPromptFile(spec);
  const f = session.format;
  if (!f.reconstructSystemPrompt) throw new Error(`--system auto: ${f.agent} sessions have no rebuilt system prompt; give a file (--system FILE)`);
  return f.reconstructSystemPrompt(session, env);
}
