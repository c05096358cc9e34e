// Webview tests for what a new user's hour in the real VS Code found (issue 24): details
// that follow the keyboard, a layout that survives a split editor, theme colours that
// hold in High Contrast, readable compacted history, labelled figures, visible search hits.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { TreeHost } from "./fake-host.mjs";
import { ARTIFACTS, detailsShown, explore, posted, rowIds, searchFor, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function usabilityTests(test, browser) {
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

  test("compacted history reads plainly (a 'summarized' mark, no strike-through or italics); the token column and entry count are labelled", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      const look = (id) => page.$eval(`.row[data-id=${id}]`, (row) => {
        const p = getComputedStyle(row.querySelector(".preview"));
        return { line: p.textDecorationLine, style: p.fontStyle, chips: [...row.querySelectorAll(".chip")].map((c) => c.textContent), label: row.getAttribute("aria-label") };
      });
      for (const id of ["u1", "a1", "a3"]) {
        const r = await look(id);
        assert.ok(!r.line.includes("line-through"), `${id}: ${r.line}`);
        assert.notEqual(r.style, "italic", id);
        assert.match(r.label, /summarized by a compaction/);
      }
      // The badge names the run once, on its first row.
      assert.deepEqual((await look("u1")).chips, ["summarized"]);
      assert.deepEqual((await look("a1")).chips, []);
      const head = await page.$eval(".tree-head", (h) => ({ text: h.textContent, tip: h.querySelector(".tree-head-tokens").title }));
      assert.match(head.text, /tokens/);
      assert.match(head.tip, /estimat/i);
      assert.match(await page.$eval(".row[data-id=t1] .tokens", (t) => t.title), /estimat/i);
      assert.match(await page.$eval(".session-badges", (b) => b.textContent), /23 entries/);
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
