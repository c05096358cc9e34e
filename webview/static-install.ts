import "./elements";
import { FIRST_SCRIPT_ID, INDEX_SCRIPT_ID, type PageFirst, type PageIndex } from "../src/core/export/html-data";
import { StaticHost } from "../src/explorer/page-host";
import type { HostToWebview, WebviewToHost } from "../src/protocol";
import { afterElementRead, FirstScreenHost, parsedPast } from "./first-screen";
import { staticApi } from "./static-host";
import type { VsCodeApi } from "./vscode-api";

// An exported page (src/core/export/html.ts): before the explorer's main.ts runs, the VS
// Code API it asks for is given over the page's own data, the theme follows the reader's
// system, and the page's address names the selected entry (#entry-id opens and selects it).

declare global {
  interface Window {
    acquireVsCodeApi(): VsCodeApi;
  }
}

/**
 * A data script's text, once the parser is past it: while the page is still read, the
 * element exists as soon as its start tag is parsed and its text grows after (a details
 * chunk read then is cut JSON). Until something follows it, it counts as not there yet,
 * and the host waits for the page to be parsed.
 */
const text = (id: string) => {
  const el = document.getElementById(id);
  if (!el || !parsedPast(id)) return undefined;
  return el.textContent ?? undefined;
};
// The first screen is here now; the index, after this script, is parsed once read (afterElementRead).
const first = JSON.parse(text(FIRST_SCRIPT_ID) ?? "null") as PageFirst;

const dark = window.matchMedia("(prefers-color-scheme: dark)");
const theme = () => {
  document.body.classList.toggle("vscode-dark", dark.matches);
  document.body.classList.toggle("vscode-light", !dark.matches);
};
theme();
dark.addEventListener("change", theme);

/**
 * The codicon rules for the elements' shadow roots. In VS Code each icon links the
 * codicon stylesheet by its URL; the page has no URL to give (the CSS is inline and the
 * CSP loads nothing), so the icon class adopts the page's codicon rules instead.
 */
function adoptCodicons(): void {
  const icon = customElements.get("vscode-icon") as unknown as { elementStyles?: unknown[] } | undefined;
  const own = document.getElementById("vscode-codicon-stylesheet");
  if (!icon?.elementStyles || !(own instanceof HTMLStyleElement) || !own.sheet) return;
  const rules = Array.from(own.sheet.cssRules).filter((r) => r instanceof CSSStyleRule && r.selectorText.includes(".codicon"));
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rules.map((r) => r.cssText).join("\n"));
  icon.elementStyles.push(sheet);
}
adoptCodicons();

/** The entry the address names, if any. */
function hashId(): string | undefined {
  const h = window.location.hash.slice(1);
  if (!h) return undefined;
  try {
    return decodeURIComponent(h);
  } catch {
    return h;
  }
}

let shown: string | undefined;
/** Keeps the address on the selected entry, so it can be copied as a link to it. */
function follow(id: string): void {
  shown = id;
  const hash = `#${encodeURIComponent(id)}`;
  if (window.location.hash !== hash) window.history.replaceState(null, "", hash);
}

/** The page parsed to its end (the details blocks follow this script). */
const parsed = new Promise<void>((resolve) => document.addEventListener("DOMContentLoaded", () => resolve(), { once: true }));

const api = staticApi((send) => {
  const out = (m: HostToWebview) => {
    send(m);
    if (m.type === "init") {
      const id = hashId();
      if (id) send({ type: "showEntry", id });
    }
  };
  const early = new FirstScreenHost(first, out);
  afterElementRead(INDEX_SCRIPT_ID, () => {
    const index = JSON.parse(text(INDEX_SCRIPT_ID) ?? "null") as PageIndex;
    early.attach(new StaticHost(index, text, out, () => (document.readyState === "loading" ? parsed : undefined)));
  });
  return {
    receive(m: WebviewToHost) {
      early.receive(m);
      if (m.type === "select" || m.type === "reveal") follow(m.id);
    },
  };
});
window.acquireVsCodeApi = () => api;

window.addEventListener("hashchange", () => {
  const id = hashId();
  if (id && id !== shown) window.dispatchEvent(new MessageEvent("message", { data: { type: "showEntry", id } }));
});
