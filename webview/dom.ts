/**
 * Tiny DOM helpers. Session text only ever reaches the page through `text()` /
 * textContent, never through HTML parsing, so markup in a session stays inert.
 */

export interface ElOptions {
  className?: string;
  text?: string;
  attrs?: Record<string, string>;
  title?: string;
}

/** Creates an element; `text` is set as textContent (shown literally). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, opts: ElOptions = {}, children: Node[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (opts.className) node.className = opts.className;
  if (opts.text !== undefined) node.textContent = visible(opts.text);
  if (opts.title !== undefined) node.title = visible(opts.title);
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

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * Makes control characters visible (ESC shows as ␛) so ANSI escapes in tool output
 * appear literally instead of vanishing; newlines and tabs are kept.
 */
export function visible(text: string): string {
  return text.replace(CONTROL, (c) => (c === "\u007f" ? "\u2421" : String.fromCharCode(0x2400 + c.charCodeAt(0))));
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
