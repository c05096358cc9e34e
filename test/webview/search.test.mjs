// Webview tests of search: the query, stepping through matches, far-away hits, and a hit
// the host asks to show.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LargeHost, TreeHost } from "./fake-host.mjs";
import { detailsShown, explore, posted, realHost, rowIds, searchFor, tempDir, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function searchTests(test, browser) {
  test("search: posts the query, jumps to matches, next/previous wrap, count shown", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      const mark = host.log.length;
      const input = await searchFor(page, "BATCH");
      assert.equal((await posted(host, mark, (m) => m.type === "search", "search")).query, "BATCH");
      const sel = () => page.$eval(".row.selected", (r) => r.dataset.id).catch(() => null);
      // previews and labels, case-insensitive: a5 ("batch them"), u5, a7, t4 (batch.ts), a8
      await until(async () => (await sel()) === "a5", "first match a5");
      assert.equal(await page.textContent(".search-status"), "1 of 5");
      assert.deepEqual(await page.$$eval(".row.match", (rs) => rs.map((r) => r.dataset.id)), ["a5", "u5", "a7", "t4", "a8"]);
      assert.equal(await page.locator(".row.current-match").getAttribute("data-id"), "a5");
      await input.press("Enter");
      await until(async () => (await sel()) === "u5", "next u5");
      await page.click(".search vscode-button[title^='Next']");
      await until(async () => (await sel()) === "a7", "next button a7");
      await page.click(".search vscode-button[title^='Previous']");
      await until(async () => (await sel()) === "u5", "previous button u5");
      await input.press("Shift+Enter");
      await until(async () => (await sel()) === "a5", "previous a5");
      await input.press("Shift+Enter");
      await until(async () => (await sel()) === "a8", "previous wraps to a8");
      assert.equal(await page.textContent(".search-status"), "5 of 5");
      await page.click(".search vscode-button[title^='Next']");
      await until(async () => (await sel()) === "a5", "next wraps to a5");
    });
  });

  test("Enter while the typed query's search is still on its way steps to its first match (it was lost)", async () => {
    const host = new LargeHost(100_000);
    await explore(browser(), host, async ({ page }) => {
      const input = page.locator(".search vscode-textfield input");
      host.hold = true; // the host answers nothing until released
      await input.fill("row");
      // The debounced search goes out; Enter comes while it is unanswered.
      await until(() => host.held.some((m) => m.type === "search"), "the search sent");
      await input.press("Enter");
      host.hold = false;
      await host.flushHeld();
      await until(() => page.locator(".row[data-id=n12].selected").count(), "the first match selected");
      assert.equal(await page.textContent(".search-status"), "1 of 3");
    });
  });

  test("100,000 rows: search results far away are scrolled to and selected", async () => {
    const host = new LargeHost(100_000);
    await explore(browser(), host, async ({ page }) => {
      const input = await searchFor(page, "row");
      await until(() => page.locator(".row[data-id=n12].selected").count(), "n12");
      await input.press("Enter");
      await until(() => page.locator(".row[data-id=n50000].selected").count(), "n50000");
      await input.press("Enter");
      await until(() => page.locator(".row[data-id=n99990].selected").count(), "n99990");
      assert.equal(await page.textContent(".search-status"), "3 of 3");
      assert.ok((await page.locator(".row").count()) < 200);
    });
  });

  test("showEntry from the host (a search hit): the webview asks to reveal it, unfolds and widens the filter as the host says, selects the row and shows its details", async () => {
    const dir = tempDir("ase-webview-show-");
    const t = (k) => new Date(Date.UTC(2026, 0, 1, 0, 0, k)).toISOString();
    const msg = (id, parentId, k, role, text) => ({ type: "message", id, parentId, timestamp: t(k), message: { role, content: [{ type: "text", text }], ...(role === "assistant" ? { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: "stop" } : {}), timestamp: k } });
    // u1 ─┬─ a1 ─ u2 ─ a2 (a branch to fold at u1)
    //     └─ u3 ─ a3 ─ l1 (a label: shown only under "All entries")
    const lines = [
      { type: "session", version: 3, id: "sess-show", timestamp: t(0), cwd: "/home/ana/show" },
      msg("000000u1", null, 1, "user", "first prompt"),
      msg("000000a1", "000000u1", 2, "assistant", "first answer"),
      msg("000000u2", "000000a1", 3, "user", "second prompt"),
      msg("000000a2", "000000u2", 4, "assistant", "the answer a search found"),
      msg("000000u3", "000000u1", 5, "user", "another way"),
      msg("000000a3", "000000u3", 6, "assistant", "another answer"),
      { type: "label", id: "000000l1", parentId: "000000a3", timestamp: t(7), targetId: "000000a3", label: "found by search" },
    ];
    const file = join(dir, "show.jsonl");
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const host = await realHost(file);
    await explore(browser(), host, async ({ page, seen }) => {
      await page.click(".row[data-id='000000u1'] .twisty");
      await until(async () => !(await rowIds(page)).includes("000000a2"), "u1 folded");
      let mark = host.log.length;
      await page.evaluate(() => window.postMessage({ type: "showEntry", id: "000000a2" }, "*"));
      await posted(host, mark, (m) => m.type === "reveal" && m.id === "000000a2", "a reveal request for a2");
      await until(() => page.getAttribute(".row[data-id='000000a2']", "aria-selected").then((v) => v === "true").catch(() => false), "a2's row shown and selected");
      await detailsShown(page, "000000a2", "a2's details");
      assert.equal(await page.getAttribute(".row[data-id='000000u1']", "aria-expanded"), "true", "u1 unfolded");
      await until(() => page.evaluate(() => window.__savedState && !window.__savedState.folded.includes("000000u1") && window.__savedState.selectedId === "000000a2"), "the unfold and the selection saved");
      // The label is hidden under "Conversation": the filter becomes "All entries".
      mark = host.log.length;
      await page.evaluate(() => window.postMessage({ type: "showEntry", id: "000000l1" }, "*"));
      await posted(host, mark, (m) => m.type === "reveal" && m.id === "000000l1", "a reveal request for l1");
      await until(() => page.getAttribute(".row[data-id='000000l1']", "aria-selected").then((v) => v === "true").catch(() => false), "l1's row shown and selected");
      assert.equal(await page.$eval("vscode-single-select.filter", (s) => s.value), "all");
      assert.equal(host.controller.selectedEntry, "000000l1");
      // An id the session lacks: the host's error is shown as a notice, nothing else changes.
      await page.evaluate(() => window.postMessage({ type: "showEntry", id: "nope" }, "*"));
      await until(() => page.locator(".notice-error", { hasText: "no entry with id" }).count(), "the error notice");
      assert.equal(host.controller.selectedEntry, "000000l1");
      assert.deepEqual(seen.errors, []);
    });
  });

  test("search: the term is marked inside each matching row's text, and the current match stands apart from the others", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      await searchFor(page, "BATCH");
      await until(() => page.$eval(".row.current-match", (r) => r.dataset.id === "a5").catch(() => false), "a5 current");
      const marks = await page.$$eval(".row.match .preview mark", (ms) => ms.map((m) => [m.closest(".row").dataset.id, m.textContent]));
      assert.deepEqual(marks.filter(([id]) => id === "a5"), [["a5", "batch"]]);
      assert.ok(marks.some(([id, t]) => id === "a7" && t === "Batch"), JSON.stringify(marks));
      for (const theme of ["high-contrast", "light"]) {
        await explore(browser(), new TreeHost(realisticSession()), { theme }, async ({ page: themed }) => {
          await searchFor(themed, "batch");
          await until(() => themed.$eval(".row.current-match", (r) => r.dataset.id === "a5").catch(() => false), `${theme}: a5 current`);
          const current = await themed.$eval(".row.current-match .preview mark", (m) => getComputedStyle(m).outlineStyle + getComputedStyle(m).backgroundColor);
          const other = await themed.$eval(".row[data-id=a7] .preview mark", (m) => getComputedStyle(m).outlineStyle + getComputedStyle(m).backgroundColor);
          assert.notEqual(current, other, `${theme}: the current match's mark stands apart`);
        });
      }
    });
  });
}
