import type { ContextMessage, FirstLines, FormatContext, PartKind, SessionFormat } from "../../session/session-format";
import type { SessionInfo, SessionReader } from "../../session/session-reader";
import { messageEntryView, type SubagentRef } from "../../session/entry-view";
import { contentsToAnthropic, storedToAnthropic } from "./anthropic";
import { describeGemini } from "./describe";
import { GEMINI_ROOT_HELP, geminiRoot, geminiScanner } from "./discover";
import { geminiWriter } from "./fork";
import { geminiIndexHooks } from "./index-hooks";
import type { NativeContent } from "./native-context";
import { GEMINI_ID, type GeminiEntry } from "./records";
import { GeminiSession, projectRootOf } from "./session";
import { geminiSearchHooks } from "./search-text";
import { sessionContents } from "./session-contents";
import { subagentRefs } from "./subagent-link";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A file is Gemini CLI's when its first record is a session's metadata (or it is a legacy record) in a chats folder. */
function detectGemini(first: FirstLines): boolean {
  // A legacy session is one pretty-printed object: its first line alone does not parse.
  if (/[\\/]chats[\\/]session-[^\\/]*\.json$/.test(first.path)) return true;
  const o = first.objects[0];
  if (!isObject(o) || typeof o.sessionId !== "string" || typeof o.projectHash !== "string") return false;
  return /[\\/]chats[\\/]/.test(first.path) || /session-[^\\/]*\.jsonl?$/.test(first.path) || Array.isArray(o.messages) || "kind" in o;
}

/** Gemini CLI writes no sub-agent lines inline: each has its own transcript. */
const NO_INLINE: ReadonlyMap<number, number> = new Map();

/** The sub-agents message i's invoke_agent calls started (chats/<sessionId>/<agentId>.jsonl). */
function startedBy(session: SessionReader, i: number): SubagentRef[] {
  const m = (session.entryAt(i) as GeminiEntry).message;
  if (m.type !== "gemini" || !Array.isArray(m.toolCalls)) return [];
  const sessionId = asGemini(session).replayed.meta.sessionId;
  return subagentRefs(session.path, typeof sessionId === "string" ? sessionId : "", m);
}

function asGemini(session: SessionReader): GeminiSession {
  if (!(session instanceof GeminiSession)) throw new Error(`${session.path}: not read as a Gemini CLI session`);
  return session;
}

/** What a sent content counts as in the bars. */
function partKind(c: NativeContent, snapshotKeys: ReadonlySet<string>): PartKind {
  if (c.sources.some((k) => snapshotKeys.has(k))) return "summary";
  if (c.role === "model") return c.parts.some((p) => isObject(p.functionCall)) ? "toolCall" : "assistant";
  return c.parts.length > 0 && c.parts.every((p) => isObject(p.functionResponse)) ? "toolResult" : "user";
}

/**
 * Gemini CLI sessions (docs/gemini-cli-format.md): JSONL records replayed into a message
 * list (replay.ts), kept as a tree; the context is the `contents` Gemini sends on resume.
 */
export const geminiFormat: SessionFormat = {
  id: GEMINI_ID,
  agent: "Gemini CLI",
  detect: detectGemini,
  index: geminiIndexHooks,
  load: async (path) => GeminiSession.open(path),

  info(session: SessionReader): SessionInfo {
    const meta = asGemini(session).replayed.meta;
    return {
      id: typeof meta.sessionId === "string" ? meta.sessionId : "",
      cwd: projectRootOf(session.path, meta),
      ...(typeof meta.startTime === "string" ? { created: meta.startTime } : {}),
      ...(typeof meta.summary === "string" && meta.summary ? { name: meta.summary } : {}),
    };
  },

  /** Where `gemini --resume` goes on: the end of the replayed message list. */
  defaultLeaf: (session) => asGemini(session).resumeLeaf,

  describe: describeGemini,

  /** A compression's snapshot summarized the list the checkpoint replaced. */
  compactionParent(session, i) {
    const e = session.entryAt(i) as GeminiEntry;
    const from = e.checkpoint?.replacedLeaf;
    return from ? (session.tree.indexOf(from) ?? -1) : session.tree.parent[i];
  },

  context(session: SessionReader, leaf: number): FormatContext {
    if (leaf < 0) return { leafId: null, messages: [] };
    const g = asGemini(session);
    const key = session.metas[leaf].id;
    const snapshots = new Set(g.replayed.nodes.filter((n) => n.checkpoint?.compression && n.message.type === "user").map((n) => n.key));
    const messages: ContextMessage[] = sessionContents(g.replayed, key).map((c) => ({ entryId: c.sources[0], kind: partKind(c, snapshots), message: { parts: c.parts, role: c.role } }));
    return { leafId: key, messages };
  },

  anthropic: (ctx) => contentsToAnthropic(ctx.messages.map((m) => m.message as { role: string; parts: unknown })),

  details(session, i) {
    const e = session.entryAt(i) as GeminiEntry;
    const m = e.message;
    const t = isObject(m.tokens) ? m.tokens : undefined;
    const view = messageEntryView(m, storedToAnthropic(m), [
      ["line", session.metas[i].line],
      ["time", e.timestamp],
      ["message id", m.id],
      ["model", m.model],
      ["tokens", t ? `input ${String(t.input)} (cached ${String(t.cached ?? 0)}), output ${String(t.output)}, thoughts ${String(t.thoughts ?? 0)}, tool ${String(t.tool ?? 0)}` : undefined],
      ["note", e.sessionContext ? "Gemini CLI writes this turn again at every start; what it sends next time may differ (date, directory listing)" : undefined],
      ["checkpoint", e.checkpoint ? `line ${e.checkpoint.line} replaced the message list${e.checkpoint.compression ? " (a compression)" : ""}` : undefined],
    ]);
    const subs = startedBy(session, i);
    return subs.length ? { ...view, subagents: subs } : view;
  },

  // invoke_agent calls nest their sub-agent's transcript under the call's row.
  subagents: { startedBy, inlineRoots: () => NO_INLINE },

  unrecordedParts: "system instruction and tool declarations",
  replayed: "a line may replace an earlier message ($set.messages, a repeated id) or drop later ones ($rewindTo): the records are replayed into messages",
  discovery: { scanner: geminiScanner, root: geminiRoot, rootHelp: GEMINI_ROOT_HELP },
  search: geminiSearchHooks,
  writer: geminiWriter,
};
