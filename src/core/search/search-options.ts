// What a search is asked for (its own file: the regex thread reads it too, without the search).
import type { MatchWatch } from "./scan-file";
import type { TargetOptions } from "./search-targets";
import type { SearchHit, SessionHits } from "./search-types";

export interface SearchOptions extends TargetOptions {
  pattern: string;
  /** A JavaScript regular expression rather than plain text. */
  regex?: boolean;
  /** Case-insensitive unless set. */
  caseSensitive?: boolean;
  /** Only text of these kinds: neutral kinds ("user", "tool-result") or groups ("tool", "summary"). */
  kinds?: readonly string[];
  /** Only sessions whose cwd holds this text. */
  project?: string;
  /** Only entries at or after this time (ms); entries without a time count at their file's mtime. */
  since?: number;
  /** Only entries at or before this time (ms). */
  until?: number;
  /** Stop after this many hits in all. */
  limit?: number;
  /** Stops the scan (checked between chunks); the iteration then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Bytes read at a time (tests make it small to cross chunk ends). */
  chunkSize?: number;
  /** Called as each file's scan starts (progress; tests check the order of scans and results). */
  onFile?(path: string): void;
  /**
   * A regex runs on a thread of its own (when the bundle has it), stopped when one match
   * runs longer than this (ms; default 2 s): the search then rejects with RegexDeadlineError.
   */
  regexDeadlineMs?: number;
  /** false: run a regex on this thread, with no deadline (the search thread itself does). */
  threaded?: boolean;
  /** Each hit as it is found, with the session it counts for (the search thread posts them). */
  onHit?(session: Omit<SessionHits, "hits">, hit: SearchHit): void;
  /** Brackets every regex match (the search thread's deadline watches it). */
  watch?: MatchWatch;
}
