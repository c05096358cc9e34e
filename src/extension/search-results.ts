import type { EntryKind } from "../core/session/entry-kinds";
import type { SearchOptions } from "../core/search/search-sessions";
import type { SearchHit, SessionHits } from "../core/search/search-types";
import { clipText, visibleText } from "../core/util/visible-text";
import { KIND_ICONS } from "../kind-icons";

/*
 * The Search Results view without VS Code: what a search in the editor asks for, the
 * results it has so far, and the text of every node and message. search-view.ts turns
 * these into tree items; mocha tests them as they are.
 */

/** Date ranges the filter offers. */
export type DateRange = "any" | "today" | "7d" | "30d";
/** Entry kinds the filter offers, each a set of the core's kinds. */
export type KindChoice = "any" | "user" | "assistant" | "tool-output" | "summaries";

export const DATE_RANGES: ReadonlyArray<{ value: DateRange; label: string }> = [
  { value: "any", label: "Any date" },
  { value: "today", label: "Today" },
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
];

export const KIND_CHOICES: ReadonlyArray<{ value: KindChoice; label: string; kinds?: readonly string[] }> = [
  { value: "any", label: "Any kind" },
  { value: "user", label: "User prompts only", kinds: ["user"] },
  { value: "assistant", label: "Assistant replies and thinking", kinds: ["assistant"] },
  { value: "tool-output", label: "Tool output", kinds: ["tool-result", "shell"] },
  { value: "summaries", label: "Summaries and compactions", kinds: ["summary"] },
];

/** What a search from the editor asks for: the command's argument, also what the input flow builds. */
export interface SearchRequest {
  pattern: string;
  regex?: boolean;
  caseSensitive?: boolean;
  /** A format id ("pi", "claude-code", ...); undefined: every agent. */
  agent?: string;
  /** Only sessions whose cwd holds this text. */
  project?: string;
  date?: DateRange;
  kind?: KindChoice;
  /** Search these files only (Search in Session). */
  files?: string[];
  /** Stop after this many hits (DEFAULT_LIMIT when not given). */
  limit?: number;
}

const DAY = 86_400_000;

/** Hits a search from the editor stops at unless the request says otherwise: a tree of more is no help, and each costs memory. */
export const DEFAULT_LIMIT = 10_000;

