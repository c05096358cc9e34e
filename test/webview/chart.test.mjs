// Webview tests of the context growth chart (webview/timeline-chart.ts): which steps are
// marks, the drawing, its scale, session text in it, and a 20,000-step branch.
import assert from "node:assert/strict";
import { TreeHost } from "./fake-host.mjs";
import { explore, importTs, posted, until } from "./harness.mjs";
import { realisticSession, XSS, xssSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function chartTests(test, browser) {
  test("timeline chart: past 400 marks every n-th step is a mark, compactions and their neighbours always", async () => {
    const { markedSlots, MAX_MARKS } = await importTs("webview/timeline-chart.ts");
    const small = Array.from({ length: 10 }, (_, k) => ({ kind: "point", step: k + 1, p: {} }));
    assert.equal(markedSlots(small).slots.size, 10);
    const marks = Array.from({ length: 28_000 }, (_, k) => ({ kind: "point", step: k + 1, p: {} }));
    for (const at of [5_000, 12_345, 27_998]) marks.splice(at, 0, { kind: "drop", c: {} });
    const { slots, every } = markedSlots(marks);
    assert.ok(slots.size <= MAX_MARKS && slots.size > MAX_MARKS / 2, `${slots.size} marks`);
    assert.ok(every > 1);
    for (const at of [5_000, 12_345, 27_998]) for (const k of [at - 1, at, at + 1]) assert.ok(slots.has(k), `slot ${k}`);
    assert.ok(slots.has(0) && slots.has(marks.length - 1));
  }, { needsBrowser: false });

  test("context growth chart: hand-made SVG of the selected branch, estimated segments dashed, compaction titled, theme colours; keyboard moves and Enter selects", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page, seen }) => {
      await posted(host, 0, (m) => m.type === "timeline" && m.leafId === "a8", "timeline of the selected bar's leaf");
      await page.waitForSelector(".timeline-svg .timeline-point");
      const chart = await page.evaluate(() => {
        const svg = document.querySelector(".timeline-svg");
        const probe = document.body.appendChild(document.createElement("span"));
        probe.style.color = "var(--vscode-charts-blue)";
        const blue = getComputedStyle(probe).color;
        probe.remove();
        const style = (sel) => getComputedStyle(svg.querySelector(sel));
        return {
          ns: svg.namespaceURI,
          marks: [...svg.querySelectorAll("[role=button]")].map((n) => n.dataset.entry),
          tabStops: svg.querySelectorAll("[tabindex='0']").length,
          recordedDash: style(".timeline-line.recorded").strokeDasharray,
          estimatedDash: style(".timeline-line.estimated").strokeDasharray,
          recordedStroke: style(".timeline-line.recorded").stroke,
          blue,
          compactionTitle: svg.querySelector(".timeline-compaction > title").textContent,
          pointTitle: svg.querySelector(".timeline-point > title").textContent,
          pointLabel: svg.querySelector(".timeline-point").getAttribute("aria-label"),
          limits: [...svg.querySelectorAll(".timeline-limit")].map((l) => l.classList[1]),
          labels: [...svg.querySelectorAll("text")].map((t) => t.textContent),
          caption: document.querySelector(".timeline-caption").textContent,
        };
      });
      assert.equal(chart.ns, "http://www.w3.org/2000/svg");
      // Path order: steps a1..a4, the compaction c1, then a5 (estimated), a7, a8.
      assert.deepEqual(chart.marks, ["a1", "a2", "a3", "a4", "c1", "a5", "a7", "a8"]);
      assert.equal(chart.tabStops, 1, "one tab stop (roving tabindex)");
      assert.equal(chart.recordedDash, "none");
      assert.notEqual(chart.estimatedDash, "none");
      assert.equal(chart.recordedStroke, chart.blue, "colours come from the theme's variables");
      assert.match(chart.compactionTitle, /^compacted 142k -> 850 · /);
      assert.match(chart.pointTitle, /^Step 1 · 2026-03-02 09:14:07Z · 204 tokens \(recorded\) · entry a1$/);
      assert.equal(chart.pointLabel, chart.pointTitle);
      assert.deepEqual(chart.limits.sort(), ["timeline-threshold", "timeline-window"]);
      assert.ok(chart.labels.includes("auto-compact") && chart.labels.includes("window") && chart.labels.includes("step 1") && chart.labels.includes("step 7"), chart.labels.join("|"));
      // The chart counts the selected branch's steps; the cost chip counts every branch's (its tooltip says so).
      assert.match(chart.caption, /^7 steps on this branch · last [\d.]+k? of 200k · 1 compaction$/);

      // Keyboard: Tab lands on the first step; arrows, End and Home move; Enter selects.
      await page.focus(".timeline-svg [tabindex='0']");
      const focused = () => page.evaluate(() => document.activeElement?.dataset?.entry);
      assert.equal(await focused(), "a1");
      await page.keyboard.press("ArrowRight");
      assert.equal(await focused(), "a2");
      await page.keyboard.press("End");
      assert.equal(await focused(), "a8");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      assert.equal(await focused(), "c1");
      assert.equal(await page.evaluate(() => document.querySelectorAll(".timeline-svg [tabindex='0']").length), 1);
      await page.keyboard.press("Home");
      await page.keyboard.press("ArrowRight");
      const mark = host.log.length;
      await page.keyboard.press("Enter");
      const sel = await posted(host, mark, (m) => m.type === "select" && m.id === "a2", "Enter on step 2 selects a2");
      assert.equal(sel.keepLeaf, "a8", "the chart's branch stays active");
      await until(() => page.$eval(".row.selected", (r) => r.dataset.id === "a2").catch(() => false), "a2 selected in the tree");
      // A click selects too (the compaction marker here).
      const mark2 = host.log.length;
      await page.click(".timeline-compaction .timeline-hit", { force: true });
      await posted(host, mark2, (m) => m.type === "select" && m.id === "c1", "click on the compaction selects c1");
      assert.deepEqual(seen.errors, []);
    });
  });

  test("context growth chart: a branch far below its limits is drawn to its own height, the limits named above it", async () => {
    const data = realisticSession();
    const point = (k, tokens) => ({ entryId: `p${k}`, index: k, time: null, tokens, source: "recorded" });
    const small = { leafId: "a8", model: "claude-sonnet-4-5", window: 200_000, threshold: 183_616, points: [point(1, 1000), point(2, 3000), point(3, 5000)], compactions: [] };
    data.timeline = small;
    const host = new TreeHost(data);
    await explore(browser(), host, async ({ page, seen }) => {
      await page.waitForSelector(".timeline-svg .timeline-point");
      // The chart is redrawn when the branch changes: between the two drawings there is none (null).
      const shape = () => page.evaluate(() => {
        const svg = document.querySelector(".timeline-svg");
        if (!svg) return null;
        return { limits: svg.querySelectorAll(".timeline-limit").length, above: svg.querySelector(".timeline-above-label")?.textContent ?? null, labels: [...svg.querySelectorAll("text")].map((t) => t.textContent) };
      });
      const zoomed = await until(() => shape(), "the chart drawn");
      assert.equal(zoomed.limits, 0, "the threshold and window lines are off the scale");
      assert.equal(zoomed.above, "↑ auto-compact 184k · window 200k");
      assert.ok(zoomed.labels.includes("6.3k"), `the top of the scale is the branch's: ${zoomed.labels}`);
      // Near the threshold the chart is to the window again, with both lines.
      data.timeline = { ...small, leafId: "a6", points: [point(1, 40_000), point(2, 90_000)] };
      await page.click(".token-bar[data-leaf=a6]");
      await until(async () => (await shape())?.limits === 2, "the window and threshold lines");
      assert.equal((await shape())?.above, null);
      assert.deepEqual(seen.errors, []);
    });
  });

  test("context growth chart: session text in titles and labels is text, not markup", async () => {
    const data = xssSession();
    data.timeline = {
      leafId: "x6",
      model: XSS.script,
      window: 200_000,
      threshold: 183_616,
      points: [
        { entryId: XSS.img, index: 1, time: "2026-03-02T09:14:00.000Z", tokens: 1200, source: "recorded" },
        { entryId: `${XSS.anchor}\u202E`, index: 4, time: null, tokens: 1900, source: "estimated" },
      ],
      compactions: [{ entryId: XSS.style, index: 2, time: null, before: 150_000, beforeSource: "recorded", after: 900, afterSource: "estimated" }],
    };
    const host = new TreeHost(data);
    await explore(browser(), host, async ({ page, seen }) => {
      await page.waitForSelector(".timeline-svg .timeline-point");
      await page.hover(".timeline-point");
      const dom = await page.evaluate(() => {
        const svg = document.querySelector(".timeline-svg");
        return {
          pwned: window.__pwned,
          foreign: svg.querySelectorAll("img, script, style, a, foreignObject, [onerror], [onmouseover]").length,
          titles: [...svg.querySelectorAll("title")].map((t) => t.textContent),
          label: svg.getAttribute("aria-label"),
          entries: [...svg.querySelectorAll("[role=button]")].map((n) => n.dataset.entry),
        };
      });
      assert.equal(dom.pwned, undefined);
      assert.equal(dom.foreign, 0);
      assert.ok(dom.titles.some((t) => t.includes(`entry ${XSS.img}`)), dom.titles.join("\n"));
      assert.ok(dom.titles.some((t) => t.startsWith("compacted 150k -> 900") && t.includes(XSS.style)), dom.titles.join("\n"));
      assert.ok(dom.titles.some((t) => t.includes("⟨U+202E⟩")), "a bidi override is marked, not applied");
      assert.ok(dom.label.includes(XSS.script), "the model name is literal in the label");
      assert.deepEqual(dom.entries, [XSS.img, XSS.style, `${XSS.anchor}\u202E`], "the select request gets the id as it is");
      assert.deepEqual(seen.errors, []);
    });
  });

  test("context growth chart: a 20,000-step branch draws its whole line with at most 400 focusable marks", async () => {
    const data = realisticSession();
    const points = Array.from({ length: 20_000 }, (_, k) => ({ entryId: `s${k}`, index: 2 * k + 1, time: null, tokens: 1_000 + ((k * 37) % 5_000) * 30, source: k % 50 === 7 ? "estimated" : "recorded" }));
    data.timeline = { leafId: "a8", model: "claude-sonnet-4-5", window: 200_000, threshold: 183_616, points, compactions: [{ entryId: "c1", index: 20_001, time: null, before: 180_000, beforeSource: "recorded", after: 9_000, afterSource: "estimated" }] };
    const host = new TreeHost(data);
    await explore(browser(), host, async ({ page, seen }) => {
      const t0 = Date.now();
      await page.waitForSelector(".timeline-svg .timeline-point", { timeout: 30_000 });
      const drawnMs = Date.now() - t0;
      const dom = await page.evaluate(() => {
        const svg = document.querySelector(".timeline-svg");
        const vertices = [...svg.querySelectorAll(".timeline-line")].reduce((n, l) => n + l.points.numberOfItems, 0);
        return { marks: svg.querySelectorAll("[role=button]").length, drop: svg.querySelectorAll(".timeline-compaction").length, vertices, caption: document.querySelector(".timeline-caption").textContent };
      });
      console.log(`    (20,000 steps: chart in place ${drawnMs} ms after the rows; ${dom.marks} marks, ${dom.vertices} line vertices)`);
      assert.ok(dom.marks <= 400 && dom.marks > 200, `${dom.marks} marks`);
      assert.equal(dom.drop, 1);
      assert.ok(dom.vertices >= 20_000, `${dom.vertices} vertices`);
      assert.match(dom.caption, /^20,000 steps .* 1 in \d+ steps drawn as a point$/);
      assert.deepEqual(seen.errors, []);
    });
  });
}
