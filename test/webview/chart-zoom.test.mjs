// Webview tests for the growth chart of a long session (issue 24, item 12: "a sawtooth with no
// zoom or range"): a drag on the overview strip or the chart, the wheel and + - 0 choose the
// steps shown, "Reset zoom" shows all; Composition stacks what each step held in the bars'
// colours; the chart follows the tree's selection. Screenshots go to the artifacts dir.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { TreeHost } from "./fake-host.mjs";
import { ARTIFACTS, openExplorer, posted, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

const KINDS = ["system", "summary", "user", "assistant", "thinking", "toolCall", "toolResult"];

/**
 * A 4,000-step branch as the core shapes it: a sawtooth compacted every 700 steps, each
 * step's composition adding up to its size. `ids` names some steps after tree rows.
 */
export function longTimeline(n = 4000, ids = {}) {
  const points = [];
  const compactions = [];
  let index = 0;
  let grow = 0;
  let summary = 0;
  for (let k = 0; k < n; k++) {
    if (k > 0 && k % 700 === 0) {
      const before = points[points.length - 1].tokens;
      summary = 7_000;
      grow = 0;
      compactions.push({ entryId: `c${k}`, index: index++, time: null, before, beforeSource: "recorded", after: 5_000 + summary, afterSource: "estimated", afterComposition: { system: 5_000, summary } });
    }
    grow += 180 + ((k * 37) % 160);
    const parts = { system: 5_000, summary, user: Math.round(grow * 0.08), assistant: Math.round(grow * 0.17), thinking: Math.round(grow * 0.1), toolCall: Math.round(grow * 0.05) };
    parts.toolResult = grow - parts.user - parts.assistant - parts.thinking - parts.toolCall;
    const composition = Object.fromEntries(Object.entries(parts).filter(([, v]) => v > 0));
    const tokens = Object.values(composition).reduce((a, b) => a + b, 0);
    points.push({ entryId: ids[k] ?? `s${k}`, index: index++, time: null, tokens, source: k % 90 === 5 ? "estimated" : "recorded", composition });
  }
  return { leafId: "a8", model: "claude-sonnet-4-5", window: 200_000, threshold: 183_616, points, compactions };
}

/** The chart's caption and what it draws: the steps shown ("showing steps a–b"), its marks, its controls. */
function chartState(page) {
  return page.evaluate(() => {
    const caption = document.querySelector(".timeline-caption")?.textContent ?? "";
    const m = /showing steps ([\d,]+)–([\d,]+)/.exec(caption);
    const num = (s) => Number(s.replace(/,/g, ""));
    const marks = [...document.querySelectorAll(".timeline-svg [role=button]")].map((n) => n.dataset.entry);
    const reset = document.querySelector(".chart-reset-zoom");
    return { caption, shown: m ? [num(m[1]), num(m[2])] : null, marks, resetDisabled: reset ? reset.hasAttribute("disabled") : null };
  });
}

/** Step numbers (1-based) of the marks named s<k>. */
const stepsOf = (marks) => marks.filter((id) => /^s\d+$/.test(id)).map((id) => Number(id.slice(1)) + 1);

async function drag(page, selector, fromShare, toShare) {
  const box = await page.locator(selector).boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * fromShare, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((fromShare + toShare) / 2), y, { steps: 3 });
  await page.mouse.move(box.x + box.width * toShare, y, { steps: 3 });
  await page.mouse.up();
}