/** The core's options for a request (`now` fixes "today" and the day counts). */
export function searchOptions(r: SearchRequest, now = Date.now()): SearchOptions {
  let since: number | undefined;
  if (r.date === "today") {
    const d = new Date(now);
    since = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  } else if (r.date === "7d") since = now - 7 * DAY;
  else if (r.date === "30d") since = now - 30 * DAY;
  const kinds = KIND_CHOICES.find((k) => k.value === r.kind)?.kinds;
  return {
    pattern: r.pattern,
    regex: r.regex,
    caseSensitive: r.caseSensitive,
    ...(r.agent ? { only: [r.agent] } : {}),
    ...(r.project ? { project: r.project } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(kinds ? { kinds } : {}),
    ...(r.files ? { files: r.files } : {}),
    limit: r.limit && r.limit > 0 ? r.limit : DEFAULT_LIMIT,
  };
}

/** The request in one line, for the view's description: the pattern, its flags and filters. */
export function describeRequest(r: SearchRequest): string {
  const flags = [r.regex ? "regex" : "", r.caseSensitive ? "match case" : ""].filter(Boolean);
  const parts = [`${r.regex ? "/" : '"'}${visibleText(clipText(r.pattern, 60))}${r.regex ? "/" : '"'}${flags.length ? ` (${flags.join(", ")})` : ""}`];
  if (r.files?.length === 1) parts.push(`in ${visibleText(clipText(r.files[0].split(/[\\/]/).pop() ?? r.files[0], 60))}`);
  if (r.agent) parts.push(r.agent);
  if (r.project) parts.push(`project ${visibleText(clipText(r.project, 40))}`);
  const date = DATE_RANGES.find((d) => d.value === r.date && d.value !== "any");
  if (date) parts.push(date.label.toLowerCase());
  const kind = KIND_CHOICES.find((k) => k.value === r.kind && k.value !== "any");
  if (kind) parts.push(kind.label.toLowerCase());
  return parts.join(" · ");
}

export type SearchStatus = "searching" | "done" | "cancelled" | "failed";

/** How a search ended: what the search command resolves with. */
export interface SearchOutcome {
  status: Exclude<SearchStatus, "searching">;
  sessions: number;
  hits: number;
  /** Files and bytes read. */
  scanned: { files: number; bytes: number };
  /** Why it failed (a bad regex, an unreadable store), when it did. */
  error?: string;
  /** The hit limit stopped it. */
  limited?: boolean;
}

/** The results of one search as they arrive, grouped by session in the order the core yields them (newest session first). */
export class SearchResults {
  readonly sessions: SessionHits[] = [];
  hits = 0;
  status: SearchStatus = "searching";
  error?: string;
  scanned = { files: 0, bytes: 0 };
  limited = false;
  /** Set when nothing was there to search: the roots looked in. */
  noSessionsUnder?: string;

  constructor(readonly request: SearchRequest) {}

  add(s: SessionHits): void {
    this.sessions.push(s);
    this.hits += s.hits.length;
  }

  outcome(): SearchOutcome {
    const status = this.status === "searching" ? "cancelled" : this.status;
    return { status, sessions: this.sessions.length, hits: this.hits, scanned: { ...this.scanned }, ...(this.error ? { error: this.error } : {}), ...(this.limited ? { limited: true } : {}) };
  }
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The view's message: progress while searching, then the final count, a cancellation or the error. */
export function resultsMessage(r: SearchResults): string {
  const found = `${count(r.hits, "hit")} in ${count(r.sessions.length, "session")}`;
  const scanned = `${count(r.scanned.files, "file")} searched`;
  switch (r.status) {
    case "searching":
      return `Searching… ${count(r.sessions.length, "session")}, ${count(r.hits, "hit")}`;
    case "cancelled":
      return `Cancelled: ${found} so far (${scanned}).`;
    case "failed":
      // A regex stopped at its deadline keeps the hits found before it.
      return `Search failed: ${visibleText(r.error ?? "unknown error")}${r.hits ? ` (${found} found before it stopped)` : ""}`;
    case "done":
      if (r.noSessionsUnder !== undefined) {
        const q = r.request;
        const filtered = !!q.agent || !!q.project || (q.date !== undefined && q.date !== "any");
        return filtered ? `No session matches the filters (looked under ${visibleText(r.noSessionsUnder)}).` : `No sessions to search under ${visibleText(r.noSessionsUnder)}.`;
      }
      if (!r.hits) return `No matches (${scanned}).`;
      return `${found} (${scanned}${r.limited ? `; stopped at ${count(r.hits, "hit")}` : ""}).`;
  }
}

/** A session node's text: its title from the listing, else the one the search read, else the file name. */
export function sessionLabel(s: Pick<SessionHits, "path" | "title">, listed?: string): string {
  const name = listed || s.title || s.path.split(/[\\/]/).pop() || s.path;
  return visibleText(clipText(name, 120));
}


/** The codicon of a hit's kind (the explorer's row icons). */
export function kindIcon(kind: EntryKind): string {
  return KIND_ICONS[kind] ?? "circle-small";
}

/**
 * Context kept before the match on a tree row, counted on the marked text: a sidebar row
 * shows about 30 characters before it is cut on the right, so the match must come early.
 */
const LEAD = 12;
/** Longest row label. */
const LABEL_MAX = 160;

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Where a lead-in of about LEAD marked characters starts: after a space when one is near, never inside a mark or a surrogate pair. */
function leadStart(shown: string): number {
  let from = shown.length - LEAD;
  const space = shown.indexOf(" ", from);
  if (space >= 0 && space < shown.length - 1 && space - from < LEAD / 2) from = space + 1;
  const open = shown.lastIndexOf("\u27e8", from);
  if (open >= 0 && shown.lastIndexOf("\u27e9", from - 1) < open) from = shown.indexOf("\u27e9", open) + 1;
  if (isLow(shown.charCodeAt(from))) from++;
  return from;
}

/**
 * A hit's row label: a short lead-in, the match and what follows, hidden characters
 * marked (so marks and escapes may lengthen it), with the match's range moved to
 * where it now is, for the tree's highlight.
 */
export function hitLabel(hit: Pick<SearchHit, "snippet" | "match">): { label: string; highlight: [number, number] } {
  const [a, b] = hit.match;
  let shownLead = visibleText(hit.snippet.slice(0, a));
  if (shownLead.length > LEAD) shownLead = `…${shownLead.slice(leadStart(shownLead))}`;
  const shownMatch = visibleText(hit.snippet.slice(a, b));
  const label = clipText(shownLead + shownMatch + visibleText(hit.snippet.slice(b)), LABEL_MAX);
  const end = Math.min(shownLead.length + shownMatch.length, label.length);
  return { label, highlight: [Math.min(shownLead.length, end), end] };
}

/** A time for a row: local `YYYY-MM-DD HH:MM`, or "" without one. */
export function hitTime(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A hit's sub-agent for a row: "sub-agent <id>", or "" for the session's own entries. */
export function hitSubagent(hit: Pick<SearchHit, "subagent">): string {
  return hit.subagent ? `sub-agent ${visibleText(clipText(hit.subagent.agentId, 40))}` : "";
}

/** The file a hit's entry is in: its sub-agent's transcript, else the session's. */
export function hitFile(session: Pick<SessionHits, "path">, hit: Pick<SearchHit, "subagent">): string {
  return hit.subagent?.path ?? session.path;
}

/** A hit's tooltip, plain text: what and where it is (its sub-agent and what it was asked), then the whole snippet. */
export function hitTooltip(hit: SearchHit): string {
  const when = hitTime(hit.timestamp);
  const where = [hit.kind, when, `line ${hit.line}`, `entry ${visibleText(clipText(hit.entryId, 80))}`].filter(Boolean).join(" · ");
  const a = hit.subagent;
  const sub = a ? `\nIn ${hitSubagent(hit)}${a.description ? `: ${visibleText(clipText(a.description, 200))}` : ""}` : "";
  return `${where}${sub}\n\n${visibleText(hit.snippet)}`;
}
