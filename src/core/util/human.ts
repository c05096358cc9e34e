/** A token count for people: 950, 12.3k, 1.25M. */
export function humanTokens(n: number): string {
  if (!Number.isFinite(n)) return "(too large to sum)";
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** US dollars for people: $0.00, <$0.0001, $0.0042 (cents would hide small sums), $1.23, $1,234. */
export function humanUsd(n: number): string {
  // A sum that overflowed is said so, never "$Infinity" (nor "$0.00": it is not nothing).
  if (n === Number.POSITIVE_INFINITY) return "(too large to sum)";
  if (!(n > 0)) return "$0.00";
  if (n < 0.0001) return "<$0.0001";
  if (n < 0.01) return `$${n.toFixed(4)}`;
  if (n < 1000) return `$${n.toFixed(2)}`;
  return `$${Math.round(n).toLocaleString("en-US")}`;
}

/** "a Codex", "an OpenCode": the article a name takes in a sentence (by its first letter, which is right for every agent name we show). */
export function withArticle(name: string): string {
  return `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`;
}
