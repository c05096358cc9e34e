// Webview tests of moving through the tree by keyboard.
import assert from "node:assert/strict";
import { TreeHost } from "./fake-host.mjs";
import { detailsShown, explore, posted, rowIds, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function keyboardTests(test, browser) {
  test("keyboard: arrows, PageUp/Down, Home/End move the selection with ARIA; Enter asks for details", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, { viewport: { width: 1200, height: 420 } }, async ({ page }) => {
      await page.focus("[role=tree]");
      const selectedId = () => page.$eval("[role=tree]", (t) => document.getElementById(t.getAttribute("aria-activedescendant") ?? "")?.dataset.id ?? null);
      let mark = host.log.length;
      await page.keyboard.press("Home");
      await until(async () => (await selectedId()) === "u1", "Home selects u1");
      await posted(host, mark, (m) => m.type === "select" && m.id === "u1", "select u1");
      mark = host.log.length;
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      await until(async () => (await selectedId()) === "t1", "two down: t1");
      await posted(host, mark, (m) => m.type === "select" && m.id === "t1", "select t1");
      assert.equal(await page.getAttribute(".row[data-id=t1]", "aria-selected"), "true");
      assert.equal(await page.getAttribute(".row[data-id=u1]", "aria-selected"), "false");
      await page.keyboard.press("ArrowUp");
      await until(async () => (await selectedId()) === "a1", "up: a1");
      await page.keyboard.press("End");
      await until(async () => (await selectedId()) === "a9", "End: a9");
      await page.keyboard.press("PageUp");
      // Wait for the move itself: the selection is still a9 until the key is handled.
      const afterPageUp = await until(async () => {
        const id = await selectedId();
        return id && id !== "a9" ? id : undefined;
      }, "page up");
      const rows = (await rowIds(page));
      assert.ok(afterPageUp !== "a9", "PageUp moved");
      mark = host.log.length;
      await page.keyboard.press("Enter");
      const d = await posted(host, mark, (m) => m.type === "details", "Enter -> details");
      assert.equal(d.id, afterPageUp);
      await page.keyboard.press("PageDown");
      await until(async () => (await selectedId()) === "a9", "PageDown back to the end");
      assert.ok(rows.length > 0);
    });
  });

  test("details follow the keyboard: End shows the last row's details, and Compare/Fork act on it; details are in view", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, { viewport: { width: 1200, height: 760 } }, async ({ page, seen }) => {
      await page.click(".row[data-id=u1] .preview");
      await detailsShown(page, "u1", "details of u1");
      await page.focus("[role=tree]");
      await page.keyboard.press("End");
      const last = (await rowIds(page)).at(-1);
      await until(() => page.$eval(".detail-pane", (d) => d.dataset.id).then((id) => id === last), `details follow End to ${last}`, 20_000);
      let mark = host.log.length;
      await page.click(".detail-pane vscode-button[data-action=compareContext]");
      const compare = await posted(host, mark, (m) => m.type === "action" && m.action === "compareContext", "compare");
      assert.equal(compare.id, last);
      mark = host.log.length;
      await page.focus("[role=tree]");
      await page.keyboard.press("ArrowUp");
      const above = await until(() => page.$eval(".row.selected", (r) => r.dataset.id).then((id) => (id !== last ? id : undefined)), "moved up");
      await until(() => page.$eval(".detail-pane", (d) => d.dataset.id).then((id) => id === above), "details follow ArrowUp");
      mark = host.log.length;
      await page.click(".detail-pane vscode-button[data-action=fork]");
      assert.equal((await posted(host, mark, (m) => m.type === "action" && m.action === "fork", "fork")).id, above);
      // Visible without scrolling: the details' head and actions sit inside the window.
      const r = await page.$eval(".detail-pane .actions", (a) => ({ bottom: a.getBoundingClientRect().bottom, h: window.innerHeight, scrolled: document.querySelector(".side-pane").scrollTop }));
      assert.equal(r.scrolled, 0);
      assert.ok(r.bottom <= r.h, `the actions end at ${r.bottom} px of ${r.h}`);
      assert.deepEqual(seen.errors, []);
    });
  });
}
