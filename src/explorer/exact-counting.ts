import type { SessionReader } from "../core/session/session-reader";
import type { EntryTokens } from "../core/tokens/entry-tokens";

interface ExactCounter {
  /*
   * A method, so a host's counter typed on one format's session still fits (TypeScript
   * checks a method's parameters both ways): it only ever gets sessions of a format
   * with a token table of its own (SessionFormat.tokenTable).
   */
  count(session: SessionReader, table: EntryTokens[], indices: number[] | undefined, signal: AbortSignal): Promise<void>;
}

/**
 * Counts the table's entries exactly in the background (the host's tokenizer, cache,
 * settings and progress, through the format's `tokenTable.measure`), filling in
 * `measured` figures; resolves when done. `indices` names the entries to count, or
 * undefined for all of them.
 */
export type CountExact = ExactCounter["count"];

/**
 * One background run of exact counts at a time. Counts run after first paint and
 * replace the estimates when done; a restart (entries were appended) stops the run in
 * progress and counts whatever it had not reached.
 */
export class ExactCounting {
  private run: AbortController | undefined;

  constructor(
    private readonly count: CountExact,
    /** A run finished for this session (the caller checks it still shows it). */
    private readonly finished: (session: SessionReader) => void,
    private readonly failed: (message: string) => void,
  ) {}

  start(session: SessionReader, table: EntryTokens[]): void {
    const pending: number[] = [];
    for (let i = 0; i < table.length; i++) if (!table[i].measured) pending.push(i);
    if (!pending.length) return;
    const indices = pending.length === table.length ? undefined : pending;
    this.stop();
    const ctl = new AbortController();
    this.run = ctl;
    this.count(session, table, indices, ctl.signal).then(
      () => {
        if (!ctl.signal.aborted) this.finished(session);
      },
      (err: unknown) => {
        if (!ctl.signal.aborted) this.failed(`exact token counts stopped: ${(err as Error).message}`);
      },
    );
  }

  stop(): void {
    this.run?.abort();
    this.run = undefined;
  }
}
