/**
 * Literal runs every match of a JavaScript regular expression must contain, read from its
 * source conservatively: only runs outside groups, none when the top level has an
 * alternation, a character made optional by its quantifier dropped. An empty list means
 * no literal is known (the search then reads every line). Wrong answers would lose hits,
 * so anything unusual ends the current run.
 */
export function requiredLiterals(source: string): string[] {
  const runs: string[] = [];
  let cur = "";
  let depth = 0;
  // Whether the last atom was a literal character appended to `cur` (a quantifier applies to it).
  let lastChar = false;
  const flush = () => {
    if (cur) runs.push(cur);
    cur = "";
    lastChar = false;
  };
  const add = (c: string) => {
    if (depth === 0) {
      cur += c;
      lastChar = true;
    } else lastChar = false;
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === "\\") {
      const next = source[i + 1];
      if (next === undefined) break;
      if (/[A-Za-z0-9]/.test(next)) {
        // A class (\d, \w), an anchor (\b), a control or a code (\n, \x41, \u0041), a back-reference.
        flush();
        i += escapeLength(source, i);
      } else {
        add(next);
        i += 2;
      }
    } else if (c === "[") {
      flush();
      i = classEnd(source, i);
    } else if (c === "(") {
      flush();
      depth++;
      i++;
    } else if (c === ")") {
      flush();
      depth = Math.max(0, depth - 1);
      i++;
    } else if (c === "|") {
      if (depth === 0) return [];
      i++;
    } else if (c === "*" || c === "?" || c === "{") {
      const q = c === "{" ? /^\{\d+(,\d*)?\}/.exec(source.slice(i)) : null;
      if (c === "{" && !q) {
        // Not a quantifier: a literal brace (outside unicode mode).
        add(c);
        i++;
        continue;
      }
      // The atom before may occur zero times (or, for {n}, n times, not once in a row).
      if (lastChar) cur = cur.slice(0, -1);
      flush();
      i += q ? q[0].length : 1;
      if (source[i] === "?") i++;
    } else if (c === "+") {
      // Once at least, but a repeat breaks the run.
      flush();
      i++;
      if (source[i] === "?") i++;
    } else if (c === "." || c === "^" || c === "$") {
      flush();
      i++;
    } else {
      add(c);
      i++;
    }
  }
  flush();
  return runs;
}

/** Length of the escape at i (\d, \x41, \u{1F600}, \cJ, \12). */
function escapeLength(s: string, i: number): number {
  const next = s[i + 1];
  if (next === "x") return 4;
  if (next === "u") return s[i + 2] === "{" ? Math.max(3, s.indexOf("}", i) - i + 1) : 6;
  if (next === "c") return 3;
  if (next === "k" && s[i + 2] === "<") return Math.max(3, s.indexOf(">", i) - i + 1);
  if (next === "p" || next === "P") return s[i + 2] === "{" ? Math.max(3, s.indexOf("}", i) - i + 1) : 2;
  if (/[0-9]/.test(next)) {
    let k = i + 1;
    while (k < s.length && /[0-9]/.test(s[k])) k++;
    return k - i;
  }
  return 2;
}

/** Index just past the character class starting at i. */
function classEnd(s: string, i: number): number {
  let k = i + 1;
  if (s[k] === "^") k++;
  if (s[k] === "]") k++;
  while (k < s.length && s[k] !== "]") k += s[k] === "\\" ? 2 : 1;
  return k + 1;
}
