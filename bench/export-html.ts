import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The HTML export of a large session (issue 30): the export in a fresh process (time,
 * peak RSS against the session's size, page bytes per MB of session), then the page in
 * headless Chromium from file:// with every request refused: time to its first rows.
 */

const MB = 1024 * 1024;

type Report = (name: string, value: string, target: string, ok: boolean) => void;

interface ExportRun {
  ms: number;
  maxRssBytes: number;
  bytes: number;
  entries: number;
}

function exportChild(self: string, file: string, out: string, format: "html" | "md" | "json" = "html"): ExportRun {
  const r = spawnSync(process.execPath, [join(dirname(self), "export-child.js"), file, out, format], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`export child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop() as string) as ExportRun;
}

/**
 * Milliseconds from navigation to the first tree row, the network closed: `ms` as the page
 * counts it (from its navigation start to the first frame painted with a row in it),
 * `wallMs` as the bench sees it (goto to the row found: Playwright's round trips wait
 * while the page's main thread goes on reading the rest of a 100 MB page).
 */
async function firstRowsMs(page: string): Promise<{ ms: number; wallMs: number; requests: string[] }> {
  // playwright-core is a devDependency, required only here (the bench bundle keeps it external).
  const { chromium } = require("playwright-core") as typeof import("playwright-core");
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const url = pathToFileURL(page).href;
    const requests: string[] = [];
    await context.route("**/*", (route) => {
      if (route.request().url() === url) return route.continue();
      requests.push(route.request().url());
      return route.abort();
    });
    const p = await context.newPage();
    // In the page's own terms (the bench has no DOM types): the first frame after a row exists.
    await p.addInitScript({
      content: `const seen = new MutationObserver(() => {
        if (!document.querySelector(".row[data-id]")) return;
        seen.disconnect();
        requestAnimationFrame(() => (window.__aseFirstRows = performance.now()));
      });
      seen.observe(document, { childList: true, subtree: true });`,
    });
    const t0 = performance.now();
    await p.goto(url, { waitUntil: "commit", timeout: 120_000 });
    await p.waitForSelector(".row[data-id]", { timeout: 120_000 });
    const wallMs = performance.now() - t0;
    await p.waitForFunction("window.__aseFirstRows !== undefined", null, { timeout: 120_000 });
    const ms = (await p.evaluate("window.__aseFirstRows")) as number;
    return { ms, wallMs, requests };
  } finally {
    await browser.close();
  }
}

export async function benchExportHtml(opts: { self: string; work: string; file: string; report: Report; log(line: string): void }): Promise<void> {
  const size = statSync(opts.file).size;
  const mb = Math.round(size / MB);
  const dir = join(opts.work, "export");
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${mb}mb.html`);
  try {
    const r = exportChild(opts.self, opts.file, out);
    opts.log(`  ${mb} MB session, ${r.entries} entries -> ${(r.bytes / MB).toFixed(1)} MB page (${(r.bytes / size).toFixed(2)} bytes per byte of session)`);
    opts.report(`export HTML ${mb} MB: time`, `${(r.ms / 1000).toFixed(1)} s`, "reported", true);
    const ratio = r.maxRssBytes / size;
    opts.report(`export HTML ${mb} MB: peak RSS`, `${(r.maxRssBytes / MB).toFixed(0)} MB = ${ratio.toFixed(2)}x the file`, "< 2x the file", ratio < 2);
    const page = await firstRowsMs(out);
    // The other formats of the same session, the whole tree each: their peak RSS against the file.
    for (const format of ["md", "json"] as const) {
      const other = join(dir, `${mb}mb.${format}`);
      try {
        const o = exportChild(opts.self, opts.file, other, format);
        const name = format === "md" ? "Markdown" : "JSON";
        opts.report(`export ${name} ${mb} MB: time`, `${(o.ms / 1000).toFixed(1)} s`, "reported", true);
        const ratio = o.maxRssBytes / size;
        opts.report(`export ${name} ${mb} MB: peak RSS`, `${(o.maxRssBytes / MB).toFixed(0)} MB = ${ratio.toFixed(2)}x the file`, "< 2x the file", ratio < 2);
      } finally {
        rmSync(other, { force: true });
      }
    }
    opts.report(`export HTML ${mb} MB: page to first rows painted in Chromium (the page's clock)`, `${Math.round(page.ms)} ms`, "< 2000 ms", page.ms < 2000);
    opts.report(`export HTML ${mb} MB: page to first rows found by Playwright (wall)`, `${Math.round(page.wallMs)} ms`, "reported", true);
    opts.report(`export HTML ${mb} MB: requests the page made`, String(page.requests.length), "0", page.requests.length === 0);
  } finally {
    rmSync(out, { force: true });
  }
}
