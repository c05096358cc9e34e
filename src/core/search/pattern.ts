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

/** The longest run of JSON-safe characters in any of the texts. */
function longestSafeRun(texts: readonly string[]): string | undefined {
  let best = "";
  for (const t of texts) {
    let cur = "";
    for (const c of t) {
      if (jsonSafe(c)) {
        cur += c;
        if (cur.length > best.length) best = cur;
      } else cur = "";
    }
  }
  return best || undefined;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Compiles a pattern; throws SearchInputError saying what is wrong with it. */
export function compilePattern(source: string, opts: PatternOptions = {}): SearchPattern {
  const regex = !!opts.regex;
  const caseSensitive = !!opts.caseSensitive;
  if (!source) throw new SearchInputError("empty pattern");
  let matcher: RegExp;
  try {
    matcher = new RegExp(regex ? source : escapeRegExp(source), caseSensitive ? "" : "i");
  } catch (err) {
    throw new SearchInputError(`invalid regular expression /${source}/: ${(err as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "")}`);
  }
  if (matcher.test("")) throw new SearchInputError(`the pattern /${source}/ matches the empty text (it would match every entry)`);
  const literal = longestSafeRun(regex ? requiredLiterals(source) : [source]);
  return { source, regex, caseSensitive, matcher, literal };
}
