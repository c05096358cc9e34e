import { HookedSession } from "../../session/jsonl-session";
import type { SessionFormat } from "../../session/session-format";
import { branchClaudeCode } from "./branch";
import { factsAt } from "./chain-facts";
import { claudeCodeBranchEnd, claudeCodeChain, claudeCodeDefaultLeaf } from "./chain";
import { claudeCodeCompactionParent } from "./compaction-view";
import { claudeCodeContext } from "./context";
import { describeClaudeCode } from "./describe";
import { claudeCodeDetails } from "./details";
import { claudeCodeFiles } from "./files";
import { CLAUDE_CODE_ROOT_HELP, claudeCodeRoot, claudeCodeScanner } from "./discover";
import { detectClaudeCode } from "./detect";
import { claudeCodeIndexHooks } from "./index-hooks";
import { claudeCodeInfo } from "./info";
import { claudeCodeSearchHooks } from "./search-text";
import { claudeCodeSubagents } from "./subagent-nesting";

/**
 * Claude Code transcripts (claude-code-format.md). Reads, lists (titles, sub-agents),
 * and forks as /branch does. Its messages are Anthropic's
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
  branchEnd: claudeCodeBranchEnd,
  describe: describeClaudeCode,
  details: claudeCodeDetails,
  context: claudeCodeContext,
  compactionParent: claudeCodeCompactionParent,
  chain: claudeCodeChain,
  files: claudeCodeFiles,
  unrecordedParts: "system prompt, tool definitions, CLAUDE.md and environment context",
  discovery: {
    scanner: claudeCodeScanner,
    root: (explicit, env) => claudeCodeRoot(explicit, env),
    rootHelp: CLAUDE_CODE_ROOT_HELP,
  },
  // One API response is written over several lines, each repeating its usage: counted once.
  responseId: (session, i) => factsAt(session, i).response,
  cacheWrite1h(session, i) {
    const u = (session.entryAt(i) as { message?: { usage?: { cache_creation?: { ephemeral_1h_input_tokens?: unknown } } } }).message?.usage;
    const n = u?.cache_creation?.ephemeral_1h_input_tokens;
    return typeof n === "number" && n > 0 ? n : undefined;
  },
  // A response is one API call: its message id with the request id (a copy keeps both).
  callId(session, i) {
    const l = session.entryAt(i) as { message?: { id?: unknown }; requestId?: unknown };
    const id = l.message?.id;
    if (typeof id !== "string") return undefined;
    return typeof l.requestId === "string" ? `${id}/${l.requestId}` : id;
  },
  // /branch, --fork-session and our fork stamp every copied line with forkedFrom.
  inheritedFrom(session, i) {
    const from = (session.entryAt(i) as { forkedFrom?: { sessionId?: unknown } }).forkedFrom?.sessionId;
    return typeof from === "string" ? from : undefined;
  },
  // Claude Code appends its own lines; we only write a new file, as its /branch does.
  search: claudeCodeSearchHooks,
  subagents: claudeCodeSubagents,
  writer: {
    capabilities: {
      fork: true,
      label: false,
      compact: false,
      why: "Claude Code compacts and labels in its own session only",
      reasons: { continue: "Claude Code resumes from the leaf it chooses itself: fork here, then resume the fork with claude --resume" },
    },
    fork: branchClaudeCode,
  },
};
