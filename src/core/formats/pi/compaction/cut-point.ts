/**
 * pi's cut-point rules (findCutPoint / findTurnStartIndex), over the index records of
 * one path so no entry has to be read from disk. Positions are indexes into that
 * path array, root first.
 */

/** What the rules look at: EntryMeta has all of it. */
export interface CutEntry {
  type: string;
  role?: string;
  /** pi's chars/4 estimate (only read for `message` entries, as pi does). */
  estimate: number;
}

export interface CutPoint {
  /** First kept path position. */
  firstKept: number;
  /** Start of the turn being split, or -1. */
  turnStart: number;
  isSplitTurn: boolean;
}

/** Roles pi lets a cut land on. A tool result must stay right after its tool call. */
const CUT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

export function isValidCut(e: CutEntry): boolean {
  if (e.type === "message") return e.role !== undefined && CUT_ROLES.has(e.role);
  // Both become user messages in the context, so a turn may start at them.
  return e.type === "branch_summary" || e.type === "custom_message";
}

/** Whether the entry starts a turn (a user-side message). */
function startsTurn(e: CutEntry): boolean {
  if (e.type === "branch_summary" || e.type === "custom_message") return true;
  return e.type === "message" && (e.role === "user" || e.role === "bashExecution");
}

/** The entry starting the turn that holds `at`, searching back to `start`; -1 if none. */
export function findTurnStart(entries: readonly CutEntry[], at: number, start: number): number {
  for (let i = at; i >= start; i--) if (startsTurn(entries[i])) return i;
  return -1;
}

/**
 * Walks back from the newest entry summing message estimates; once the sum reaches
 * `keepRecentTokens`, the cut goes to the first valid cut point at or after that
 * entry. Non-message entries just before the cut (model/thinking changes, labels...)
 * go with the kept part, up to a compaction. Considers [start, end).
 */
export function findCutPoint(entries: readonly CutEntry[], start: number, end: number, keepRecentTokens: number): CutPoint {
  const cuts: number[] = [];
  for (let i = start; i < end; i++) if (isValidCut(entries[i])) cuts.push(i);
  if (!cuts.length) return { firstKept: start, turnStart: -1, isSplitTurn: false };

  let cut = cuts[0];
  let sum = 0;
  for (let i = end - 1; i >= start; i--) {
    if (entries[i].type !== "message") continue;
    sum += entries[i].estimate;
    if (sum >= keepRecentTokens) {
      const c = cuts.find((p) => p >= i);
      if (c !== undefined) cut = c;
      break;
    }
  }
  while (cut > start) {
    const prev = entries[cut - 1];
    if (prev.type === "compaction" || prev.type === "message") break;
    cut--;
  }
  const at = entries[cut];
  const isUser = at.type === "message" && at.role === "user";
  const turnStart = isUser ? -1 : findTurnStart(entries, cut, start);
  return { firstKept: cut, turnStart, isSplitTurn: !isUser && turnStart !== -1 };
}
