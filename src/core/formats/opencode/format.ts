import type { FirstLines, FormatContext, FormatWriter, SessionFormat } from "../../session/session-format";
import type { SessionInfo, SessionReader } from "../../session/session-reader";
import { describeOpencode, detailsOpencode, taskRefs } from "./describe";
import { OPENCODE_ROOT_HELP, opencodeRoot, opencodeScanner } from "./discover";
import { opencodeIndexHooks } from "./index-hooks";
import { type CtxMessage, toWireMessages } from "./model-messages";
import { type OcEntry, OPENCODE_ID } from "./records";
import { opencodeSearchHooks } from "./search-text";
import { isOpencodeAddress, loadOpencode, OpencodeSession, storeFiles } from "./session";
import { wireToAnthropic } from "./anthropic";

const READ_ONLY = "OpenCode keeps its sessions in its database; fork from OpenCode itself";

function asOpencode(session: SessionReader): OpencodeSession {
  if (!(session instanceof OpencodeSession)) throw new Error(`${session.path}: not read as an OpenCode session`);
  return session;
}

/** The stored messages a leaf reaches, with the parts up to it (a tool part once, for its call). */
function messagesTo(session: SessionReader, leaf: number): CtxMessage[] {
  const out: CtxMessage[] = [];
  for (const i of session.tree.path(leaf)) {
    const e = session.entryAt(i) as OcEntry;
    let m = out.at(-1);
    if (!m || m.id !== e.messageId) {
      m = { id: e.messageId, data: e.message, parts: [] };
      out.push(m);
    }
    if (e.part && e.type !== "tool-result") m.parts.push({ id: String(e.part.id), data: e.part });
  }
  return out;
}

/** Read-only: OpenCode's store is its database; every write is offered with the reason. */
const opencodeWriter: FormatWriter = {
  capabilities: { fork: false, label: false, compact: false, continue: false, why: READ_ONLY },
  fork(session) {
    throw new Error(`${session.path}: ${READ_ONLY}; nothing written`);
  },
};

/**
 * OpenCode sessions (docs/opencode-format.md): rows of its SQLite database (or the legacy
 * storage/ JSON tree), addressed `<db>#<sessionId>`; the context is what OpenCode 1.18
 * sends when the session is continued, in the chat-completions wire shape.
 */
export const opencodeFormat: SessionFormat = {
  id: OPENCODE_ID,
  agent: "OpenCode",
  /** Files are detected only as the legacy tree's session files; database rows by their address. */
  detect: (first: FirstLines) => isOpencodeAddress(first.path),
  addresses: isOpencodeAddress,
  storeFiles,
  index: opencodeIndexHooks,
  load: async (path) => loadOpencode(path),

  info(session: SessionReader): SessionInfo {
    const s = asOpencode(session).stored.session;
    return {
      id: s.id,
      cwd: s.directory,
      ...(s.version ? { agentVersion: s.version } : {}),
      ...(Number.isFinite(s.created) ? { created: new Date(s.created).toISOString() } : {}),
      ...(s.title ? { name: s.title } : {}),
    };
  },

  defaultLeaf: (session) => asOpencode(session).resumeLeaf,
  /** One model call per step: its usage (on the step-finish) belongs with the parts it produced. */
  responseId: (session, i) => asOpencode(session).stepOf(i),
  describe: describeOpencode,

  details(session, i) {
    const oc = asOpencode(session);
    return detailsOpencode(session, i, taskRefs(session, session.entryAt(i) as OcEntry, (id) => oc.childAddress(id)));
  },

  context(session: SessionReader, leaf: number): FormatContext {
    if (leaf < 0) return { leafId: null, messages: [] };
    return { leafId: session.metas[leaf].id, messages: toWireMessages(messagesTo(session, leaf)) };
  },

  anthropic: (ctx) => wireToAnthropic(ctx.messages.map((m) => m.message as Record<string, unknown>)),

  subagents: {
    startedBy(session, i) {
      const oc = asOpencode(session);
      return taskRefs(session, session.entryAt(i) as OcEntry, (id) => oc.childAddress(id));
    },
    inlineRoots: () => new Map(),
  },

  unrecordedParts: "system prompt, tool definitions and environment",
  discovery: { scanner: opencodeScanner, root: opencodeRoot, rootHelp: OPENCODE_ROOT_HELP },
  search: opencodeSearchHooks,
  writer: opencodeWriter,
};
