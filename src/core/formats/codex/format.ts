import type { SessionFormat } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { codexAnthropic } from "./anthropic";
import { codexContext } from "./context";
import { codexFiles } from "./file-activity";
import { describeCodex } from "./describe";
import { codexDetails } from "./details";
import { detectCodex } from "./detect";
import { CODEX_ROOT_HELP, codexRoot, codexScanner } from "./discover";
import { codexIndexHooks } from "./index-hooks";
import { codexInfo } from "./info";
import { asObj, str } from "./lines";
import { codexFacts, codexResponseOf, codexWindow, loadCodex } from "./session";
import { codexSearchHooks } from "./search-text";
import { codexSubagents } from "./subagents";
import { forkCodex } from "./writer";

/** A token_usage_record's payload, or undefined for any other line. */
function usageRecord(session: SessionReader, i: number): Record<string, unknown> | undefined {
  if (session.table.typeAt(i) !== "token_usage_record") return undefined;
  return asObj(session.entryAt(i).payload);
}

/**
 * OpenAI Codex CLI rollouts (docs/codex-format.md): plain and .zst, listed from
 * $CODEX_HOME, the history Codex resumes with (compactions, forks) and usage per model
 * response. Codex's own files are never written; a fork is a new rollout, as `codex exec fork` writes it.
 */
export const codexFormat: SessionFormat = {
  id: "codex",
  agent: "Codex",
  detect: detectCodex,
  index: codexIndexHooks,
  load: (path, opts) => loadCodex(path, opts),
  info: codexInfo,
  // Codex resumes a thread at its end.
  defaultLeaf: (session) => session.metas.length - 1,
  describe: describeCodex,
  details(session, i) {
    const view = codexDetails(session, i);
    const subs = codexSubagents.startedBy(session, i);
    return subs.length ? { ...view, subagents: subs } : view;
  },
  context: codexContext,
  anthropic: codexAnthropic,
  files: codexFiles,
  recordedSystemPrompt(session) {
    const text = str(asObj(codexFacts(session).meta.base_instructions)?.text);
    return text ? { text, note: "session_meta.base_instructions, APPROXIMATE: Codex edits it when it sends it (e.g. drops sections for tools it does not offer), so the text sent differs" } : undefined;
  },
  // task_started and token_count record the window Codex works with.
  recordedWindow: (session, leaf) => codexWindow(session, leaf),
  unrecordedParts: "base instructions (sent edited at request time) and tool definitions",
  discovery: {
    scanner: codexScanner,
    root: codexRoot,
    rootHelp: CODEX_ROOT_HELP,
  },
  search: codexSearchHooks,
  // A spawn_agent call's row expands into the sub-agent's own rollout (subagents.ts).
  subagents: codexSubagents,
  // Codex appends to its own rollouts; we only write a new one, as `codex exec fork` does.
  writer: {
    capabilities: {
      fork: true,
      label: false,
      compact: false,
      why: "Codex writes its own rollouts: fork here, then resume the fork with codex resume",
    },
    fork: forkCodex,
  },
  // One usage record per model response (token_count lines repeat it and are not counted).
  // The items a response wrote share its id with its usage record (index-hooks.ts linkResponse).
  responseId: (session, i) => codexResponseOf(session, i),
  callId: (session, i) => str(usageRecord(session, i)?.response_id),
  // A fork of an older build copied its parent's lines, usage records included: those name the parent thread.
  // and their turns are the parent's (copiedTurns in session.ts).
  inheritedFrom(session, i) {
    const facts = codexFacts(session);
    const thread = str(usageRecord(session, i)?.thread_id);
    const own = str(facts.meta.id);
    if (thread && own && thread !== own) return thread;
    const turn = facts.copied?.turnOf.get(i);
    return turn && facts.copied?.parentTurns.has(turn) ? facts.parentId : undefined;
  },
};
