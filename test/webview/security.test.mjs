// Webview tests that session text is never markup: the page template, XSS payloads, and a
// hostile session through the real core.
import assert from "node:assert/strict";
import { join } from "node:path";
import { TreeHost } from "./fake-host.mjs";
import { ARTIFACTS, detailsShown, explore, importTs, pickFilter, realCore, realHost, tempDir, until } from "./harness.mjs";
import { XSS, xssSession } from "./sessions.mjs";

/**
 * What session text could have turned into markup, counted in the page, with the page's
 * text; `more` adds a test's own figures.
 */
async function markupIn(page, more) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    scripts: document.querySelectorAll("script").length,
    imgs: document.querySelectorAll("img").length,
    anchors: document.querySelectorAll("a").length,
    styles: document.querySelectorAll("body style").length,
    bolds: document.querySelectorAll("b").length,
    handlers: document.querySelectorAll("[onerror],[onload],[onmouseover],[onclick]").length,
    text: document.body.innerText,
  }));
  return { ...found, ...(await page.evaluate(more)) };
}

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function securityTests(test, browser) {
  test("html template: the host's CSP, nonce on the script, codicon stylesheet id, escaped URIs", async () => {
    const { explorerHtml } = await importTs("webview/html-template.ts");
    const html = explorerHtml({ cspSource: "vscode-resource:", nonce: "abcdefABCDEF0123456789", scriptUri: `x"><script>alert(1)</script>`, styleUri: "s.css", codiconUri: "c.css" });
    assert.match(html, /content="default-src 'none'; img-src data: vscode-resource:; style-src vscode-resource:; font-src vscode-resource:; script-src 'nonce-abcdefABCDEF0123456789'"/);
    assert.match(html, /<link rel="stylesheet" id="vscode-codicon-stylesheet" href="c.css">/);
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.doesNotMatch(html, /\son\w+=/);
    assert.throws(() => explorerHtml({ cspSource: "x", nonce: "short", scriptUri: "a", styleUri: "b", codiconUri: "c" }));
    // The session file rides on the body, escaped: a file name is session content too.
    const withFile = explorerHtml({ cspSource: "x", nonce: "abcdefABCDEF0123456789", scriptUri: "a", styleUri: "b", codiconUri: "c", file: `/s/a"><script>alert(1)</script>.jsonl` });
    assert.match(withFile, /<body data-session-file="\/s\/a&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;\.jsonl">/);
    assert.equal((withFile.match(/<script/g) ?? []).length, 1);
  }, { needsBrowser: false });

  test("XSS payloads stay inert and show literally (rows, labels, details, files, notices, title)", async () => {
    const host = new TreeHost(xssSession());
    await explore(browser(), host, async ({ page, seen }) => {
      await pickFilter(page, "All entries");
      for (const id of ["x1", "x2", "x3", "x4", "x5", "x6"]) {
        await page.click(`.row[data-id=${id}] .preview`);
        await detailsShown(page, id);
        await page.hover(`.row[data-id=${id}] .preview`);
        await page.hover(".detail-pane");
      }
      await host.send({ type: "notice", level: "warning", text: XSS.script + XSS.img });
      await page.waitForSelector(".notice");
      await page.waitForTimeout(200);
      const dom = await markupIn(page, () => ({
        bodyShown: getComputedStyle(document.body).display,
        titles: [...document.querySelectorAll("[title]")].map((e) => e.getAttribute("title")).join("\n"),
      }));
      assert.equal(dom.pwned, undefined);
      assert.deepEqual(seen.dialogs, []);
      assert.equal(dom.scripts, 1);
      assert.equal(dom.imgs, 0);
      assert.equal(dom.anchors, 0);
      assert.equal(dom.styles, 0);
      assert.equal(dom.handlers, 0);
      assert.notEqual(dom.bodyShown, "none");
      for (const p of [XSS.script, XSS.img, XSS.link, XSS.anchor, XSS.style]) assert.ok(dom.text.includes(p), `literal: ${p}`);
      assert.ok(dom.text.includes("⟨U+001B⟩[31mRED⟨U+001B⟩[0m"), "ANSI escape shown as a mark");
      assert.ok(dom.titles.includes(XSS.script), "path in a title attribute, as text");
      assert.ok(dom.titles.includes(`of ${XSS.img} (set agentSessions.modelPrices`), "an unpriced model's name in the cost tooltip, as text");
      await page.click(".row[data-id=x3] .preview");
      await detailsShown(page, "x3");
      assert.equal(await page.locator(".detail-pane .warning").count(), 1, "javascript: image refused");
      assert.equal(await page.locator("img").count(), 0);
      assert.equal(await page.locator(".file-list span.file", { hasText: "javascript:" }).count(), 1);
      assert.deepEqual(await page.evaluate(() => window.__csp), []);
    });
  });

  test("a hostile session through the real core: markup inert and literal, bidi/ANSI/NUL marked everywhere, a 1 MB line and label stay responsive", async () => {
    const { writeHostileSession, HOSTILE, MARKS, RAW_HIDDEN } = realCore();
    const dir = tempDir("ase-webview-hostile-");
    const { file, ids } = writeHostileSession(dir);
    const host = await realHost(file);
    await explore(browser(), host, async ({ page, seen }) => {
      await pickFilter(page, "All entries");
      await until(() => page.locator(`.row[data-id='${ids.custom}']`).count(), "the custom entry's row");
      // Every row's details, each shown within the harness's wait: the 1 MB entry too.
      for (const id of [ids.first, ids.tool, ids.custom, ids.big, ids.leaf, ids.first, ids.side]) {
        await page.click(`.row[data-id='${id}'] .preview`);
        await detailsShown(page, id, `details of ${id}`);
        await page.hover(`.row[data-id='${id}'] .preview`);
      }
      // The selected side branch's leaf carries the hostile label: its bar is titled with it.
      await until(() => page.$$eval(".bar-title", (t) => t.some((e) => e.textContent.includes("Selected branch"))), "the selected branch's bar");
      await page.hover(".token-bar .bar-title >> nth=1");
      // A notice built in the page keeps its lone surrogate (the transport would not).
      await page.evaluate(() => window.postMessage({ type: "notice", level: "warning", text: `notice lone\uD800x <b onmouseover="window.__pwned=9">b</b> \u202E` }, "*"));
      await page.waitForSelector(".notice");
      const dom = await markupIn(page, () => ({
        attrs: [...document.querySelectorAll("*")].flatMap((e) => ["title", "aria-label", "alt"].map((a) => e.getAttribute(a) ?? "")).join("\n"),
        title: document.querySelector(".session-title").textContent,
        subtitle: document.querySelector(".session-sub").textContent,
        labelChip: document.querySelector(`.row[data-id='00000001'] .label-chip`).textContent,
        bigChip: document.querySelector(`.row[data-id='00000007'] .label-chip`).textContent,
        barTitles: [...document.querySelectorAll(".bar-title")].map((e) => e.textContent).join("\n"),
      }));
      assert.equal(dom.pwned, undefined);
      assert.deepEqual(seen.dialogs, []);
      assert.equal(dom.scripts, 1, "no <script> from content");
      assert.equal(dom.imgs, 0, "no <img> from content");
      assert.equal(dom.bolds, 0, "no <b> from content");
      assert.equal(dom.handlers, 0);
      for (const lit of [HOSTILE.html, HOSTILE.script]) assert.ok(dom.text.includes(lit), `literal: ${lit}`);
      const raw = RAW_HIDDEN.exec(dom.text) ?? RAW_HIDDEN.exec(dom.attrs);
      assert.equal(raw, null, `a raw hidden character in the page: U+${raw?.[0].charCodeAt(0).toString(16)}`);
      assert.equal(dom.title, `invoice${MARKS.rlo}fdp.exe ${HOSTILE.html} ${MARKS.esc}[31mRED${MARKS.esc}[0m${MARKS.esc}]0;pwned-title${MARKS.bel}`);
      assert.match(dom.subtitle, /^pi · \/home\/ana\/⟨U\+202E⟩gnp\.js · v3$/);
      assert.equal(dom.labelChip, `${HOSTILE.html}ok\\n◉ 99999999 user: forged rowa${MARKS.nul}blone${MARKS.lone}x${MARKS.rlo}`, "the label chip: one line, marked");
      assert.ok(dom.bigChip.length <= 120 + 8 && dom.bigChip.startsWith(`${MARKS.rlo}big label yyy`) && dom.bigChip.endsWith("…"), `the megabyte label is cut in its chip: ${dom.bigChip.length} chars`);
      assert.ok(dom.barTitles.includes(`Selected branch [${HOSTILE.html}ok\\n◉ 99999999`), dom.barTitles);
      for (const m of [MARKS.rlo, MARKS.esc, MARKS.nul, MARKS.lone, MARKS.bel]) assert.ok(dom.text.includes(m), `mark shown: ${m}`);
      assert.ok(dom.text.includes(`notice lone${MARKS.lone}x <b onmouseover`), "the notice's markup and lone surrogate, literal");
      // The file read along the leaf's path: its name marked in the file list.
      await page.click(`.row[data-id='${ids.leaf}'] .preview`);
      await until(() => page.textContent(".file-list").then((t) => t.includes(`src/${MARKS.rlo}txt.jsa${MARKS.nul}b`)), "the hostile file path, marked");
      // The tool call's name and the custom type, in the details' block titles and rows.
      await page.click(`.row[data-id='${ids.tool}'] .preview`);
      await detailsShown(page, ids.tool, "tool result details");
      assert.ok((await page.textContent(".detail-pane")).includes(`read${HOSTILE.script}${MARKS.rlo}`));
      // The 1 MB message: cut for display, then shown whole on request; the page still answers.
      await page.click(`.row[data-id='${ids.big}'] .preview`);
      const more = page.locator(".detail-pane vscode-button[data-show-all]");
      await more.first().waitFor();
      await more.first().click();
      await until(() => page.$$eval(".detail-pane pre", (ps, n) => ps.some((p) => p.textContent.length > n), 1024 * 1024), "the whole megabyte line shown", 20_000);
      await page.click(`.row[data-id='${ids.leaf}'] .preview`);
      await detailsShown(page, ids.leaf, "a selection after the megabyte line", 10_000);
      await page.keyboard.press("ArrowUp");
      await until(() => page.$eval(".row.selected", (r) => r.dataset.id !== "00000009").catch(() => false), "the keyboard still moves the selection", 10_000);
      assert.deepEqual(seen.errors, []);
      assert.deepEqual(await page.evaluate(() => window.__csp), []);
      await page.screenshot({ path: join(ARTIFACTS, "hostile-session.png") });
    });
  });
}
