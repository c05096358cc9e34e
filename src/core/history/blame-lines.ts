import { lineDiff } from "../util/line-diff";
import type { FileTouch } from "./file-touch";

/** A run of added lines shorter than this (trimmed) is not looked for alone: "}" or "end" would match anywhere. */
const MIN_RUN_CHARS = 8;

/** The lines of an edit's new text it adds (0-based, in the new text): a write adds them all. */
function addedLines(t: FileTouch, newLines: readonly string[]): number[] {
  if (t.operation === "write" || t.oldText === undefined) return newLines.map((_, k) => k);
  const out: number[] = [];
  let k = 0;
  for (const d of lineDiff(t.oldText, t.newText ?? "")) {
    if (d.op === "-") continue;
    if (d.op === "+") out.push(k);
    k++;
  }
  return out;
}

/** Line number (0-based) of an offset in a text. */
function lineAt(text: string, offset: number, from = 0, fromLine = 0): number {
  let line = fromLine;
  for (let i = from; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Candidate places of one anchor line tried, at most: a line repeated more often than this is no anchor. */
const MAX_PLACES = 20;

/**
 * Where the lines of a new text stand in the file when the text is not there whole: blocks
 * of consecutive lines equal in both, each grown from an anchor (a line of at least
 * MIN_RUN_CHARS, so "}" alone places nothing) both ways. Returns new-text line -> file line.
 */
function placeLines(newLines: readonly string[], fileLines: readonly string[], byText: Map<string, number[]>): Map<number, number> {
  const placed = new Map<number, number>();
  let done = -1;
  for (let i = 0; i < newLines.length; i++) {
    if (i <= done || newLines[i].trim().length < MIN_RUN_CHARS) continue;
    let best: { a: number; b: number; e: number } | undefined;
    for (const p of (byText.get(newLines[i]) ?? []).slice(0, MAX_PLACES)) {
      let a = i;
      let b = p;
      while (a - 1 > done && b > 0 && newLines[a - 1] === fileLines[b - 1]) {
        a--;
        b--;
      }
      let e = i;
      while (e + 1 < newLines.length && b + (e + 1 - a) < fileLines.length && newLines[e + 1] === fileLines[b + (e + 1 - a)]) e++;
      if (!best || e - a > best.e - best.a) best = { a, b, e };
    }
    if (!best) continue;
    for (let k = best.a; k <= best.e; k++) placed.set(k, best.b + (k - best.a));
    done = best.e;
  }
  return placed;
}

/**
 * Which lines of a file's text (0-based) an agent edit or write last wrote and are still
 * there, by the touch that wrote them. Each touch's new text is looked for in the text: found
 * whole, the lines it added there are its; not found, its lines are placed in blocks around
 * distinctive lines (an edit of which a person changed one line keeps the rest). A line
 * changed since no longer matches, so it is not claimed; blank lines never are. A newer touch
 * claims over an older one. `touches` may come in any order.
 */
export function blameLines(fileText: string, touches: readonly FileTouch[]): Map<number, FileTouch> {
  const text = fileText.replace(/\r\n/g, "\n");
  const lines = text.split("\n");
  const byText = new Map<string, number[]>();
  lines.forEach((l, n) => {
    const at = byText.get(l);
    if (at) at.push(n);
    else byText.set(l, [n]);
  });
  const claimed = new Map<number, FileTouch>();
  const oldestFirst = touches
    .filter((t) => (t.operation === "edit" || t.operation === "write") && t.newText?.trim())
    .map((t, k) => ({ t, k, ms: t.timestamp ? Date.parse(t.timestamp) : Number.NaN }))
    .sort((a, b) => (Number.isNaN(a.ms) || Number.isNaN(b.ms) ? b.k - a.k : a.ms - b.ms || b.k - a.k));
  for (const { t } of oldestFirst) {
    const newText = (t.newText as string).replace(/\r\n/g, "\n");
    const newLines = newText.split("\n");
    if (newLines.length > 1 && newLines[newLines.length - 1] === "") newLines.pop();
    const added = addedLines({ ...t, newText }, newLines);
    const claim = (first: number, ks: readonly number[]) => {
      for (const k of ks) if (lines[first + k]?.trim()) claimed.set(first + k, t);
    };
    const at = text.indexOf(newText);
    if (at >= 0) {
      claim(lineAt(text, at), added);
      continue;
    }
    const placed = placeLines(newLines, lines, byText);
    for (const k of added) {
      const n = placed.get(k);
      if (n !== undefined && lines[n].trim()) claimed.set(n, t);
    }
  }
  return claimed;
}
