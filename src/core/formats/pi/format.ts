import { buildContext, type ContextPart } from "./context/build-context";
import { appendRecords } from "../../session/append-records";
import { piDefaultLeaf } from "./default-leaf";
import { fileActivity } from "./file-ops";
import { readPiFileOps } from "./file-ops-read";
import { resolveSessionsDir } from "./sessions-dir";
import { piScanner } from "./list";
import type { FormatContext, PartKind, SessionFormat } from "../../session/session-format";
import { describePiEntry } from "./describe";
import { piEntryView, piToolCalls } from "./details";
import { piPreview } from "./context/pi-preview";
import { piContextRequest } from "./context/pi-request";
import { reconstructSystemPrompt } from "./context/system-prompt";
import { isPiHeader, piIndexHooks } from "./index-hooks";
import { asPi, Session } from "./pi-session";
import { piTokenTable } from "./tokens/pi-table";
import { piTokenReport } from "./tokens/pi-token-report";
import { piSearchHooks } from "./search-text";
import { piWriter } from "./writer";

/** What a context message counts as on the bars. */
function partKind(p: ContextPart): PartKind {
  if (p.kind === "compaction-summary" || p.kind === "branch-summary") return "summary";
  if (p.kind === "custom-message") return "custom";
  const role = p.agent.role;
  if (role === "bashExecution") return "bash";
  if (role === "toolResult") return "toolResult";
  return role === "assistant" ? "assistant" : "user";
}

/** pi (v1-v3): a header line, then entries by id/parentId (see docs/session-format.md). */
export const piFormat: SessionFormat = {
  id: "pi",
  agent: "pi",
  detect(first) {
    return isPiHeader(first.objects.find((x) => x !== undefined));
  },
  index: piIndexHooks,
  load: (path, opts) => Session.load(path, opts),
  info(session) {
    const h = asPi(session).header;
    return { id: h.id, cwd: typeof h.cwd === "string" ? h.cwd : "", version: asPi(session).version, created: h.timestamp, name: session.tree.name };
  },
  defaultLeaf: piDefaultLeaf,
  describe: describePiEntry,
  details: (session, i) => piEntryView(session.entryAt(i), session.metas[i]),
  toolCalls: (session, i) => piToolCalls(session.entryAt(i), session.metas[i]),
  context(session, leaf): FormatContext {
    const ctx = buildContext(session, leaf < 0 ? null : session.metas[leaf].id);
    return { leafId: ctx.leafId, messages: ctx.parts.map((p) => ({ entryId: p.entryId, kind: partKind(p), message: p.llm })) };
  },
  tokenTable: piTokenTable,
  tokenReport: piTokenReport,
  reconstructSystemPrompt: (session, env) => reconstructSystemPrompt({ cwd: piFormat.info(session).cwd, env }),
  contextRequest: (session, leaf, as, opts) => piContextRequest(asPi(session), leaf, as, opts),
  preview: (session, leafId, as, opts) => piPreview(asPi(session), leafId, as, opts),
  files: (session, positions) => fileActivity(asPi(session), positions),
  fileOps: readPiFileOps,
  discovery: {
    scanner: piScanner,
    root: (explicit, env) => resolveSessionsDir(explicit, env),
    rootHelp: "$PI_CODING_AGENT_DIR/sessions, else ~/.pi/agent/sessions",
  },
  search: piSearchHooks,
  // A fork copies the path's entries unchanged under a new header written at fork time:
  // an entry older than that header was copied from the header's parentSession.
  inheritedFrom(session, i) {
    // A session built in memory (rule tests) has no header: nothing is inherited.
    const h = session instanceof Session ? session.header : undefined;
    if (typeof h?.parentSession !== "string") return undefined;
    const forked = Date.parse(String(h.timestamp));
    return session.table.times[i] < forked ? h.parentSession : undefined;
  },
  // Appending records is checked by this format's own hooks, so it is bound here.
  writer: { ...piWriter, append: (session, records) => appendRecords(asPi(session), records, piFormat) },
};
