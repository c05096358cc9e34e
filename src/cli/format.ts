import { visibleText } from "../core/util/visible-text";

/** Small text formatting helpers for terminal output. */

export function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export { humanTokens } from "../core/util/human";

export function relativeTime(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86400) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

/**
 * Session text for one line of terminal output: controls (ESC included), bidi overrides,
 * zero-width characters and lone surrogates shown as marks (⟨U+202E⟩), line breaks as
 * `\n`, so a name cannot drive the terminal, reorder the line or forge the next one.
 */
export function safeText(s: string): string {
  return visibleText(s);
}
