// Webview tests of the list of files the session read and wrote.
import assert from "node:assert/strict";
import { TreeHost } from "./fake-host.mjs";
import { explore, posted } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function fileListTests(test, browser) {
  test("file list: openable files post openFile; files outside the workspace are not clickable", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      await page.click(".row[data-id=a7]");
      await page.waitForSelector(".file-list button.file.openable");
      const mark = host.log.length;
      await page.click(".file-list button.file >> text=src/cli/commands/list.ts");
      const m = await posted(host, mark, (m) => m.type === "openFile", "openFile");
      assert.deepEqual(m, { type: "openFile", path: "src/cli/commands/list.ts" });
      assert.equal(await page.locator(".file-list button.file", { hasText: "/etc/hosts" }).count(), 0);
      assert.equal(await page.locator(".file-list span.file", { hasText: "/etc/hosts" }).count(), 1);
      const counts = await page.$eval(".file-list li", (li) => li.querySelector(".file-counts").textContent);
      assert.equal(counts, "R2E1S");
    });
  });
}
