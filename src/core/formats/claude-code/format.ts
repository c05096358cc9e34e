import { HookedSession } from "../../store/session";
import type { SessionFormat } from "../session-format";
import { branchClaudeCode } from "./branch";
import { claudeCodeChain, claudeCodeDefaultLeaf } from "./chain";
import { claudeCodeContext } from "./context";
import { describeClaudeCode } from "./describe";
import { claudeCodeDetails } from "./details";
import { detectClaudeCode } from "./detect";
import { claudeCodeIndexHooks } from "./index-hooks";
import { claudeCodeInfo } from "./info";

/**
 * Claude Code transcripts (claude-code-format.md). Reads, and forks as /branch does;
 * discovery, titles, sub-agent files and token bars come later. Its messages are Anthropic's
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
  details: claudeCodeDetails,
  context: claudeCodeContext,
  chain: claudeCodeChain,
  // Claude Code appends its own lines; we only write a new file, as its /branch does.
  writer: {
    capabilities: { fork: true, label: false, compact: false, why: "Claude Code compacts and labels in its own session only" },
    fork: branchClaudeCode,
  },
};