async function shot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await page.locator(".timeline").scrollIntoViewIfNeeded();
  await page.locator(".timeline").screenshot({ path: join(ARTIFACTS, name) });
}

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function chartZoomTests(test, browser) {
  test("growth chart zoom: a 4,000-step branch narrowed by a drag on the overview strip and on the chart, the wheel, + - 0 and Reset zoom; at most 400 marks", async () => {
    const data = realisticSession();
    data.timeline = longTimeline();
    const host = new TreeHost(data);
    const x = await openExplorer(browser(), host, { viewport: { width: 1280, height: 900 } });
    const { page } = x;
    try {
      await page.waitForSelector(".timeline-svg .timeline-point", { timeout: 30_000 });
      let s = await chartState(page);
      assert.equal(s.shown, null, `the whole branch at first: ${s.caption}`);
      assert.equal(s.resetDisabled, true, "nothing to reset");
      assert.ok(s.marks.length <= 400, `${s.marks.length} marks`);
      await shot(page, "chart-4000-steps-total-dark.png");

      // A drag on the overview strip from 10% to 20% of its width shows about those steps.
      await drag(page, ".timeline-overview .overview-track", 0.1, 0.2);
      s = await until(async () => ((await chartState(page)).shown ? chartState(page) : null), "a range chosen on the strip");
      assert.ok(s.shown[0] > 250 && s.shown[0] < 550 && s.shown[1] > 650 && s.shown[1] < 950, `steps ${s.shown}`);
      assert.equal(s.resetDisabled, false);
      const steps = stepsOf(s.marks);
      assert.ok(steps.length > 50 && s.marks.length <= 400, `${s.marks.length} marks`);
      assert.ok(steps.every((k) => k >= s.shown[0] && k <= s.shown[1]), "only the steps shown are marks");
      const label = await page.$eval(".timeline-svg", (n) => n.getAttribute("aria-label"));
      assert.ok(label.includes(`steps ${s.shown[0]} to ${s.shown[1]} of 4000`), label);
      await shot(page, "chart-4000-steps-total-zoomed-dark.png");

      // The keyboard: + narrows around the focused step, - widens, 0 shows all.
      await page.focus(".timeline-svg [tabindex='0']");
      const span = (r) => r[1] - r[0];
      const before = s.shown;
      await page.keyboard.press("+");
      const narrower = await until(async () => {
        const r = (await chartState(page)).shown;
        return r && span(r) < span(before) ? r : null;
      }, "+ narrows");
      assert.ok(await page.evaluate(() => document.activeElement?.closest(".timeline-svg") !== null), "the focus stays on a step");
      await page.keyboard.press("-");
      await until(async () => {
        const r = (await chartState(page)).shown;
        return r && span(r) > span(narrower);
      }, "- widens");
      await page.keyboard.press("0");
      await until(async () => (await chartState(page)).shown === null, "0 shows every step");

      // The wheel over the chart zooms in around the pointer; Reset zoom shows all again.
      const box = await page.locator(".timeline-svg").boundingBox();
      await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
      await page.mouse.wheel(0, -300);
      s = await until(async () => ((await chartState(page)).shown ? chartState(page) : null), "the wheel zooms in");
      // One notch narrows by 1.5 around the step under the pointer (three quarters in), which keeps its place.
      assert.ok(s.shown[0] > 500 && s.shown[1] - s.shown[0] < 3000 && s.shown[1] > 3000, `zoomed around the pointer: ${s.shown}`);
      await page.click(".chart-reset-zoom");
      await until(async () => (await chartState(page)).shown === null, "Reset zoom shows every step");

      // A drag across the chart itself zooms to the part dragged over.
      await drag(page, ".timeline-svg", 0.5, 0.6);
      s = await until(async () => ((await chartState(page)).shown ? chartState(page) : null), "a range dragged on the chart");
      assert.ok(span(s.shown) < 800 && s.shown[0] > 1200, `steps ${s.shown}`);
      // The arrow keys go on past the span's end: it moves on by half its width, the focus on the next step.
      await page.focus(".timeline-svg [tabindex='0']");
      await page.keyboard.press("End");
      const lastShown = await page.evaluate(() => document.activeElement?.dataset?.entry);
      await page.keyboard.press("ArrowRight");
      const movedOn = await until(async () => {
        const r = (await chartState(page)).shown;
        return r && r[0] > s.shown[0] ? r : null;
      }, "ArrowRight at the end moves the span on");
      assert.equal(span(movedOn), span(s.shown), "the same width");
      const next = await page.evaluate(() => document.activeElement?.dataset?.entry);
      assert.ok(Number(next.slice(1)) > Number(lastShown.slice(1)), `focus moved on from ${lastShown} to ${next}`);
      assert.deepEqual(x.seen.errors, []);
    } finally {
      await x.close();
    }
  });

  for (const theme of ["dark", "high-contrast"]) {
    test(`growth chart composition (${theme}): stacked areas per kind in the bars' colours under the size line, the split said to be estimated; zoomed and not`, async () => {
      const data = realisticSession();
      data.timeline = longTimeline();
      const host = new TreeHost(data);
      const x = await openExplorer(browser(), host, { theme, viewport: { width: 1280, height: 900 } });
      const { page } = x;
      try {
        await page.waitForSelector(".timeline-svg .timeline-point", { timeout: 30_000 });
        assert.equal(await page.locator(".timeline-area").count(), 0, "Total: the line alone");
        await page.click(".chart-mode.mode-composition");
        await page.waitForSelector(".timeline-area");
        const dom = await page.evaluate((kinds) => {
          const svg = document.querySelector(".timeline-svg");
          const colour = (kind) => {
            const probe = document.body.appendChild(document.createElement("div"));
            probe.className = `seg-${kind}`;
            const c = getComputedStyle(probe).backgroundColor;
            probe.remove();
            return c;
          };
          const areas = Object.fromEntries(kinds.map((k) => {
            const a = svg.querySelector(`.area-${k}`);
            return [k, a ? { fill: getComputedStyle(a).fill, bar: colour(k) } : null];
          }));
          const ys = (list, attr) => list.flatMap((n) => (n.getAttribute(attr) ?? "").match(/-?\d+(\.\d+)?,-?\d+(\.\d+)?/g) ?? []).map((p) => Number(p.split(",")[1]));
          return {
            areas,
            patterns: [...svg.querySelectorAll("pattern")].map((p) => p.id),
            hatch: [...svg.querySelectorAll("pattern .hatch-fg")].map((r) => getComputedStyle(r).fill),
            areaTop: Math.min(...ys([...svg.querySelectorAll(".timeline-area")], "d")),
            lineTop: Math.min(...ys([...svg.querySelectorAll(".timeline-line")], "points")),
            lines: svg.querySelectorAll(".timeline-line").length,
            legend: document.querySelector(".composition-legend")?.textContent ?? "",
            pressed: document.querySelector(".chart-mode.mode-composition").getAttribute("aria-pressed"),
          };
        }, KINDS);
        for (const k of KINDS) assert.ok(dom.areas[k], `an area for ${k}`);
        for (const k of ["summary", "user", "assistant", "thinking", "toolCall"]) {
          assert.equal(dom.areas[k].fill, dom.areas[k].bar, `${k}: the bar's colour`);
          assert.doesNotMatch(dom.areas[k].fill, /rgba\(0, 0, 0, 0\)|none|transparent/, `${k} is drawn in ${theme}`);
        }
        for (const k of ["toolResult", "system"]) assert.match(dom.areas[k].fill, new RegExp(`url\\("?#ase-hatch-${k}"?\\)`), `${k}: hatched, as its bar`);
        assert.deepEqual(dom.patterns.sort(), ["ase-hatch-system", "ase-hatch-toolResult"]);
        for (const f of dom.hatch) assert.doesNotMatch(f, /rgba\(0, 0, 0, 0\)|none/, `hatching drawn in ${theme}`);
        assert.ok(dom.lines > 0, "the size line stays on top");
        assert.ok(Math.abs(dom.areaTop - dom.lineTop) < 3, `the areas add up to the line: top ${dom.areaTop} vs ${dom.lineTop}`);
        assert.match(dom.legend, /System & tools.*Summary.*User.*Assistant.*Thinking.*Tool calls.*Tool results/);
        assert.match(dom.legend, /split estimated/);
        assert.equal(dom.pressed, "true");
        await shot(page, `chart-4000-steps-composition-${theme}.png`);
        await drag(page, ".timeline-overview .overview-track", 0.55, 0.62);
        await until(async () => (await chartState(page)).shown, "zoomed");
        assert.ok((await page.locator(".timeline-area").count()) >= 5, "the areas are drawn zoomed too");
        await shot(page, `chart-4000-steps-composition-zoomed-${theme}.png`);
        await page.click(".chart-mode.mode-total");
        await until(async () => (await page.locator(".timeline-area").count()) === 0, "Total again: no areas");
        assert.ok((await chartState(page)).shown, "the view change keeps the zoom");
        assert.deepEqual(x.seen.errors, []);
      } finally {
        await x.close();
      }
    });
  }

  test("growth chart linked to the tree: a row selected in the tree moves the zoomed chart to its step and marks it (the focus stays in the tree); a step clicked selects its row", async () => {
    const data = realisticSession();
    data.timeline = longTimeline(4000, { 3300: "a7", 40: "a2" });
    const host = new TreeHost(data);
    const x = await openExplorer(browser(), host, { viewport: { width: 1280, height: 900 } });
    const { page } = x;
    try {
      await page.waitForSelector(".timeline-svg .timeline-point", { timeout: 30_000 });
      await drag(page, ".timeline-overview .overview-track", 0.0, 0.06);
      const first = await until(async () => (await chartState(page)).shown, "zoomed to the start");
      assert.ok(first[1] < 3000, `${first}`);
      const mark = host.log.length;
      await page.click(".row[data-id=a7] .preview");
      const asked = await posted(host, mark, (m) => m.type === "timelinePosition" && m.id === "a7", "the chart asks where a7 is");
      assert.equal(asked.leafId, "a8");
      const moved = await until(async () => {
        const r = (await chartState(page)).shown;
        return r && r[0] <= 3301 && r[1] >= 3301 ? r : null;
      }, "the chart moved to step 3,301");
      assert.ok(moved[1] - moved[0] < 1000, "still zoomed");
      assert.equal(await page.$eval(".timeline-point.selected", (n) => n.dataset.entry), "a7");
      assert.equal(await page.locator(".timeline-cursor").count(), 1);
      assert.equal(await page.$eval(".timeline-point.selected", (n) => n.getAttribute("tabindex")), "0", "the marked step is the chart's tab stop");
      assert.equal(await page.evaluate(() => document.activeElement?.closest(".timeline") ?? null), null, "the tree keeps the focus");
      await shot(page, "chart-4000-steps-tree-linked-dark.png");
      // A step clicked on the zoomed chart selects its entry, keeping the chart's branch.
      const mark2 = host.log.length;
      await page.click(".timeline-point[data-entry=a7]", { force: true });
      const sel = await posted(host, mark2, (m) => m.type === "select" && m.id === "a7", "a click on the step selects a7");
      assert.equal(sel.keepLeaf, "a8");
      await until(() => page.$eval(".row.selected", (r) => r.dataset.id === "a7").catch(() => false), "a7 selected in the tree");
      // Another step clicked: the mark and the cursor move to it at once.
      // The last step shown (drawn last, so on top of its neighbours a pixel or two away).
      const other = await page.$$eval(".timeline-svg .timeline-point:not(.selected)", (ns) => ns.at(-1).dataset.entry);
      await page.click(`.timeline-svg [role=button][data-entry="${other}"]`, { force: true });
      await until(() => page.$eval(".timeline-point.selected", (n, id) => n.dataset.entry === id, other).catch(() => false), `the mark moves to ${other}`);
      const cursor = await page.$eval(".timeline-cursor", (c) => ({ x: Number(c.getAttribute("x1")), shown: c.getAttribute("visibility") }));
      const at = await page.$eval(".timeline-point.selected", (n) => Number(n.getAttribute("cx")));
      assert.deepEqual(cursor, { x: at, shown: "visible" });
      assert.deepEqual(x.seen.errors, []);
    } finally {
      await x.close();
    }
  });
}
