/** A CodedColumn's positions as they cross threads (see part). */
export interface CodedColumnPart {
  codes: Int32Array;
  values: string[];
}

/** The value at position k of a part (undefined for none). */
export function partValue(p: CodedColumnPart, k: number): string | undefined {
  const c = p.codes[k];
  return c === 0 ? undefined : p.values[c];
}

/**
 * A string (or nothing) per position, for values that repeat across many positions (the
 * turn or the model response each entry of a rollout belongs to): each position holds a
 * 4-byte code into the list of distinct values. A JavaScript array of 10^5 strings costs 8
 * bytes a position, and each time it grows V8 copies it into a new array that the young
 * generation keeps and promotes: in a 100 MB Codex load that garbage, ~5 MB, is what made the
 * main thread's young generation double its size (docs/benchmarks.md, Codex peak RSS).
 */
export class CodedColumn {
  private codes = new Int32Array(256);
  /** Code 0 is "nothing"; code k > 0 is values[k]. */
  private readonly values: string[] = [""];
  private readonly codeOf = new Map<string, number>();
  /** One past the highest position set. */
  length = 0;

  get(i: number): string | undefined {
    const c = i >= 0 && i < this.length ? this.codes[i] : 0;
    return c === 0 ? undefined : this.values[c];
  }

  set(i: number, value: string | undefined): void {
    if (i >= this.codes.length) {
      let cap = this.codes.length * 2;
      while (cap <= i) cap *= 2;
      const grown = new Int32Array(cap);
      grown.set(this.codes);
      this.codes = grown;
    }
    let c = 0;
    if (value !== undefined) {
      c = this.codeOf.get(value) ?? 0;
      if (c === 0) {
        c = this.values.length;
        this.values.push(value);
        this.codeOf.set(value, c);
      }
    }
    this.codes[i] = c;
    if (i >= this.length) this.length = i + 1;
  }

  /**
   * The first `count` positions as plain data for another thread: a copy of their codes and
   * the values list (two objects to clone, not one per run of positions).
   */
  part(count = this.length): CodedColumnPart {
    return { codes: this.codes.slice(0, count), values: this.values.slice() };
  }

  /** The value at each position in turn, as an array of them would give it. */
  *[Symbol.iterator](): IterableIterator<string | undefined> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }

  /** Every distinct value some position holds. */
  distinct(): Set<string> {
    const seen = new Set<string>();
    for (let i = 0; i < this.length; i++) if (this.codes[i] !== 0) seen.add(this.values[this.codes[i]]);
    return seen;
  }
}
