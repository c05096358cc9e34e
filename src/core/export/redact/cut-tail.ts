import { entropy } from "./entropy";

/**
 * A text cut for display (a row's preview, a detail block's first part) can end inside a
 * secret, and a cut secret no longer matches its rule ("sk-ant-api03-mof7…" is too short
 * for the Anthropic rule). The whole text is not at hand there, so the cut's last word is
 * judged alone: long, letters mixed with digits, and as random as a key (gitleaks' entropy
 * floor for generic secrets), it is replaced. A cut word of prose is left as it is.
 */
const MIN_CHARS = 12;
const MIN_ENTROPY = 3.5;
const MARKER = "[REDACTED:cut-secret]";

/** The text with a secret-like word at its end (before a trailing ellipsis) replaced; in a path, its last part. */
export function redactCutTail(text: string): string {
  const m = /([^\s"'`=:,;()[\]{}<>/\\]+?)((?:\.\.\.|…)?)$/.exec(text);
  if (!m) return text;
  const word = m[1];
  if (word.length < MIN_CHARS || word.startsWith("[REDACTED:")) return text;
  if (!/[0-9]/.test(word) || !/[A-Za-z]/.test(word) || entropy(word) < MIN_ENTROPY) return text;
  return `${text.slice(0, m.index)}${MARKER}${m[2]}`;
}
