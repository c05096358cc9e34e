import { requiredLiterals } from "./regex-literal";

/** What the user asked for cannot be searched (an invalid regex, an empty pattern, an unknown kind). */
export class SearchInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SearchInputError";
  }
}

export interface PatternOptions {
  /** A JavaScript regular expression rather than plain text. */
  regex?: boolean;
  /** Plain text and regex alike match case-insensitively unless this is set. */
  caseSensitive?: boolean;
}

/** A compiled pattern: the matcher for an entry's text and the literal its raw line must hold. */
export interface SearchPattern {
  readonly source: string;
  readonly regex: boolean;
  readonly caseSensitive: boolean;
  /** Matches in an entry's visible text (no g flag: the first match is the hit). */
  readonly matcher: RegExp;
  /**
   * Text every matching line holds as raw bytes, or undefined when none is known (every
   * line is then parsed). Made only of characters JSON writers never escape.
   */
  readonly literal?: string;
}

/**
 * Characters a JSON writer puts into a string as they are: printable ASCII but the quote
 * and the backslash (always escaped) and <, >, & (Go's encoder escapes them). Anything
 * else may arrive as an escape (\n, \u00e9), so a raw-byte search must not rely on it.
 */
function jsonSafe(c: string): boolean {
  const k = c.charCodeAt(0);
  return k >= 0x20 && k <= 0x7e && c !== '"' && c !== "\\" && c !== "<" && c !== ">" && c !== "&";
}

/**
 * Letters a case-insensitive Unicode regex also matches by a non-ASCII character (simple
 * case folding: K KELVIN SIGN is k, LATIN SMALL LETTER LONG S is s), so their raw bytes
 * are no sure sign of a match.
 */
const UNICODE_FOLDED = /[ks]/i;

/** The longest run of characters `ok` allows in any of the texts. */
function longestSafeRun(texts: readonly string[], ok: (c: string) => boolean): string | undefined {
  let best = "";
  for (const t of texts) {
    let cur = "";
    for (const c of t) {
      if (ok(c)) {
        cur += c;
        if (cur.length > best.length) best = cur;
      } else cur = "";
    }
  }
  return best || undefined;
}

/** Longest pattern searched: longer ones are no search anyone types (and V8 refuses regexes of ~40 KB). */
export const MAX_PATTERN = 10_000;

/** A pattern as an error message shows it: clipped, with its length when clipped. */
export function clipPattern(source: string): string {
  if (source.length <= 80) return source;
  let end = 60;
  const last = source.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${source.slice(0, end)}… (${source.length.toLocaleString("en-US")} characters)`;
}

/** V8's message for a bad regex, without its echo of the pattern. */
function regexProblem(err: unknown): string {
  return String((err as Error).message).replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Compiles a pattern; throws SearchInputError saying what is wrong with it. */
export function compilePattern(source: string, opts: PatternOptions = {}): SearchPattern {
  const regex = !!opts.regex;
  const caseSensitive = !!opts.caseSensitive;
  if (!source) throw new SearchInputError("empty pattern");
  const shown = regex ? `/${clipPattern(source)}/` : `"${clipPattern(source)}"`;
  if (source.length > MAX_PATTERN) throw new SearchInputError(`the pattern ${shown} is too long (at most ${MAX_PATTERN.toLocaleString("en-US")} characters)`);
  // Regexes are Unicode-aware (u): \p{Lu} works, . matches an emoji, a bad escape is an error.
  const flags = `${caseSensitive ? "" : "i"}${regex ? "u" : ""}`;
  let matcher: RegExp;
  let empty: boolean;
  try {
    matcher = new RegExp(regex ? source : escapeRegExp(source), flags);
    // V8 compiles on first use: "too large" surfaces here, not at construction.
    empty = matcher.test("");
  } catch (err) {
    throw new SearchInputError(`invalid regular expression ${shown}: ${regexProblem(err)}`);
  }
  if (empty) throw new SearchInputError(`the pattern ${shown} matches the empty text (it would match every entry)`);
  const folded = regex && !caseSensitive;
  const literal = longestSafeRun(regex ? requiredLiterals(source) : [source], (c) => jsonSafe(c) && !(folded && UNICODE_FOLDED.test(c)));
  return { source, regex, caseSensitive, matcher, literal };
}
