// Webview tests of the tree of rows: connectors, icons, chips and the active path, the
// filter, folding, the saved view state, and a broken parent link.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TreeHost } from "./fake-host.mjs";
import { explore, pickFilter, posted, realHost, rowIds, tempDir, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function treeTests(test, browser) {
  test("renders the realistic session: connectors, icons, labels, active path, default leaf, compaction, token bars", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      assert.deepEqual(await rowIds(page), ["u1", "a1", "t1", "a2", "t2", "a3", "u2", "a4", "t3", "c1", "u3", "a5", "u4", "a6", "b1", "u5", "a7", "t4", "a8", "u6", "a9"].filter((id) => host.rows.some((r) => r.id === id)));
      assert.equal(await page.locator(".row[data-id]").count(), 21);
      const info = await page.$$eval(".row[data-id]", (rows) =>
        Object.fromEntries(rows.map((r) => [r.dataset.id, { prefix: r.querySelector(".prefix").textContent, cls: r.className, chips: [...r.querySelectorAll(".chip")].map((c) => c.textContent), icon: r.querySelector(".role-icon").className, level: r.getAttribute("aria-level"), expanded: r.getAttribute("aria-expanded"), preview: r.querySelector(".preview").textContent, tokens: r.querySelector(".tokens").textContent }])),
      );
      assert.equal(info.u4.prefix, "├─ ");
      assert.equal(info.a6.prefix, "│  ");
      assert.equal(info.b1.prefix, "├─ ");
      assert.equal(info.a8.prefix, "│  ");
      assert.equal(info.u6.prefix, "└─ ");
      assert.equal(info.a9.prefix, "   ");
      assert.equal(info.a5.expanded, "true");
      assert.equal(info.u4.level, "2");
      assert.equal(info.u1.level, "1");
      assert.ok(info.u1.icon.includes("codicon-account") && info.a1.icon.includes("codicon-hubot") && info.t1.icon.includes("codicon-output"));
      assert.deepEqual(info.a6.chips, ["streaming-attempt"]);
      assert.ok(info.u5.chips.includes("batch"));
      for (const id of ["u1", "a5", "b1", "u5", "a8"]) assert.ok(info[id].cls.includes("active-path"), `${id} on active path`);
      for (const id of ["u4", "a6", "u6", "a9"]) assert.ok(!info[id].cls.includes("active-path"), `${id} off active path`);
      assert.ok(info.a8.cls.includes("active-leaf") && info.a8.cls.includes("default-leaf") && info.a8.chips.includes("leaf"));
      assert.ok(info.c1.cls.includes("compaction") && info.c1.chips.includes("compacted 142k"));
      assert.ok(info.u1.cls.includes("boundary-summarized") && info.a3.cls.includes("boundary-summarized"));
      assert.ok(info.u2.cls.includes("boundary-kept-start") && info.u2.chips.includes("kept from here"));
      assert.equal(info.t1.tokens, "3.9k");
      const bars = await page.$$eval(".token-bar", (bs) => bs.map((b) => ({ badge: b.querySelector(".source-badge").textContent, fig: b.querySelector(".bar-figure").textContent, segs: b.querySelectorAll(".bar-seg").length, marks: b.querySelectorAll(".bar-mark").length, label: b.getAttribute("aria-label") })));
      assert.deepEqual(bars.map((b) => b.badge), ["recorded usage", "estimate", "exact count"]);
      assert.equal(bars[0].fig, "148k / 200k (74%)");
      assert.ok(bars[1].fig.startsWith("~121k"));
      assert.equal(bars[0].segs, 8);
      assert.ok(bars.every((b) => b.marks === 2));
      assert.match(bars[0].label, /auto-compaction at 183,616/);
      const width = await page.$eval(".token-bar .bar-seg.seg-toolResult", (s) => s.style.width);
      assert.equal(width, "42%");
      const tree = page.locator("[role=tree]");
      assert.equal(await tree.getAttribute("aria-label"), "Session entries");
      assert.match(await page.locator(".row[data-id=a8]").getAttribute("aria-label"), /assistant message, Batch output works; tests still pass\., 120 tokens, active leaf, default leaf/);
    });
  });

  test("filter select posts setFilter and shows the filtered rows", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      let mark = host.log.length;
      await pickFilter(page, "User messages");
      const sf = await posted(host, mark, (m) => m.type === "setFilter", "setFilter user");
      assert.deepEqual(sf, { type: "setFilter", filter: "user", requestId: sf.requestId });
      assert.ok(Number.isInteger(sf.requestId));
      await until(async () => (await rowIds(page)).join() === "u1,u2,u3,u4,u5,u6", "user rows");
      mark = host.log.length;
      await pickFilter(page, "All entries");
      await posted(host, mark, (m) => m.type === "setFilter" && m.filter === "all", "setFilter all");
      await until(async () => (await rowIds(page)).length === 23, "all rows");
      assert.ok((await rowIds(page)).includes("m1") && (await rowIds(page)).includes("l1"));
      assert.match(await page.getAttribute(".row[data-id=m1] .role-icon", "class"), /codicon-settings-gear/);
      await until(() => page.evaluate(() => window.__savedState?.filter === "all"), "filter saved in view state");
    });
  });

  test("branch points fold and unfold: twisty click, Left/Right keys; toggleFold posted", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      let mark = host.log.length;
      await page.click(".row[data-id=a5] .twisty");
      assert.equal((await posted(host, mark, (m) => m.type === "toggleFold", "toggleFold")).id, "a5");
      await until(async () => (await rowIds(page)).length === 12, "folded rows");
      assert.equal(await page.getAttribute(".row[data-id=a5]", "aria-expanded"), "false");
      assert.ok((await page.textContent(".row[data-id=a5]")).includes("+3"));
      mark = host.log.length;
      await page.keyboard.press("ArrowRight");
      assert.equal((await posted(host, mark, (m) => m.type === "toggleFold", "unfold by key")).id, "a5");
      await until(async () => (await rowIds(page)).length === 21, "unfolded rows");
      mark = host.log.length;
      await page.keyboard.press("ArrowLeft");
      await posted(host, mark, (m) => m.type === "toggleFold" && m.id === "a5", "fold by key");
      await until(async () => (await rowIds(page)).length === 12, "folded again");
      await until(() => page.evaluate(() => window.__savedState?.folded?.includes("a5")), "fold saved in view state");
    });
  });

  test("view state is saved (selection, scroll, filter, folds) and restored after a reload", async () => {
    const host = new TreeHost(realisticSession());
    const state = { selectedId: "u5", selectedIndex: 4, scrollTop: 0, filter: "user", folded: ["a5"], query: "batch" };
    await explore(browser(), host, { state }, async ({ page }) => {
      assert.deepEqual(host.ready.restore, { filter: "user", folded: ["a5"] });
      // this fake host ignores `restore`, like an older host: the webview re-applies the filter itself
      await posted(host, 0, (m) => m.type === "setFilter" && m.filter === "user", "filter re-applied");
      await until(async () => (await rowIds(page)).join() === "u1,u2,u3,u4,u5,u6", "user rows");
      await until(() => page.$eval(".row.selected", (r) => r.dataset.id === "u5").catch(() => false), "u5 selected again");
      await until(() => page.$eval(".search vscode-textfield", (t) => t.value === "batch"), "query restored");
      await page.click(".row[data-id=u3]");
      await until(() => page.evaluate(() => window.__savedState?.selectedId === "u3"), "selection saved");
      const saved = await page.evaluate(() => window.__savedState);
      // View state only, plus the session path the panel serializer needs to reopen the panel.
      assert.deepEqual(Object.keys(saved).sort(), ["file", "filter", "folded", "query", "scrollTop", "selectedId", "selectedIndex"]);
      assert.equal(saved.filter, "user");
    });
  });

  test("a broken parent link (a Claude Code transcript naming a parent it does not hold): the row is marked, its title says why as text, the part after it is there", async () => {
    const dir = tempDir("ase-webview-broken-");
    const missing = "<img src=x onerror=alert(1)>";
    const line = (uuid, parentUuid, type, content) => JSON.stringify({ parentUuid, isSidechain: false, userType: "external", cwd: "/home/dev/demo", sessionId: "cc000000-0000-4000-8000-00000000000b", version: "2.1.90", type, uuid, timestamp: "2026-03-01T10:00:00.000Z", message: { role: type, content, ...(type === "assistant" ? { id: `msg_${uuid}`, model: "claude-sonnet-4-5-20250929" } : {}) } });
    const file = join(dir, "broken.jsonl");
    writeFileSync(file, [line("u1", null, "user", "first"), line("a1", "u1", "assistant", [{ type: "text", text: "one" }]), line("u2", missing, "user", "after the break"), line("a2", "u2", "assistant", [{ type: "text", text: "two" }])].join("\n") + "\n");
    const host = await realHost(file);
    await explore(browser(), host, async ({ page, seen }) => {
      const chip = page.locator(".row[data-id=u2] .broken-chip");
      await until(() => chip.count(), "the marked row");
      assert.equal(await chip.textContent(), "parent missing");
      assert.equal(await chip.getAttribute("title"), `Broken link: its parent ${missing} is not in this file (or would close a cycle), so the part from here on is shown as a root.`);
      assert.match(await page.locator(".row[data-id=u2]").getAttribute("aria-label"), /broken link: its parent is not in the file/);
      assert.equal(await page.locator(".row[data-id=u1] .broken-chip").count(), 0);
      assert.equal(await page.locator(".row[data-id=a2]").count(), 1, "the cut-off part is reachable");
      assert.equal(await page.locator(".row img").count(), 0, "the id stays text");
      assert.deepEqual(seen.errors, []);
    });
  });

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
}
