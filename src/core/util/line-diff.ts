import { commonEnds, myers, myersDistance } from "./word-diff";

/** One line of a unified diff: kept (" "), removed ("-") or added ("+"). */
export interface DiffLine {
  op: " " | "-" | "+";
  text: string;
}

/** Lines of both sides together (after their common ends) above which the middle is just replaced. */
const MAX_LINES = 4_000;
/** Edits above which the search stops (Myers keeps about edits² numbers). */
const MAX_EDITS = 1_000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  // A trailing newline ends the last line; it does not start an empty one.
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * The unified line diff of an edit's old and new text: common first and last lines
 * kept, the middle diffed line by line (Myers) within the limits above, else shown as
 * all removed then all added. Text in, text out: the caller renders it as text.
 */
export function lineDiff(oldText: string, newText: string): DiffLine[] {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const { start, endA, endB } = commonEnds(a, b);
  const out: DiffLine[] = a.slice(0, start).map((text) => ({ op: " ", text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const script = midA.length + midB.length > MAX_LINES ? undefined : myers(midA, midB, MAX_EDITS);
  if (script) {
    for (const [op, text] of script) out.push({ op: op === "=" ? " " : op, text });
  } else {
    for (const text of midA) out.push({ op: "-", text });
    for (const text of midB) out.push({ op: "+", text });
  }
  for (const text of a.slice(endA)) out.push({ op: " ", text });
  return out;
}

/**
 * How many lines `lineDiff` marks removed and added, without building it: an index
 * counts every edit of a session, and the script's trace and lines cost it more than the
 * count. Same limits, same numbers: a script of D edits over n and m lines removes
 * (D + n - m) / 2 and adds (D - n + m) / 2.
 */
export function lineDiffCounts(oldText: string, newText: string): { minus: number; plus: number } {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const { start, endA, endB } = commonEnds(a, b);
  const n = endA - start;
  const m = endB - start;
  const d = n + m > MAX_LINES ? undefined : middleDistance(a, start, endA, b, endB);
  if (d === undefined) return { minus: n, plus: m };
  return { minus: (d + n - m) / 2, plus: (d - n + m) / 2 };
}

/**
 * The edit distance of the two middles, on numbers: each line of the old middle gets a
 * number, a new line an old one's number or one of its own, so Myers compares integers.
 * When no line is shared (the usual edit: a block replaced) the distance is known
 * without a search.
 */
function middleDistance(a: readonly string[], start: number, endA: number, b: readonly string[], endB: number): number | undefined {
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return n + m;
  const ids = new Map<string, number>();
  const left = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const line = a[start + i];
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    left[i] = id;
  }
  const right = new Int32Array(m);
  let shared = false;
  for (let j = 0; j < m; j++) {
    const id = ids.get(b[start + j]);
    if (id !== undefined) shared = true;
    right[j] = id ?? -1 - j;
  }
  return shared ? myersDistance(left, right, MAX_EDITS) : n + m;
}
