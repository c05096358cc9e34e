/**
 * Session text made safe to show as text: characters that are invisible, reorder what
 * follows (bidi overrides), drive a terminal (ESC, other controls) or cannot be encoded
 * (lone surrogates) are replaced by a visible mark such as ⟨U+202E⟩, so a name cannot
 * pass itself off as another and a label cannot forge lines or colours.
 *
 * Pure and dependency-free: the CLI, the extension's log and the webview bundle all
 * use it. Exact data (JSON outputs) is never passed through it.
 */

/**
 * C0 and C1 controls and DEL; the Arabic letter mark; zero-width space/joiners and
 * LRM/RLM; line and paragraph separators; bidi embeddings, overrides and isolates; word
 * joiner and invisible operators; interlinear annotations; the BOM / zero-width
 * no-break space; Unicode tag characters (invisible ASCII look-alikes, as surrogate
 * pairs); lone surrogates. Written for code units (no `u` flag) so lone surrogates match.
 */
const MARKED_SOURCE =
  "[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff\\ufff9-\\ufffb]" +
  "|\\udb40[\\udc00-\\udc7f]" +
  "|[\\ud800-\\udbff](?![\\udc00-\\udfff])" +
  "|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]";
const MARKED = new RegExp(MARKED_SOURCE, "g");
const HAS_MARKED = new RegExp(MARKED_SOURCE);

/** A zero-width joiner inside an emoji sequence (👩‍💻) is part of the picture, not a trick. */
const PICTO_BEFORE = /\p{Extended_Pictographic}[\u{FE0F}\u{1F3FB}-\u{1F3FF}]?$/u;
const PICTO_AFTER = /^\p{Extended_Pictographic}/u;

/**
 * How line breaks and tabs are shown: `keep` for views that show several lines on
 * purpose (a message's text), `escape` (as `\n`, `\r`, `\t`) for one-line views and
 * logs, where a real line break would start a forged line.
 */
export type LineBreaks = "keep" | "escape";

const ESCAPED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** The mark shown for a code point: ⟨U+202E⟩. */
export function codeMark(cp: number): string {
  return `⟨U+${cp.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/** `s` with every invisible, reordering or terminal-driving character shown as a mark. */
export function visibleText(s: string, lineBreaks: LineBreaks = "escape"): string {
  if (!HAS_MARKED.test(s)) return s;
  return s.replace(MARKED, (c: string, at: number) => {
    if (c === "\n" || c === "\t" || (c === "\r" && s.charCodeAt(at + 1) === 10)) {
      if (lineBreaks === "keep") return c;
    }
    if (lineBreaks === "escape" && ESCAPED[c]) return ESCAPED[c];
    if (c === "\u200d" && PICTO_BEFORE.test(s.slice(Math.max(0, at - 4), at)) && PICTO_AFTER.test(s.slice(at + 1, at + 3))) return c;
    return codeMark(c.length === 2 ? (c.codePointAt(0) as number) : c.charCodeAt(0));
  });
}

/** Whether `s` holds anything visibleText would mark or escape. */
export function hasHiddenText(s: string): boolean {
  return HAS_MARKED.test(s);
}

/**
 * At most `max` UTF-16 units of `s` for a one-line view, ending in "…" when cut; never
 * splits a surrogate pair (half of one would show as a mark).
 */
export function clipText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = Math.max(0, max - 1);
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

/**
 * The widest one field (a path, a model name, a sub-agent type, a label) is shown on a
 * line for people. A session names these itself: a 100,000-character model name padded
 * every row of a table to megabytes. JSON outputs are never clipped.
 */
export const FIELD_WIDTH = 240;

/** `s` cut to about `max` units with how much was left out, `abcd…(+99,996 chars)`; shorter text as it is. */
export function clipField(s: string, max = FIELD_WIDTH): string {
  if (s.length <= max) return s;
  const head = clipText(s, max);
  return `${head}(+${(s.length - (head.length - 1)).toLocaleString("en-US")} chars)`;
}

/** A session field for one line of human output: clipped first (marks never cut), then hidden characters marked. */
export function shownField(s: string, max = FIELD_WIDTH): string {
  return visibleText(clipField(s, max));
}
