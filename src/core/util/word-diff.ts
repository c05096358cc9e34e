import { pushAll } from "../util/push-all";

/** One run of words: kept ("="), only in the old text ("-"), only in the new one ("+"). */
export interface WordRun {
  op: "=" | "-" | "+";
  /** The words of the run joined by single spaces. */
  text: string;
}

export interface WordDiff {
  runs: WordRun[];
  /**
   * True when the texts were too long or too different to diff word by word: the middle
   * (after their common first and last words) is shown as removed, then added.
   */
  replaced: boolean;
}

export interface WordDiffLimits {
  /** Words of both texts together (after the common ends) above which they are just replaced. */
  maxWords: number;
  /** Edits (words removed + added) above which the search stops and the middle is replaced. */
  maxEdits: number;
  /**
   * Steps (diagonals tried plus words compared) this diff and the others sharing the
   * object may still spend; it is drawn down, and a diff that runs out is replaced.
   */
  budget?: { steps: number };
}

/** Above these a word diff costs more than it tells: 20k words, 2,000 edits (Myers keeps about edits² numbers). */
export const WORD_DIFF_LIMITS: WordDiffLimits = { maxWords: 20_000, maxEdits: 2_000 };

/** The words of a text: runs of non-whitespace. */
export function splitWords(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** Appends one word's op, merging it into the last run when the op is the same. */
function push(runs: Array<{ op: WordRun["op"]; words: string[] }>, op: WordRun["op"], words: readonly string[]): void {
  if (!words.length) return;
  const last = runs[runs.length - 1];
  if (last && last.op === op) pushAll(last.words, words);
  else runs.push({ op, words: words.slice() });
}

/**
 * Myers' O((N+M)D) shortest edit script between two lists (words; lines for line-diff.ts), or undefined when it
 * needs more than `maxEdits` edits. Each step keeps the furthest-reaching x per diagonal
 * of the step before it (2d+3 numbers), which the walk back reads.
 */
export function myers(a: readonly string[], b: readonly string[], maxEdits: number, budget?: { steps: number }): Array<[WordRun["op"], string]> | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(maxEdits, n + m);
  const off = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  let steps = 0;
  try {
    for (let d = 0; d <= limit; d++) {
      if (budget && steps > budget.steps) return undefined;
      trace.push(v.slice(off - d - 1, off + d + 2));
      for (let k = -d; k <= d; k += 2) {
        const start = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
        let x = start;
        let y = x - k;
        while (x < n && y < m && a[x] === b[y]) {
          x++;
          y++;
        }
        steps += 1 + x - start;
        v[off + k] = x;
        if (x >= n && y >= m) return walkBack(a, b, trace, d);
      }
    }
    return undefined;
  } finally {
    if (budget) budget.steps -= steps;
  }
}

/**
 * The length of Myers' shortest edit script (insertions + deletions), or undefined past
 * `maxEdits`: the same forward search as `myers`, keeping no trace (the trace is the
 * O(D²) part), for callers that only count the lines a script removes and adds.
 */
export function myersDistance<T>(a: ArrayLike<T>, b: ArrayLike<T>, maxEdits: number): number | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(maxEdits, n + m);
  const off = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return undefined;
}

/** The edit script from the kept diagonals, first word first. */
function walkBack(a: readonly string[], b: readonly string[], trace: readonly Int32Array[], edits: number): Array<[WordRun["op"], string]> {
  const out: Array<[WordRun["op"], string]> = [];
  let x = a.length;
  let y = b.length;
  for (let d = edits; d > 0; d--) {
    const prev = trace[d];
    const at = (k: number) => prev[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      out.push(["=", a[x]]);
    }
    if (prevK === k + 1) out.push(["+", b[prevY]]);
    else out.push(["-", a[prevX]]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    out.push(["=", a[x]]);
  }
  return out.reverse();
}

/** Where two lists stop being equal from the front (start) and from the back (endA, endB, exclusive). */
export function commonEnds(a: readonly string[], b: readonly string[]): { start: number; endA: number; endB: number } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { start, endA, endB };
}

/**
 * The word-level difference of two texts over whitespace-split words (whitespace itself
 * is not compared). Common first and last words are kept as they are; the middle is
 * diffed word by word within the limits, else shown as replaced.
 */
export function wordDiff(oldText: string, newText: string, limits: WordDiffLimits = WORD_DIFF_LIMITS): WordDiff {
  const a = splitWords(oldText);
  const b = splitWords(newText);
  const { start, endA, endB } = commonEnds(a, b);
  const runs: Array<{ op: WordRun["op"]; words: string[] }> = [];
  push(runs, "=", a.slice(0, start));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  let replaced = false;
  const script = midA.length + midB.length > limits.maxWords || (limits.budget && limits.budget.steps <= 0) ? undefined : myers(midA, midB, limits.maxEdits, limits.budget);
  if (script) {
    for (const [op, w] of script) push(runs, op, [w]);
  } else {
    replaced = true;
    push(runs, "-", midA);
    push(runs, "+", midB);
  }
  push(runs, "=", a.slice(endA));
  return { runs: runs.map((r) => ({ op: r.op, text: r.words.join(" ") })), replaced };
}
