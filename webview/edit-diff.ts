import type { DetailBlock } from "../src/protocol";
import { lineDiff } from "../src/core/util/line-diff";
import { el, oneLine } from "./dom";

type Edit = NonNullable<DetailBlock["edits"]>[number];

/** Diff lines shown per edit before "N more lines" (a whole-file rewrite can be thousands). */
const MAX_LINES = 2_000;

/** One edit as a unified line diff: "-" lines removed, "+" lines added, as text, never HTML. */
function editDiff(e: Edit, index: number, count: number): HTMLElement {
  const lines = lineDiff(e.oldText, e.newText);
  const minus = lines.filter((l) => l.op === "-").length;
  const plus = lines.length - minus - lines.filter((l) => l.op === " ").length;
  const what = `${count > 1 ? `Edit ${index + 1} of ${count}` : "Edit"}${e.path ? ` ${oneLine(e.path, 300)}` : ""}: -${minus} +${plus}${e.cut ? " (long texts cut)" : ""}`;
  const pre = el("pre", { className: "edit-diff-lines", attrs: { "aria-label": what } });
  for (const l of lines.slice(0, MAX_LINES)) {
    const cls = l.op === "-" ? "diff-del" : l.op === "+" ? "diff-add" : "diff-same";
    pre.appendChild(el("span", { className: `diff-line ${cls}`, text: `${l.op} ${l.text}\n` }));
  }
  if (lines.length > MAX_LINES) pre.appendChild(el("span", { className: "diff-line diff-more", text: `... ${lines.length - MAX_LINES} more lines\n` }));
  return el("div", { className: "edit-diff" }, [el("div", { className: "edit-diff-title", text: what }), pre]);
}

/** The edits of a tool call block, each as its diff. */
export function editDiffs(edits: readonly Edit[]): HTMLElement {
  return el("div", { className: "edit-diffs" }, edits.map((e, k) => editDiff(e, k, edits.length)));
}
