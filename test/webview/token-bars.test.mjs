// Webview tests of the per-branch token bars.
import assert from "node:assert/strict";
import { LargeHost, TreeHost } from "./fake-host.mjs";
import { explore, posted, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function tokenBarTests(test, browser) {
  test("clicking a branch's token bar selects its leaf", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      const mark = host.log.length;
      await page.click(".token-bar[data-leaf=a6]");
      await posted(host, mark, (m) => m.type === "select" && m.id === "a6", "select a6");
      await until(() => page.$eval(".row.selected", (r) => r.dataset.id === "a6").catch(() => false), "a6 selected");
      await until(() => page.$eval(".token-bar.selected", (b) => b.dataset.leaf === "a6").catch(() => false), "a6 bar selected");
    });
  });

  test("a bar whose estimated parts add up to more than its recorded total stays inside its card", async () => {
    // Recorded total 151k of a 200k window, estimated parts 100k + 90k + 70k = 260k: drawn
    // at their full size they ran past the card (130% of the window).
    class OverHost extends LargeHost {
      init() {
        const msg = super.init();
        msg.bars = [{ ...msg.bars[0], total: 151_000, byKind: { user: 100_000, assistant: 90_000, toolResult: 70_000 } }];
        return msg;
      }
    }
    await explore(browser(), new OverHost(50), async ({ page }) => {
      await until(() => page.locator(".token-bar .bar-seg").count(), "bar segments");
      const g = await page.$eval(".token-bar", (bar) => {
        const track = bar.querySelector(".bar-track").getBoundingClientRect();
        const card = bar.getBoundingClientRect();
        const segs = [...bar.querySelectorAll(".bar-seg")].map((s) => s.getBoundingClientRect());
        return { track: { left: track.left, right: track.right, width: track.width }, card: { right: card.right }, segs: segs.map((r) => ({ left: r.left, right: r.right, width: r.width })) };
      });
      assert.equal(g.segs.length, 3);
      for (const s of g.segs) assert.ok(s.right <= g.track.right + 0.5 && s.right <= g.card.right + 0.5, `segment ends at ${s.right}, track at ${g.track.right}`);
      const drawn = g.segs.reduce((a, s) => a + s.width, 0) / g.track.width;
      assert.ok(Math.abs(drawn - 151 / 200) < 0.01, `the parts fill ${drawn.toFixed(3)} of the track, the total is 0.755 of the window`);
      assert.match(await page.textContent(".token-bar .bar-figure"), /151k \/ 200k/);
    });
  });
}
