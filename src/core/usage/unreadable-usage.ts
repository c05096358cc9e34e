import type { SessionReader } from "../session/session-reader";
import { MAX_FIGURE_TEXT } from "../tokens/usage-figures";

/** An entry whose recorded usage was left out: a figure in it could not be believed. */
export interface UnreadableUsage {
  entryId: string;
  /** The entry's line in the file, from 1. */
  line: number;
  /** Which figures and what they held ("usage.input is 1e+308; usage.cost.total is -5"). */
  reason: string;
}

/**
 * The entries whose usage the index left out (usage-figures.ts), in file order. Read from
 * the table's side map of rare fields, so a session without any costs nothing to ask.
 */
export function unreadableUsage(session: SessionReader): UnreadableUsage[] {
  const out: Array<UnreadableUsage & { at: number }> = [];
  for (const [i, r] of session.table.rare) {
    if (r.badUsage !== undefined && i < session.metas.length) out.push({ at: i, entryId: session.metas[i].id, line: session.metas[i].line, reason: r.badUsage });
  }
  return out.sort((a, b) => a.at - b.at).map(({ at: _at, ...u }) => u);
}

/**
 * One line for people: how many entries' usage was left out and why, the first few named
 * by line ("left out: the recorded usage of 2 entries, ... (line 3: usage.input is -5; ...)"),
 * or undefined when none was. Reasons quote at most 20 characters of the line.
 */
export function unreadableUsageLine(list: readonly UnreadableUsage[], shown = 3): string | undefined {
  if (!list.length) return undefined;
  const named = list.slice(0, shown).map((u) => `line ${u.line}: ${u.reason}`);
  const more = list.length > shown ? `; and ${list.length - shown} more` : "";
  return `left out: the recorded usage of ${list.length} entr${list.length === 1 ? "y" : "ies"}, a figure not a number from 0 to ${MAX_FIGURE_TEXT} (${named.join("; ")}${more})`;
}
