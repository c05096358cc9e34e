// Webview screenshots in the four kinds of VS Code theme (test-artifacts/webview).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { TreeHost } from "./fake-host.mjs";
import { ARTIFACTS, detailsShown, explore, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function themeScreenshotTests(test, browser) {
  test("screenshots: light, dark and both high-contrast themes", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const theme of ["light", "dark", "high-contrast", "high-contrast-light"]) {
      const host = new TreeHost(realisticSession());
      await explore(browser(), host, { theme, viewport: { width: 1280, height: 800 } }, async ({ page, seen }) => {
        await page.click(".row[data-id=a7] .preview");
        await detailsShown(page, "a7", "details");
        await page.waitForSelector(".file-list li");
        await page.locator(".search vscode-textfield input").fill("batch");
        await until(() => page.locator(".row.match").count(), "matches");
        await page.focus("[role=tree]");
        await page.evaluate(() => document.fonts.ready);
        await page.waitForTimeout(150);
        const file = join(ARTIFACTS, `explorer-${theme}.png`);
        await page.screenshot({ path: file });
        assert.deepEqual(seen.errors, []);
      });
    }
  });
}
