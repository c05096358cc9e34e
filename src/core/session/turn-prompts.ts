/** A prompt is kept shortened: the history's view and the blame hover show one or two lines of it. */
export const PROMPT_CAP = 300;

/**
 * The prompt of the turn each entry belongs to: its nearest ancestor that is a prompt
 * (`promptAt` gives its words, or undefined for any other entry), trimmed and cut to
 * PROMPT_CAP; memoized per position, so a session's walks cost one pass in all.
 */
export class TurnPrompts {
  /** Per position: 0 not walked yet, -1 no prompt above it, else 1 + the number of its prompt in `found`. */
  private memo = new Int32Array(1024);
  private readonly found: string[] = [];
  /** The positions one walk passes (kept for the next walk: a session makes thousands). */
  private readonly seen: number[] = [];

  constructor(
    /** The parent position of an entry (negative: a root). */
    private readonly parentOf: (k: number) => number,
    private readonly promptAt: (k: number) => string | undefined,
    /** How many entries there are: a walk longer than this is a cycle, and ends. */
    private readonly size: () => number,
  ) {}

  of(i: number): string | undefined {
    // Written from its start, its length never cut: a list emptied lets its storage go.
    const seen = this.seen;
    let n = 0;
    let mark = -1;
    for (let k = i; k >= 0; k = this.parentOf(k)) {
      const known = k < this.memo.length ? this.memo[k] : 0;
      if (known !== 0) {
        mark = known;
        break;
      }
      seen[n++] = k;
      const words = this.promptAt(k)?.trim();
      if (words) {
        mark = this.found.push(words.slice(0, PROMPT_CAP));
        break;
      }
      // A cycle the tree should not have must not hang the walk.
      if (n > this.size()) break;
    }
    for (let j = 0; j < n; j++) this.remember(seen[j], mark);
    return mark > 0 ? this.found[mark - 1] : undefined;
  }

  private remember(k: number, mark: number): void {
    if (k >= this.memo.length) {
      const grown = new Int32Array(Math.max(k + 1, 2 * this.memo.length));
      grown.set(this.memo);
      this.memo = grown;
    }
    this.memo[k] = mark;
  }
}
