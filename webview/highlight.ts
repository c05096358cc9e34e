/**
 * A search term shown inside session text: the text is split into text nodes and <mark>
 * elements (never HTML), so markup in a session stays inert while the term stands out.
 */

/** Marks past this many in one string are not drawn (a one-letter query in a long preview). */
const MAX_MARKS = 50;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The ranges of `query` in `text`, case-insensitive. A regular expression with the `i`
 * flag keeps the offsets of the text itself (lower-casing both sides would not: "İ"
 * lower-cases to two code units).
 */
export function matchRanges(text: string, query: string): Array<[number, number]> {
  if (!query) return [];
  const re = new RegExp(escapeRegExp(query), "giu");
  const out: Array<[number, number]> = [];
  for (let m = re.exec(text); m && out.length < MAX_MARKS; m = re.exec(text)) {
    if (m[0].length === 0) break;
    out.push([m.index, m.index + m[0].length]);
  }
  return out;
}

/** `text` as nodes, each occurrence of `query` inside a <mark>. */
export function markedNodes(text: string, query: string): Node[] {
  const nodes: Node[] = [];
  let at = 0;
  for (const [a, b] of matchRanges(text, query)) {
    if (a > at) nodes.push(document.createTextNode(text.slice(at, a)));
    const mark = document.createElement("mark");
    mark.textContent = text.slice(a, b);
    nodes.push(mark);
    at = b;
  }
  if (at < text.length || nodes.length === 0) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}
