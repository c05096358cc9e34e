/**
 * What the hooks of a rollout's second half (read on a worker thread, from a line in the
 * middle, with fresh state) found that hangs on the lines before it. Codex's hooks carry
 * state from line to line (turns, the model, where usage comes from, the open response);
 * rather than guess it, the second half notes where it mattered, and the first half's
 * hooks settle those places when they adopt the range (CodexIndexHooks.adoptRange), so
 * the index is the one a single pass makes. Plain data: it crosses threads.
 */
import type { CodedColumnPart } from "../../util/coded-column";

export interface CodexRangeState {
  /** Turn events (entry index * 4 + TURN_*), replayed in order over the first half's turns. */
  turnOps: number[];
  /** Entries with usage read before the range named a model: they take the first half's. */
  modelless: number[];
  /**
   * token_count lines that would carry usage if no token_usage_record came before the
   * range (the first half knows): entry, its last_token_usage, the model then (if the
   * range knew it). Only those before the range's first record; consecutive repeats of a
   * total already left out, so only the first one's total is compared with the first half's.
   */
  deferred: Array<[number, Record<string, unknown> | undefined, string | undefined]>;
  firstTotal: string | undefined;
  /** State at the range's end (undefined: the range set none, the first half's stands). */
  sawRecord: boolean;
  lastTotal: string | undefined;
  model: string | undefined;
  turnId: string | undefined;
  /** Entries of the range. */
  count: number;
  /**
   * The turn of each entry of the range; those before its first turn (none) are in the first
   * half's current turn. As codes (CodedColumn), not an array per turn: what crosses from the
   * thread is allocated again on this one, where it outlived the young generation and grew it.
   */
  turns: CodedColumnPart;
  /** The response each entry of the range came from, the same way. */
  responses: CodedColumnPart;
  /** The response the range's first usage record named: it also takes the first half's open items. */
  firstRid: string | undefined;
  /** Model output items after the range's last record. */
  pending: number[];
  windows: Array<[number, number]>;
}

/** Turn events a rollback needs (see CodexIndexHooks.turnEvent). */
export const TURN_START = 0;
export const TURN_END = 1;
export const TURN_PROMPT = 2;
export type TurnOp = typeof TURN_START | typeof TURN_END | typeof TURN_PROMPT;

/** What a range's hooks note while they read (the rest of CodexRangeState is their own state at the end). */
export interface RangeNotes {
  /** Entries identified so far (the index of the next one). */
  at: number;
  turnOps: number[];
  modelless: number[];
  deferred: CodexRangeState["deferred"];
  firstTotal: string | undefined;
  firstRid: string | undefined;
  /** Why the range must be read again after the first half instead (a rollback). */
  onePass?: string;
}

export function emptyNotes(): RangeNotes {
  return { at: 0, turnOps: [], modelless: [], deferred: [], firstTotal: undefined, firstRid: undefined };
}
