/**
 * Tiny DOM helpers. Session text only ever reaches the page through `text()` /
 * textContent, never through HTML parsing, so markup in a session stays inert; and
 * through `visible()`, so hidden characters (bidi overrides, ESC, NUL, zero-width
 * ones) show as marks like ⟨U+202E⟩ instead of reordering or hiding what follows.
 */
import { clipText, visibleText } from "../src/core/util/visible-text";

export interface ElOptions {
  className?: string;
  /** Shown literally, hidden characters marked (see visible). */
  text?: string;
  /** Set as is: only for attributes whose value is ours, never session text. */
  attrs?: Record<string, string>;
  /** A tooltip, shown like `text` and cut to TITLE_MAX characters. */
  title?: string;
}

/** Tooltips longer than this are cut: a megabyte label would make every hover slow. */
export const TITLE_MAX = 2000;

/** Creates an element; `text` is set as textContent (shown literally). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, opts: ElOptions = {}, children: Node[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (opts.className) node.className = opts.className;
  if (opts.text !== undefined) node.textContent = visible(opts.text);
  if (opts.title !== undefined) node.title = visible(clipText(opts.title, TITLE_MAX));
  if (opts.attrs) for (const [k, v] of Object.entries(opts.attrs)) node.setAttribute(k, v);
  for (const c of children) node.appendChild(c);
  return node;
}

/** Creates a custom element (the @vscode-elements controls) with attributes. */
export function custom<T extends HTMLElement = HTMLElement>(tag: string, attrs: Record<string, string> = {}, children: Node[] = []): T {
  const node = document.createElement(tag) as T;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.appendChild(c);
  return node;
}

/** A codicon glyph; decorative unless a label is given. */
export function codicon(name: string, label?: string): HTMLSpanElement {
  const span = el("span", { className: `codicon codicon-${name}` });
  if (label) {
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", label);
  } else {
    span.setAttribute("aria-hidden", "true");
  }
  return span;
}

/**
 * Session text as shown: controls (ESC of ANSI codes, NUL), bidi controls, zero-width
 * characters and lone surrogates become marks such as ⟨U+001B⟩; newlines and tabs are
 * kept (CSS decides whether a view shows several lines). The same helper as the CLI's.
 */
export function visible(text: string): string {
  return visibleText(text, "keep");
}

/** At most `max` characters, ending in "…" when cut (for one-line places; el() marks them). */
export const clip = clipText;

/**
 * Session text for a one-line place (a chip, a name, an aria-label): cut to `max`,
 * marked, and its line breaks shown as `\n` (as the CLI does) rather than folded away.
 */
export function oneLine(text: string, max: number): string {
  return visibleText(clipText(text, max), "escape");
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

const NUM = new Intl.NumberFormat("en-US");

/** 12345 -> "12.3k"; small numbers as is. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

export function formatInt(n: number): string {
  return NUM.format(n);
}
