import type { PageFirst } from "../src/core/export/html-data";
import type { HostToWebview, WebviewToHost } from "../src/protocol";

interface Host {
  receive(m: WebviewToHost): void;
}

/**
 * An exported page's host while the browser still reads its index (megabytes on a large
 * session): the webview's ready and its first rows are answered from the first screen the
 * export wrote before the script (PageFirst, what the page's own host answers once it has
 * the index); anything else waits for that host, then goes to it in order.
 */
export class FirstScreenHost implements Host {
  private host: Host | undefined;
  private readonly waiting: WebviewToHost[] = [];

  constructor(
    private readonly first: PageFirst,
    private readonly send: (m: HostToWebview) => void,
  ) {}

  receive(m: WebviewToHost): void {
    if (this.host) return this.host.receive(m);
    if (m.type === "ready") return this.send(this.first.init);
    if (m.type === "rows") {
      const { rows, init } = this.first;
      const end = Math.min(m.start + m.count, init.rowCount);
      if (end <= rows.length) return this.send({ type: "reply", requestId: m.requestId, ok: true, result: { start: m.start, rows: rows.slice(m.start, end), rowCount: init.rowCount } });
    }
    this.waiting.push(m);
  }

  /** The page's own host, its index parsed: it answers what waited, then everything. */
  attach(host: Host): void {
    this.host = host;
    for (const m of this.waiting.splice(0)) host.receive(m);
  }
}

/**
 * Whether the parser is past element `id` (something follows it, or the page is parsed):
 * before that its text may still be growing.
 */
export function parsedPast(id: string): boolean {
  return document.readyState !== "loading" || document.getElementById(id)?.nextSibling != null;
}

/**
 * Runs `then` once the element `id` is whole (the parser has put something after it, or
 * the page is parsed) and the first screen has had a frame to paint: the index is parsed
 * after the first rows show, not before. A hidden tab paints no frame: a timer stands in.
 */
export function afterElementRead(id: string, then: () => void): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    let ran = false;
    const run = () => {
      if (ran) return;
      ran = true;
      then();
    };
    requestAnimationFrame(() => setTimeout(run, 0));
    setTimeout(run, 1000);
  };
  const read = () => parsedPast(id);
  if (read()) return start();
  const watch = new MutationObserver(() => {
    if (!read()) return;
    watch.disconnect();
    start();
  });
  watch.observe(document.body, { childList: true });
  document.addEventListener("DOMContentLoaded", start, { once: true });
}
