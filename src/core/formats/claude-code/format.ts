import { HookedSession } from "../../store/session";
import type { SessionFormat } from "../session-format";
import { claudeCodeChain, claudeCodeDefaultLeaf } from "./chain";
import { claudeCodeContext } from "./context";
import { describeClaudeCode } from "./describe";
import { detectClaudeCode } from "./detect";
import { claudeCodeIndexHooks } from "./index-hooks";
import { claudeCodeInfo } from "./info";

/**
 * Claude Code transcripts (claude-code-format.md). Read-only in this part: discovery,
 * titles, sub-agent files, token bars and fork come later. Its messages are Anthropic's
 * {role, content} already, so it needs no `anthropic` rendering.
 */
export const claudeCodeFormat: SessionFormat = {
  id: "claude-code",
  agent: "Claude Code",
  detect: detectClaudeCode,
  index: claudeCodeIndexHooks,
  load: (path, opts) => HookedSession.open(path, claudeCodeIndexHooks, opts),
  info: claudeCodeInfo,
  defaultLeaf: claudeCodeDefaultLeaf,
  describe: describeClaudeCode,
  context: claudeCodeContext,
  chain: claudeCodeChain,
};
