// Page set-up for the webview tests: the real bundle and stylesheet in the host's HTML
// template under the host's CSP, a stub acquireVsCodeApi, and a fake host. A test body is
// its steps and asserts inside `explore(browser(), host, [opts,] async ({ page, seen }) => ...)`,
// which closes the page and keeps a screenshot of a failure; runner.mjs runs the tests.
import { build } from "esbuild";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { THEMES } from "./themes.mjs";
import { connect } from "./fake-host.mjs";
import { WAIT_SCALE } from "../../scripts/e2e/waits.mjs";
import { NotRun, afterThisTest, currentTest } from "./runner.mjs";

export const ROOT = new URL("../../", import.meta.url).pathname;
export const ARTIFACTS = join(ROOT, "test-artifacts/webview");
/** Where explore() saves the page of a test that failed; emptied at the start of a run. */
export const FAILURES = join(ARTIFACTS, "failures");

/** Bundles a TS module of the webview for Node so pure parts can be tested directly. */
export async function importTs(entry) {
  const out = await build({ entryPoints: [join(ROOT, entry)], bundle: true, format: "esm", platform: "neutral", write: false, logLevel: "silent" });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
}

let pageFile;
/** Writes the page built by webview/html-template.ts with file: URLs for the assets. */
export async function writePage({ file } = {}) {
  const { explorerHtml } = await importTs("webview/html-template.ts");
  mkdirSync(ARTIFACTS, { recursive: true });
  const url = (p) => pathToFileURL(join(ROOT, p)).href;
  const html = explorerHtml({
    cspSource: "file:",
    nonce: "XYZ0123456789abcdefXYZ",
    scriptUri: url("dist/webview/main.js"),
    styleUri: url("media/explorer.css"),
    codiconUri: url("node_modules/@vscode/codicons/dist/codicon.css"),
    file,
  });
  const out = join(ARTIFACTS, file === undefined ? "explorer.html" : "explorer-with-file.html");
  writeFileSync(out, html);
  // The page every test opens is the plain one; a page for a file is opened by passing it.
  if (file === undefined) pageFile = out;
  return { html, path: out };
}

/** Opens the explorer on a fake host. Returns the page and what it observed. */
export async function openExplorer(browser, host, { theme = "dark", state = null, viewport = { width: 1200, height: 760 }, delayMs = 0, waitForRows = true, pagePath } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const seen = { errors: [], dialogs: [], requests: [] };
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") seen.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => seen.errors.push(`pageerror: ${e.message}`));
  page.on("dialog", (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("request", (r) => seen.requests.push(r.url()));
  const t = THEMES[theme];
  await page.addInitScript(
    ({ state, vars, bodyClass }) => {
      window.__posted = [];
      window.__csp = [];
      let saved = state;
      window.acquireVsCodeApi = () => ({
        postMessage: (m) => {
          window.__posted.push(JSON.parse(JSON.stringify(m)));
          void window.__toHost(m);
        },
        getState: () => saved,
        setState: (s) => {
          saved = s;
          window.__savedState = JSON.parse(JSON.stringify(s));
        },
      });
      // VS Code sets its theme variables on <html> through the CSSOM before any script runs.
      const apply = () => {
        for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      };
      if (document.documentElement) apply();
      else
        new MutationObserver((_, obs) => {
          if (!document.documentElement) return;
          obs.disconnect();
          apply();
        }).observe(document, { childList: true });
      document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
      document.addEventListener("DOMContentLoaded", () => document.body.classList.add(...[bodyClass].flat()));
    },
    { state, vars: t.vars, bodyClass: t.bodyClass },
  );
  await connect(page, host, { delayMs });
  await page.goto(pathToFileURL(pagePath ?? pageFile).href);
  if (waitForRows) await page.waitForSelector(".row[data-id]", { timeout: 10_000 });
  return { page, context, seen, close: () => context.close() };
}

/**
 * Opens the explorer on `host`, runs `body({ page, seen, context, host })`, and closes the
 * page whatever happens. When body throws, the page as it was is saved to
 * test-artifacts/webview/failures/<test name>.png first. `opts` are openExplorer's.
 */
export async function explore(browser, host, opts, body) {
  if (typeof opts === "function") [opts, body] = [{}, opts];
  const x = await openExplorer(browser, host, opts);
  try {
    return await body({ page: x.page, seen: x.seen, context: x.context, host });
  } catch (err) {
    const file = join(FAILURES, `${(currentTest() ?? "test").replace(/[^\w.-]+/g, "-").slice(0, 80)}.png`);
    mkdirSync(FAILURES, { recursive: true });
    await x.page.screenshot({ path: file }).then(
      () => console.log(`      (the page when it failed: ${file})`),
      () => undefined,
    );
    throw err;
  } finally {
    await x.close();
  }
}

/** The real core behind a fake transport (out/test-webview/real-host.js, built by esbuild.mjs). */
export function realCore() {
  return createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
}

/** A host serving `file` through the real core. */
export function realHost(file) {
  return realCore().createRealHost(file);
}

/** The pi fixtures (ASE_FIXTURES, else ../shared/fixtures/pi). */
export const FIXTURES = process.env.ASE_FIXTURES ?? join(ROOT, "..", "shared", "fixtures", "pi");

/** A real fixture's path; missing, the test is not run (and fails in CI, where it must be). */
export function realFixture(file) {
  if (existsSync(file)) return file;
  if (process.env.CI) throw new Error(`real fixture missing: ${file}`);
  throw new NotRun(`real fixture not found at ${file}`);
}

/** A new temp dir, removed after the running test. */
export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterThisTest(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Waits until the detail pane shows entry `id` (within `until`'s budget unless given). */
export function detailsShown(page, id, what = `detail ${id}`, timeout) {
  return until(() => page.$eval(".detail-pane", (d, id) => d.dataset.id === id, id), what, timeout);
}

/** Picks an option of the filter select by its text. */
export async function pickFilter(page, text) {
  await page.click("vscode-single-select.filter");
  await page.locator("vscode-single-select.filter li.option", { hasText: text }).click();
}

/** Types a query into the search field and presses Enter. */
export async function searchFor(page, query) {
  const input = page.locator(".search vscode-textfield input");
  await input.fill(query);
  await input.press("Enter");
  return input;
}

/**
 * Polls until fn returns a truthy value. The budget (15 s unless given) is scaled by
 * ASE_E2E_WAIT_SCALE like every e2e wait: a page under two busy cores took over 5 s
 * to scroll a million rows to a search hit.
 */
export async function until(fn, what = "condition", timeout = 15_000) {
  const budgetMs = Math.round(timeout * WAIT_SCALE);
  const end = Date.now() + budgetMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${budgetMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits for a message the webview posted after index `from` that matches. */
export function posted(host, from, pred, what) {
  return until(() => host.log.slice(from).find(pred), what ?? "a posted message");
}

/** Ids of the rows in the DOM, top to bottom. */
export function rowIds(page) {
  return page.$$eval(".row[data-id]", (rows) => rows.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index)).map((r) => r.dataset.id));
}
