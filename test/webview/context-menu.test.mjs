// Webview tests of what VS Code's context menu is told about rows, bars and the session.
import assert from "node:assert/strict";
import { TreeHost } from "./fake-host.mjs";
import { explore, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function contextMenuTests(test, browser) {
  test("VS Code's context menu: each row and bar names its entry (and a boundary says so); the body says which writes the session offers", async () => {
    const data = realisticSession();
    data.session.unavailable = { label: "not here", compact: "not here either" };
    const host = new TreeHost(data);
    await explore(browser(), host, async ({ page, seen }) => {
      const ctx = (sel) => page.$eval(sel, (n) => JSON.parse(n.dataset.vscodeContext));
      assert.deepEqual(await ctx(".row[data-id=a1]"), { webviewSection: "row", entryId: "a1", isBoundary: false, preventDefaultContextMenuItems: true });
      assert.deepEqual(await ctx(".row[data-id=c1]"), { webviewSection: "row", entryId: "c1", isBoundary: true, preventDefaultContextMenuItems: true });
      assert.deepEqual(await ctx(".token-bar[data-leaf=a8]"), { webviewSection: "bar", entryId: "a8", preventDefaultContextMenuItems: true });
      await until(async () => (await page.evaluate(() => document.body.dataset.vscodeContext)) !== undefined, "the body's context");
      const body = await ctx("body");
      assert.deepEqual(body, { sessionPath: data.session.path, offers_fork: true, offers_continue: true, offers_label: false, offers_compact: false });
      assert.deepEqual(seen.errors, []);
    });
  });
}
