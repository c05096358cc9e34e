/** A prompt is kept shortened: the history's view and the blame hover show one or two lines of it. */
export const PROMPT_CAP = 300;

/**
 * The prompt of the turn each entry belongs to: its nearest ancestor that is a prompt
 * (`promptAt` gives its words, or undefined for any other entry), trimmed and cut to
 * PROMPT_CAP; memoized per position, so a session's walks cost one pass in all.
 */
export class TurnPrompts {
  private readonly memo = new Map<number, string | undefined>();

  constructor(
    /** The parent position of an entry (negative: a root). */
    private readonly parentOf: (k: number) => number,
    private readonly promptAt: (k: number) => string | undefined,
    /** How many entries there are: a walk longer than this is a cycle, and ends. */
    private readonly size: () => number,
  ) {}

  of(i: number): string | undefined {
    const seen: number[] = [];
    let found: string | undefined;
    for (let k = i; k >= 0; k = this.parentOf(k)) {
      if (this.memo.has(k)) {
        found = this.memo.get(k);
        break;
      }
      seen.push(k);
      const words = this.promptAt(k)?.trim();
      if (words) {
        found = words.slice(0, PROMPT_CAP);
        break;
      }
      // A cycle the tree should not have must not hang the walk.
      if (seen.length > this.size()) break;
    }
    for (const k of seen) this.memo.set(k, found);
    return found;
  }
}
