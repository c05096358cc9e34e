import { HookedSession } from "../../session/jsonl-session";
import type { SessionFormat } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { clawdcodeCompactThreshold } from "./compaction-plan";
import { clawdcodeContext } from "./context";
import { describeClawdcode } from "./describe";
import { clawdcodeDetails } from "./details";
import { detectClawdcode } from "./detect";
import { CLAWDCODE_ROOT_HELP, clawdcodeRoot, clawdcodeScanner } from "./discover";
import { clawdcodeFiles } from "./files";
import { appendRecords } from "../../session/append-records";
import type { JsonlSession } from "../../session/jsonl-session";
import { clawdcodeCompaction } from "./compaction-hook";
import { forkClawdcode } from "./fork";
import { clawdcodeIndexHooks } from "./index-hooks";
import { clawdcodeInfo } from "./info";
import { clawdcodeSearchHooks } from "./search-text";

/**
 * The seed "002" Claude-Code-like store (claude-code-format.md 15.2). Its messages are
 * Anthropic's {role, content} already, so it needs no `anthropic` rendering.
 */
export const clawdcodeFormat: SessionFormat = {
  id: "clawdcode",
  agent: "ClawdCode",
  detect: detectClawdcode,
  index: clawdcodeIndexHooks,
  load: (path, opts) => HookedSession.open(path, clawdcodeIndexHooks, opts),
  info: clawdcodeInfo,
  // The seed resumes from the last line of the file (section 15.2, "default leaf").
  defaultLeaf: (session: SessionReader) => session.metas.length - 1,
  describe: describeClawdcode,
  context: clawdcodeContext,
  details: clawdcodeDetails,
  files: clawdcodeFiles,
  compactThreshold: clawdcodeCompactThreshold,
  discovery: {
    scanner: clawdcodeScanner,
    root: (explicit, env) => clawdcodeRoot(explicit, env),
    rootHelp: CLAWDCODE_ROOT_HELP,
  },
  search: clawdcodeSearchHooks,
  writer: {
    capabilities: {
      fork: true,
      label: false,
      compact: true,
      why: "clawdcode lines have no labels",
      reasons: { continue: "the clawdcode design has no branch summaries: fork the session to go on from an earlier entry" },
    },
    compaction: clawdcodeCompaction,
    append: (session, records) => appendRecords(session as JsonlSession, records, clawdcodeFormat),
    fork: forkClawdcode,
  },
};
