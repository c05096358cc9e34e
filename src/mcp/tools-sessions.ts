import { z } from "zod";
import { searchSessions } from "../core/search/search-sessions";
import { SearchInputError } from "../core/search/pattern";
import { RegexDeadlineError } from "../core/search/regex-thread";
import type { SessionSummary } from "../core/store/discover";
import { clipText } from "../core/util/visible-text";
import { arraySource, type PagedResults } from "./paging";
import { listScope } from "./session-source";
import { readable, type StoreScope, ToolInputError } from "./stores";
import { agentField, agentScope, cursorField, limitField, projectField, sinceField, timeRange, untilField } from "./tool-inputs";

/** Hits a search collects at most; the rest is left out, and the result says so. */
export const MAX_HITS = 2000;
const TITLE_CHARS = 200;

export const listSessionsInput = () =>
  z.strictObject({ agent: agentField(), project: projectField, since: sinceField, until: untilField, limit: limitField, cursor: cursorField });

/** A session as list_sessions gives it: what an agent needs to choose one and name it again. */
function sessionItem(s: SessionSummary) {
  return {
    path: s.path,
    id: s.id,
    agent: s.agent,
    project: s.cwd,
    title: clipText(s.name ?? s.firstMessage ?? "", TITLE_CHARS),
    created: s.created,
    modified: new Date(s.mtimeMs).toISOString(),
    entries: s.entryCount,
    bytes: s.size,
    ...(s.parentSession ? { forkedFrom: s.parentSession } : {}),
    ...(s.subagents?.length ? { subagents: s.subagents.length } : {}),
  };
}

/** Sessions of every store in scope, newest first, filtered; a session counts in a range when it was active in it. */
export async function listSessions(scope: StoreScope, pages: PagedResults, args: z.infer<ReturnType<typeof listSessionsInput>>) {
  const range = timeRange(args.since, args.until);
  const page = await pages.page("list_sessions", args, async () => {
    const listing = await listScope(agentScope(scope, args.agent));
    const all = listing.projects
      .flatMap((p) => p.sessions)
      .filter((s) => readable(scope, s.path) && (args.project === undefined || s.cwd.includes(args.project)) && (range.since === undefined || s.mtimeMs >= range.since) && (range.until === undefined || Date.parse(s.created) <= range.until || Number.isNaN(Date.parse(s.created))))
      .sort((a, b) => b.mtimeMs - a.mtimeMs);
    return arraySource(all.map(sessionItem));
  });
  return { sessions: page.items, offset: page.offset, total: page.total, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

export const searchSessionsInput = () =>
  z.strictObject({
    query: z.string().min(1).max(1000).describe("text to find (or a JavaScript regular expression with regex: true)"),
    regex: z.boolean().optional(),
    caseSensitive: z.boolean().optional(),
    kinds: z.array(z.string().min(1).max(40)).max(20).optional().describe('only text of these kinds: "user", "assistant", "tool-result", ... or groups "tool", "summary"'),
    agent: agentField(),
    project: projectField,
    since: sinceField,
    until: untilField,
    limit: limitField,
    cursor: cursorField,
  });

/** Hits across every store in scope, newest session first, each naming its session and entry. */
export async function searchAll(scope: StoreScope, pages: PagedResults, args: z.infer<ReturnType<typeof searchSessionsInput>>) {
  const range = timeRange(args.since, args.until);
  const only = agentScope(scope, args.agent).only;
  let truncated = false;
  const page = await pages.page("search_sessions", args, async () => {
    let search;
    try {
      search = searchSessions({ pattern: args.query, regex: args.regex, caseSensitive: args.caseSensitive, kinds: args.kinds, project: args.project, ...range, limit: MAX_HITS, dirs: scope.dirs, only, env: scope.env });
    } catch (err) {
      if (err instanceof SearchInputError) throw new ToolInputError(err.message);
      throw err;
    }
    const hits: unknown[] = [];
    try {
      for await (const s of search) {
        if (!readable(scope, s.path)) continue;
        for (const h of s.hits) {
          hits.push({ session: s.path, agent: s.agent, project: s.cwd, ...(s.title ? { title: clipText(s.title, TITLE_CHARS) } : {}), entryId: h.entryId, kind: h.kind, timestamp: h.timestamp, line: h.line, snippet: h.snippet, ...(h.subagent ? { subagent: { id: h.subagent.agentId, path: h.subagent.path } } : {}) });
        }
      }
    } catch (err) {
      if (err instanceof RegexDeadlineError) throw new ToolInputError(err.message);
      throw err;
    }
    truncated = search.limited;
    return arraySource(hits);
  });
  return { hits: page.items, offset: page.offset, total: page.total, ...(truncated ? { note: `stopped at ${MAX_HITS} hits: narrow the query (agent, project, since, kinds)` } : {}), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
