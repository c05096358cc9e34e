// Webview tests on real recorded sessions (../shared/fixtures) through the real core; a
// fixture missing is reported as not run (and fails in CI).
import assert from "node:assert/strict";
import { join } from "node:path";
import { ARTIFACTS, FIXTURES, ROOT, explore, posted, realFixture, realHost, searchFor, until } from "./harness.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function realSessionTests(test, browser) {
  test("renders a real pi session (before-compaction.jsonl) with the rows, details and bars the real core serves", async () => {
    const file = realFixture(join(FIXTURES, "before-compaction.jsonl"));
    const host = await realHost(file);
    await explore(browser(), host, async ({ page, seen }) => {
      await until(() => page.locator(".row[data-id='00000002']").count(), "first row");
      const first = page.locator(".row[data-id='00000002']");
      assert.match(await first.locator(".preview").textContent(), /^alright, read @packages\/coding-agent\/src\/main\.ts/);
      // Everything before the last compaction's kept part is drawn as summarized.
      assert.ok((await first.getAttribute("class")).includes("boundary-summarized"));
      // Named as its tab and the Sessions view name it (the first prompt), the file in the tooltip.
      assert.match(await page.locator(".session-title").textContent(), /^alright, read @packages\/coding-agent\/src\/main\.ts/);
      assert.match(await page.locator(".session-title").getAttribute("title"), /before-compaction\.jsonl$/);
      // Search for the compactions: both are found, and the row shows what it did.
      await searchFor(page, "tokens summarized");
      await until(async () => (await page.textContent(".search-status")) === "1 of 2", "two compactions found");
      const row = page.locator(".row.selected.compaction-row");
      await until(() => row.count(), "the first compaction selected");
      assert.match(await row.locator(".chip").allTextContents().then((c) => c.join(" ")), /compacted \d/);
      await row.click();
      await page.keyboard.press("Enter");
      await until(async () => /Context Checkpoint/.test((await page.textContent(".detail-pane").catch(() => "")) ?? ""), "the compaction summary in the details");
      // The bars are pi's figures for this file: recorded usage on a Claude model.
      const bar = await page.$eval(".token-bar", (b) => ({ badge: b.querySelector(".source-badge").textContent, fig: b.querySelector(".bar-figure").textContent }));
      assert.equal(bar.badge, "recorded usage");
      assert.match(bar.fig, /\/ 200k/);
      await page.screenshot({ path: join(ARTIFACTS, "real-session.png") });
      assert.deepEqual(seen.errors, []);
    });
  });

  test("a real Claude Code compaction (agentlogs-compact.jsonl): manual or auto, tokens before, what it summarized, and its summary", async () => {
    const file = realFixture(join(ROOT, "..", "shared", "fixtures", "claude-code", "real", "agentlogs-compact.jsonl"));
    const host = await realHost(file);
    await explore(browser(), host, async ({ page, seen }) => {
      const row = page.locator(".row.compaction-row");
      await until(() => row.count(), "the boundary row");
      await row.click();
      await page.keyboard.press("Enter");
      await until(() => page.locator(".compaction-info").count(), "the compaction details");
      const info = await page.$eval(".compaction-info", (c) => c.textContent);
      assert.match(info, /Compaction \(manual\): 16k tokens before, [1-9]\d* messages? summarized/);
      assert.match(info, /This session is being continued from a previous conversation/);
      // The chart the real core serves: the recorded step, then the drop from preTokens.
      await until(() => page.locator(".timeline-compaction").count(), "the compaction on the chart");
      const drop = await page.$eval(".timeline-compaction > title", (t) => t.textContent);
      assert.match(drop, /^compacted 16k -> 695 · 2025-10-10 21:57:51Z · before recorded, after estimated · entry a623034a-/);
      assert.equal(await page.locator(".timeline-point.recorded").count(), 1);
      assert.deepEqual(seen.errors, []);
    });
  });

  test("a real Claude Code response starting three sub-agents (ccl-subagents-v2.1.114): one row, its details name each sub-agent and open its transcript", async () => {
    const file = realFixture(join(ROOT, "..", "shared", "fixtures", "claude-code", "real", "ccl-subagents-v2.1.114", "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"));
    const host = await realHost(file);
    // The response's seven lines (thinking, three TaskUpdate and three Agent calls) are one row: its last line.
    const last = "354c4ace-b8bd-4797-8d27-65155d5df196";
    await explore(browser(), host, async ({ page, seen }) => {
      await searchFor(page, "Research Steve Yegge Beads");
      const row = page.locator(`.row.selected[data-id='${last}']`);
      await until(() => row.count(), "the response's row selected");
      assert.equal(await page.locator(".row[data-id='fc61c13e-9209-4099-9847-3c6aed90e03c']").count(), 0, "its earlier lines are not rows under the default filter");
      await row.click();
      await page.keyboard.press("Enter");
      await until(async () => (await page.locator(".subagent-info").count()) === 3, "three sub-agent boxes");
      const titles = await page.$$eval(".subagent-info .section-title", (els) => els.map((e) => e.textContent));
      assert.deepEqual(titles, [
        "Sub-agent a4ca7529859c158c2 (general-purpose): Research Claude Code plan mode",
        "Sub-agent a52886dc180afb356 (general-purpose): Research Claude Code teammates",
        "Sub-agent ab1e6e141221a29ab (general-purpose): Research Steve Yegge Beads",
      ]);
      // The response's own cost (priced from the table: Claude Code records tokens only).
      assert.match(await page.textContent(".detail-pane .step-cost"), /^This step: \$[\d.]+ \(priced per model\)$/);
      // Each with its own context size and cost, read from its transcript.
      const figures = await page.$$eval(".subagent-info .subagent-figures", (els) => els.map((e) => e.textContent));
      assert.equal(figures.length, 3);
      for (const f of figures) assert.match(f, /^Its context at its end: ~?[\d.]+k of 200k · \$\d+\.\d+ · \d+ steps?/);
      const mark = host.log.length;
      await page.locator(".subagent-info vscode-button[data-action=openSubagent]").first().click();
      const m = await posted(host, mark, (m) => m.type === "openSubagent", "openSubagent");
      assert.deepEqual(m, { type: "openSubagent", entryId: last, agentId: "a4ca7529859c158c2" });
      assert.match(host.controller.subagentToOpen(m.entryId, m.agentId), /subagents\/agent-a4ca7529859c158c2\.jsonl$/);
      await page.screenshot({ path: join(ARTIFACTS, "claude-code-subagents.png") });
      assert.deepEqual(seen.errors, []);
    });
  });
}
