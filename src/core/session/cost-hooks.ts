import type { SessionReader } from "./session-reader";

/**
 * What a format can tell the cost pass that the index does not keep. The index has no
 * message ids, so a response written as several lines (Claude Code writes one line per
 * content block, each repeating the response's usage) would be counted once per line.
 * A format fills `responseId` (Claude Code: `message.id`) to have it counted once; until
 * it does, every entry holding usage is one step. The lead can add the same optional
 * member to SessionFormat: sessionCost (src/core/tokens/session-cost.ts) reads it from the format it is given.
 */
export interface CostHooks {
  /** The id of the API response entry i belongs to, when the format knows one. */
  responseId?(session: SessionReader, i: number): string | undefined;
  /**
   * How many of entry i's cache-write tokens were written with the 1-hour TTL (Claude
   * Code: `usage.cache_creation.ephemeral_1h_input_tokens`), priced at that rate; left
   * out, every cache write is priced at the 5-minute rate.
   */
  cacheWrite1h?(session: SessionReader, i: number): number | undefined;
  /**
   * The identity of the API call behind entry i across the whole store: the same in every
   * copy of the call (a fork, a /branch copy, a resume that wrote the history again), and
   * different for any other call. Totals over many files count a call once. Left out, the
   * entry's id, time and usage stand for it (copies keep all three).
   */
  callId?(session: SessionReader, i: number): string | undefined;
  /**
   * The session entry i was copied from when this file is a fork that copied it (pi: an
   * entry older than the fork's header, the header naming its parentSession; Claude Code:
   * a line's forkedFrom); undefined for the session's own entries.
   */
  inheritedFrom?(session: SessionReader, i: number): string | undefined;
}
