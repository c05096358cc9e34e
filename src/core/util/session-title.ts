import { clipText, visibleText } from "./visible-text";

/** What a listing or a loaded session knows of its name: the agent's own title, else the first prompt. */
export interface TitleFacts {
  /** pi's session_info name, Claude Code's custom or AI title. */
  name?: string;
  firstMessage?: string;
}

/** The file name of a path, for where a session has no words of its own. */
export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

/** Whitespace runs (line breaks included) as one space: a title is one line. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/**
 * A session's title where an id or a file name would stand (tabs, bars, notices,
 * reports, headers): its name, else its first prompt, else its file name; one line,
 * hidden characters marked (session text stays text), at most `max` characters.
 */
export function sessionTitle(facts: TitleFacts | undefined, path: string, max = 80): string {
  const words = oneLine(facts?.name ?? "") || oneLine(facts?.firstMessage ?? "");
  return visibleText(clipText(words || fileName(path), max));
}

/** An entry's words in a title (a prompt, a label): one line, marked, clipped, quoted. */
export function quoted(text: string, max = 60): string {
  return `'${visibleText(clipText(oneLine(text) || "(empty)", max))}'`;
}

/**
 * A fork's title while it has no name of its own: its source's title, marked as a fork,
 * with the entry it was forked at when that is known.
 */
export function forkTitle(sourceTitle: string, atText?: string): string {
  return `${sourceTitle} (fork${atText !== undefined ? ` at ${quoted(atText, 40)}` : ""})`;
}

/** A session in a document's header: its title quoted, the path at the end ("'Fix the build' (/home/ana/.pi/…/x.jsonl)"). */
export function titledPath(title: string, path: string): string {
  return `${quoted(title, 80)} (${visibleText(path)})`;
}
