// The exported HTML page (src/core/export/html.ts) in headless Chromium, opened from
// file:// with every request routed and refused: the demo session and a hostile one. The
// page must fetch nothing, log no error, break no CSP rule, show hostile text as text, and
// show what the explorer shows (tree, boundaries, details, bars, chart, files, search,
// #entry-id). Screenshots go to test-artifacts/export/.
import { strict as assert } from "node:assert";
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateDemo } from "../../scripts/demo/generate-demo.mjs";
import { ROOT, realCore, rowIds, tempDir, until } from "./harness.mjs";
import { writeSubagentSession } from "./subagents.test.mjs";

const SHOTS = join(ROOT, "test-artifacts", "export");

/** Opens an exported page with the network closed; returns the page and what it saw. */
async function openPage(browser, file, { hash = "", colorScheme = "dark", viewport = { width: 1280, height: 800 } } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme });
  const seen = { errors: [], requests: [], routed: [], csp: [] };
  const url = pathToFileURL(file).href;
  // Every request but the page's own file is refused and counted (data: URLs are no request).
  await context.route("**/*", (route) => {
    if (route.request().url().split("#")[0] === url) return route.continue();
    seen.routed.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on("request", (r) => {
    if (!r.url().startsWith(url) && !r.url().startsWith("data:")) seen.requests.push(r.url());
  });
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") seen.errors.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => seen.errors.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url + hash);
  await page.waitForSelector(".row[data-id]", { timeout: 20_000 });
  return { page, seen, close: () => context.close() };
}

/** Nothing fetched, nothing refused by the CSP, nothing logged as an error. */
async function assertClean(page, seen) {
  seen.csp = await page.evaluate(() => window.__csp);
  assert.deepEqual(seen.requests, [], "the page made requests");
  assert.deepEqual(seen.routed, [], "requests refused by the route");
  assert.deepEqual(seen.csp, [], "CSP violations");
  assert.deepEqual(seen.errors, [], "console errors");
}

const detailId = (page) => page.$eval(".detail-pane", (d) => d.dataset.id ?? "");

export function exportPageTests(test, browser) {
  test("export page: the demo session offline, every view of the explorer, #entry-id and search", async () => {
    const dir = tempDir("ase-export-demo-");
    const demo = generateDemo(dir, { large: false });
    const { exportHtmlPage } = realCore();
    const file = join(dir, "demo.html");
    await exportHtmlPage(demo.rich, file);
    mkdirSync(SHOTS, { recursive: true });
    const x = await openPage(browser(), file);
    try {
      const { page, seen } = x;
      // The tree, its header, the bars, the chart, the files.
      assert.match(await page.textContent(".session-title"), /CSV export for the rainfall report/);
      assert.ok((await page.$$(".row[data-id]")).length > 5, "rows");
      await until(() => page.$(".token-bars .bar-track"), "a token bar");
      await until(() => page.$(".timeline svg"), "the context growth chart");
      // Compaction boundaries: the demo's compaction marks what it summarized and what it kept.
      const marks = await page.$$eval(".row[data-id]", (rows) => rows.map((r) => r.className).join(" "));
      assert.match(marks, /boundary-summarized|boundary-kept-start/, "a compaction boundary mark");
      // Details with a tool call: select a tool row and see its blocks.
      const toolRow = await page.$(".row[data-id].kind-tool-call");
      const rows = await page.$$(".row[data-id]");
      await (toolRow ?? rows[2]).click();
      const picked = await (toolRow ?? rows[2]).getAttribute("data-id");
      await until(async () => (await detailId(page)) === picked, "the details of the clicked row");
      assert.ok((await page.$$(".detail-pane pre")).length > 0, "detail blocks");
      // The address names the selected entry.
      await until(async () => (await page.evaluate(() => window.location.hash)) === `#${encodeURIComponent(picked)}`, "the hash to follow the selection");
      await until(() => page.$(".file-list .file-path"), "the files of the path");
      await page.screenshot({ path: join(SHOTS, "demo-dark.png") });

      // Search within the page.
      const input = page.locator(".search vscode-textfield input");
      await input.fill("rainfall");
      await input.press("Enter");
      await until(() => page.$(".row.match"), "a search hit marked");

      await assertClean(page, seen);
    } finally {
      await x.close();
    }

    // #entry-id opens the page on that entry, selected, its details shown.
    const { createRealHost } = realCore();
    const host = await createRealHost(demo.rich);
    const ids = host.session.metas.map((m) => m.id);
    const target = ids[Math.floor(ids.length / 2)];
    const y = await openPage(browser(), file, { hash: `#${encodeURIComponent(target)}`, colorScheme: "light" });
    try {
      await until(async () => (await detailId(y.page)) === target, `details of #${target}`);
      await until(() => y.page.$(`.row.selected[data-id="${target}"]`), "the entry's row selected");
      await y.page.screenshot({ path: join(SHOTS, "demo-light.png") });
      await assertClean(y.page, y.seen);
    } finally {
      await y.close();
    }
  });

  test("export page: a hostile session's text is shown as text, nothing injected, nothing fetched", async () => {
    const dir = tempDir("ase-export-hostile-");
    const { writeHostileSession, HOSTILE, MARKS } = realCore();
    const { file: session, ids } = writeHostileSession(dir);
    const { exportHtmlPage } = realCore();
    const file = join(dir, "hostile.html");
    await exportHtmlPage(session, file);
    const x = await openPage(browser(), file, { hash: `#${ids.first}` });
    try {
      const { page, seen } = x;
      await until(async () => (await detailId(page)) === ids.first, "the hostile entry's details");
      const text = await page.textContent(".detail-pane");
      assert.ok(text.includes("<img src=x onerror="), "the HTML is shown as text");
      assert.ok(text.includes("<script>window.__pwned=2</script>"), "the script tag is shown as text");
      assert.ok(text.includes(MARKS.rlo), "hidden characters are marked");
      assert.equal(await page.evaluate(() => window.__pwned), undefined);
      assert.equal(await page.$$eval("img[src='x'], script:not([type]):not([src])", (e) => e.length), 1, "only the page's own script");
      void HOSTILE;
      // The megabyte entry opens too (cut for display, the rest behind Show all).
      await page.evaluate((id) => {
        window.location.hash = `#${id}`;
      }, ids.big);
      await until(async () => (await detailId(page)) === ids.big, "the megabyte entry's details");
      // Its cut text is rebuilt from the whole one the page carries once.
      assert.ok((await page.textContent(".detail-pane pre")).includes("x".repeat(1000)), "the cut text is shown");
      await page.screenshot({ path: join(SHOTS, "hostile.png") });
      await assertClean(page, seen);
    } finally {
      await x.close();
    }
  });

  test("export page: a sub-agent expands under the call that started it, as in the explorer; its transcript is in the page, redacted", async () => {
    const dir = tempDir("ase-export-subagents-");
    const session = writeSubagentSession(dir);
    // The sub-agent's last line says a token: the page must carry it redacted.
    const agentFile = join(dir, session.split("/").pop().replace(/\.jsonl$/, ""), "subagents", "agent-sub1.jsonl");
    const last = JSON.parse(readFileSync(agentFile, "utf8").trim().split("\n").pop());
    const token = "ghp_R8x2Kq7Lm4Np9Tz3Vb6Wc1Yd5Fh0Jg8Sa2Ue";
    const said = { ...last, uuid: "s5", parentUuid: "s4", message: { ...last.message, id: "msg_s5", content: [{ type: "text", text: `the token is ${token}` }] } };
    appendFileSync(agentFile, `${JSON.stringify(said)}\n`);
    const { exportHtmlPage } = realCore();
    const file = join(dir, "subagents.html");
    await exportHtmlPage(session, file, { redact: true });
    assert.ok(!readFileSync(file, "utf8").includes(token), "the sub-agent's token is not in the page");
    const x = await openPage(browser(), file);
    try {
      const { page, seen } = x;
      const call = ".row[data-id=a1]";
      await until(() => page.$(`${call} .subagent-chip`), "the call's sub-agent cue");
      assert.equal(await page.getAttribute(call, "aria-expanded"), "false", "collapsed at first");
      assert.deepEqual(await rowIds(page), ["u1", "a1", "r1", "a2"]);
      await page.click(`${call} .twisty`);
      await until(async () => (await page.locator(".row.nested").count()) === 5, "the sub-agent's five rows nested under its call");
      assert.deepEqual(await rowIds(page), ["u1", "a1", "sub:sub1:s1", "sub:sub1:s2", "sub:sub1:s3", "sub:sub1:s4", "sub:sub1:s5", "r1", "a2"]);
      assert.equal(await page.getAttribute(call, "aria-expanded"), "true");
      assert.match(await page.$eval(`${call} .subagent-chip`, (c) => c.textContent), /^3 steps/, "its figures on the call row");
      const left = (sel) => page.$eval(sel, (n) => n.getBoundingClientRect().left);
      assert.ok((await left(".row[data-id='sub:sub1:s2'] .role-icon")) > (await left(`${call} .role-icon`)) + 8, "indented under the call");
      // A nested row's details, from the page.
      await page.click(".row[data-id='sub:sub1:s2'] .preview");
      await until(async () => (await detailId(page)) === "sub:sub1:s2", "the nested row's details");
      assert.match(await page.textContent(".detail-pane"), /Read test\/a\.test\.ts/);
      await page.click(".row[data-id='sub:sub1:s5'] .preview");
      await until(async () => (await detailId(page)) === "sub:sub1:s5", "the last nested row's details");
      const text = await page.textContent(".detail-pane");
      assert.match(text, /the token is \[REDACTED:github-pat\]/);
      assert.ok(!text.includes(token));
      await page.screenshot({ path: join(SHOTS, "subagents.png") });
      // Folded again: the call's rows only.
      await page.click(`${call} .twisty`);
      await until(async () => (await page.locator(".row.nested").count()) === 0, "folded again");
      await assertClean(page, seen);
    } finally {
      await x.close();
    }
  });
}
