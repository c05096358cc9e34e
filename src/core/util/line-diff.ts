import { commonEnds, myers } from "./word-diff";

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
