// Webview tests of themes and layout: screenshots in the four kinds of VS Code theme
// (test-artifacts/webview), a split editor's narrow widths, and chart and bar colours that
// hold in High Contrast.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { TreeHost } from "./fake-host.mjs";
import { ARTIFACTS, detailsShown, explore, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function themesLayoutTests(test, browser) {
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

  test("split editor widths 1200, 700, 520, 333 px: bar names shown, rows readable, chart text at least 11 px", async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const width of [1200, 700, 520, 333]) {
      const host = new TreeHost(realisticSession());
      await explore(browser(), host, { viewport: { width, height: 760 } }, async ({ page, seen }) => {
        await page.waitForSelector(".timeline-svg text", { state: "attached" });
        await page.waitForSelector(".token-bar .bar-title", { state: "attached" });
        const m = await page.evaluate(() => {
          const probe = document.createElement("span");
          probe.textContent = "abcdefghijklmnopqrstuvwxyz";
          const preview = document.querySelector(".row[data-id=u3] .preview");
          preview.appendChild(probe);
          const charW = probe.getBoundingClientRect().width / 26;
          probe.remove();
          const visibleWidth = (node) => {
            const r = node.getBoundingClientRect();
            const left = Math.max(r.left, 0);
            const right = Math.min(r.right, window.innerWidth);
            return node.checkVisibility() ? Math.max(0, right - left) : 0;
          };
          const titles = [...document.querySelectorAll(".token-bar .bar-title")].map((t) => visibleWidth(t) / charW);
          const svg = document.querySelector(".timeline-svg");
          const scale = svg.getScreenCTM()?.a ?? 0;
          const fonts = [...svg.querySelectorAll("text")].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
          return { rowChars: visibleWidth(preview) / charW, titles, fonts };
        });
        assert.ok(m.rowChars >= 24, `${width} px: a row shows ${m.rowChars.toFixed(1)} characters`);
        for (const t of m.titles) assert.ok(t >= 10, `${width} px: a bar name shows ${t.toFixed(1)} characters`);
        for (const f of m.fonts) assert.ok(f >= 11, `${width} px: chart text is ${f.toFixed(1)} px`);
        if (width === 520 || width === 333) await page.screenshot({ path: join(ARTIFACTS, `explorer-narrow-${width}.png`) });
        if (width === 1200) {
          // A panel made narrow while open (an editor split beside it) stacks and redraws the chart.
          const drawnAt = () => page.$eval(".timeline-svg", (svg) => Number(svg.getAttribute("width")));
          const wide = await drawnAt();
          await page.setViewportSize({ width: 520, height: 760 });
          await until(() => page.evaluate(() => document.body.classList.contains("narrow")), "stacked at 520 px");
          await until(async () => (await drawnAt()) !== wide, "the chart redrawn at the new width");
          assert.ok(Math.abs((await page.$eval(".timeline-svg", (svg) => svg.getScreenCTM().a)) - 1) < 0.01, "drawn at 1:1");
        }
        assert.deepEqual(seen.errors, []);
      });
    }
  });

  for (const theme of ["high-contrast", "high-contrast-light", "light", "dark"]) {
    test(`theme ${theme}: the estimated line is drawn in a solid colour, no line has alpha, tool results are not the window's red`, async () => {
      const host = new TreeHost(realisticSession());
      await explore(browser(), host, { theme }, async ({ page, seen }) => {
        await page.waitForSelector(".timeline-svg .timeline-line.estimated");
        const c = await page.evaluate(() => {
          const rgba = (s) => {
            const m = /rgba?\(([^)]+)\)/.exec(s);
            if (!m) return null;
            const [r, g, b, a = "1"] = m[1].split(/[\s,/]+/).filter(Boolean);
            return { r: +r, g: +g, b: +b, a: +a };
          };
          const opacity = (n) => {
            let o = 1;
            for (let p = n; p && p.nodeType === 1; p = p.parentElement ?? p.parentNode) o *= parseFloat(getComputedStyle(p).opacity);
            return o;
          };
          const svg = document.querySelector(".timeline-svg");
          const lines = [...svg.querySelectorAll("line, polyline, path")]
            .filter((n) => !n.closest(".timeline-hit"))
            .map((n) => ({ cls: n.getAttribute("class"), stroke: getComputedStyle(n).stroke, c: rgba(getComputedStyle(n).stroke), opacity: opacity(n) }));
          const bg = rgba(getComputedStyle(document.querySelector(".side-pane")).backgroundColor);
          const est = rgba(getComputedStyle(svg.querySelector(".timeline-line.estimated")).stroke);
          const windowMark = getComputedStyle(document.querySelector(".bar-mark.window")).borderLeftColor;
          const seg = getComputedStyle(document.querySelector(".bar-seg.seg-toolResult"));
          const swatch = getComputedStyle(document.querySelector(".legend .swatch.seg-toolResult"));
          return { lines, bg, est, windowMark, toolResult: [seg.backgroundColor, seg.backgroundImage, swatch.backgroundColor, swatch.backgroundImage].join(" ") };
        });
        assert.ok(c.est && c.est.a === 1, `the estimated line's stroke ${JSON.stringify(c.est)}`);
        assert.ok(c.bg && (c.est.r !== c.bg.r || c.est.g !== c.bg.g || c.est.b !== c.bg.b), "the estimated line differs from the background");
        for (const l of c.lines) {
          assert.ok(l.c && l.c.a === 1, `${l.cls}: stroke ${l.stroke}`);
          assert.equal(l.opacity, 1, `${l.cls}: opacity`);
        }
        assert.ok(!c.toolResult.includes(c.windowMark), `tool results (${c.toolResult}) share the window's ${c.windowMark}`);
        if (theme !== "dark") await page.screenshot({ path: join(ARTIFACTS, `explorer-usability-${theme}.png`) });
        assert.deepEqual(seen.errors, []);
      });
    });
  }
}
