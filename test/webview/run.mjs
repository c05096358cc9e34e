// Webview tests: the built bundle in headless Debian Chromium (playwright-core) with a
// stub VS Code API and a fake host. Run: node test/webview/run.mjs
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { LargeHost, TreeHost } from "./fake-host.mjs";
import { ARTIFACTS, ROOT, importTs, openExplorer, posted, rowIds, until, writePage } from "./harness.mjs";
import { realisticSession, XSS, xssSession } from "./sessions.mjs";
import { usabilityTests } from "./usability.mjs";

const tests = [];
const test = (name, fn) => tests.push({ name, fn });
/** Marks a test that could not run (real fixtures missing outside CI); counted and reported. */
class NotRun extends Error {}
const FIXTURES = process.env.ASE_FIXTURES ?? join(ROOT, "..", "shared", "fixtures", "pi");

// ---- pure modules, in Node ----

test("rpc: replies resolve by id, error replies reject, dispose rejects pending", async () => {
  const { RpcClient, RpcDisposedError } = await importTs("webview/rpc.ts");
  const sent = [];
  const target = new EventTarget();
  const events = [];
  const rpc = new RpcClient({ postMessage: (m) => sent.push(m) }, (e) => events.push(e), target);
  const deliver = (data) => target.dispatchEvent(Object.assign(new Event("message"), { data }));
  const a = rpc.request({ type: "search", query: "x" });
  const b = rpc.request({ type: "rows", start: 0, count: 5 });
  const c = rpc.request({ type: "select", id: "q" });
  assert.deepEqual(sent.map((m) => m.requestId), [1, 2, 3]);
  deliver({ type: "reply", requestId: 2, ok: true, result: { start: 0, rows: [], rowCount: 0 } });
  deliver({ type: "reply", requestId: 1, ok: false, error: "boom" });
  deliver({ type: "notice", level: "info", text: "hi" });
  deliver({ type: "bogus" });
  assert.deepEqual(await b, { start: 0, rows: [], rowCount: 0 });
  await assert.rejects(a, /boom/);
  assert.equal(events.length, 1);
  assert.equal(rpc.pendingCount, 1);
  rpc.dispose();
  await assert.rejects(c, (e) => e instanceof RpcDisposedError);
  await assert.rejects(rpc.request({ type: "search", query: "y" }), (e) => e instanceof RpcDisposedError);
  assert.equal(sent.length, 3);
});

test("row cache: pages fetched once, concurrent asks deduplicated, LRU bounded, stale replies dropped", async () => {
  const { RowCache, PAGE_SIZE } = await importTs("webview/row-cache.ts");
  const asks = [];
  const pending = [];
  const cache = new RowCache((start, count) => {
    asks.push([start, count]);
    return new Promise((r) => pending.push(() => r({ start, rows: Array.from({ length: count }, (_, i) => ({ id: `r${start + i}` })), rowCount: 100_000 })));
  }, () => undefined);
  cache.reset(100_000);
  const p1 = cache.ensure(0, 10);
  const p2 = cache.ensure(5, PAGE_SIZE + 3);
  assert.deepEqual(asks, [[0, PAGE_SIZE], [PAGE_SIZE, PAGE_SIZE]]);
  pending.splice(0).forEach((f) => f());
  await Promise.all([p1, p2]);
  assert.equal(cache.get(PAGE_SIZE + 1).id, `r${PAGE_SIZE + 1}`);
  for (let p = 0; p < 60; p++) {
    const w = cache.ensure(p * PAGE_SIZE * 10, p * PAGE_SIZE * 10);
    pending.splice(0).forEach((f) => f());
    await w;
  }
  assert.ok(cache.cachedPages <= 24, `cached ${cache.cachedPages} pages`);
  const stale = cache.ensure(99_000, 99_000);
  cache.reset(50);
  pending.splice(0).forEach((f) => f());
  await stale;
  assert.equal(cache.get(99_000), undefined);
  assert.equal(cache.rowCount, 50);
});

test("html template: the host's CSP, nonce on the script, codicon stylesheet id, escaped URIs", async () => {
  const { explorerHtml } = await importTs("webview/html-template.ts");
  const html = explorerHtml({ cspSource: "vscode-resource:", nonce: "abcdefABCDEF0123456789", scriptUri: `x"><script>alert(1)</script>`, styleUri: "s.css", codiconUri: "c.css" });
  assert.match(html, /content="default-src 'none'; img-src data: vscode-resource:; style-src vscode-resource:; font-src vscode-resource:; script-src 'nonce-abcdefABCDEF0123456789'"/);
  assert.match(html, /<link rel="stylesheet" id="vscode-codicon-stylesheet" href="c.css">/);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.doesNotMatch(html, /\son\w+=/);
  assert.throws(() => explorerHtml({ cspSource: "x", nonce: "short", scriptUri: "a", styleUri: "b", codiconUri: "c" }));
  // The session file rides on the body, escaped: a file name is session content too.
  const withFile = explorerHtml({ cspSource: "x", nonce: "abcdefABCDEF0123456789", scriptUri: "a", styleUri: "b", codiconUri: "c", file: `/s/a"><script>alert(1)</script>.jsonl` });
  assert.match(withFile, /<body data-session-file="\/s\/a&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;\.jsonl">/);
  assert.equal((withFile.match(/<script/g) ?? []).length, 1);
});

test("images: only data:image URIs pass; control characters are made visible", async () => {
  const { isSafeImageUri } = await importTs("webview/detail-pane.ts");
  const { visible } = await importTs("webview/dom.ts");
  assert.ok(isSafeImageUri("data:image/png;base64,iVBORw0KGgo="));
  for (const bad of ["https://x/y.png", "javascript:alert(1)", "data:text/html;base64,PHNjcmlwdD4=", "data:image/svg+xml;base64,PHN2Zz4=", "data:image/png;base64,\"><script>", " data:image/png;base64,AA", undefined]) {
    assert.equal(isSafeImageUri(bad), false, String(bad));
  }
  assert.equal(visible("\u001b[31mred\u001b[0m\tok\n"), "⟨U+001B⟩[31mred⟨U+001B⟩[0m\tok\n");
  assert.equal(visible("a\u202Eb\u0000c\uD800d\u200Be"), "a⟨U+202E⟩b⟨U+0000⟩c⟨U+D800⟩d⟨U+200B⟩e");
});

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
});

// ---- in Chromium ----
let browser;

test("loads under the host's CSP: ready first, no errors, no CSP violations, no network", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host, { theme: "light" });
  try {
    assert.equal(host.log[0].type, "ready");
    assert.deepEqual(host.log[0].restore, { filter: "default", folded: [] });
    assert.deepEqual(await x.page.evaluate(() => window.__csp), []);
    assert.deepEqual(x.seen.errors, []);
    const foreign = x.seen.requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:"));
    assert.deepEqual(foreign, []);
  } finally {
    await x.close();
  }
});

test("renders the realistic session: connectors, icons, labels, active path, default leaf, compaction, token bars", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
  } finally {
    await x.close();
  }
});

test("clicking a row posts select and details; the detail pane shows text, thinking, tool calls, metadata; files list", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const mark = host.log.length;
    await page.click(".row[data-id=a1] .preview");
    await posted(host, mark, (m) => m.type === "details" && m.id === "a1", "details a1");
    await posted(host, mark, (m) => m.type === "select" && m.id === "a1", "select a1");
    await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "a1"), "detail a1");
    const text = await page.$eval(".detail-pane", (d) => d.textContent);
    for (const s of ["I'll read the CLI entry point first.", "Thinking", "Tool call: read", `"path": "src/cli/commands/list.ts"`, "claude-sonnet-4-5", "Metadata"]) assert.ok(text.includes(s), s);
    await until(() => page.locator(".file-list li").count().then((n) => n === 3), "files listed");
    assert.equal(await page.getAttribute(".row[data-id=a1]", "aria-selected"), "true");
    assert.equal(await page.getAttribute("[role=tree]", "aria-activedescendant"), await page.getAttribute(".row[data-id=a1]", "id"));
  } finally {
    await x.close();
  }
});

test("clicking a compaction shows its summary and read/modified files", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  try {
    await x.page.click(".row[data-id=c1]");
    await until(() => x.page.$eval(".detail-pane", (d) => d.dataset.id === "c1"), "detail c1");
    const info = await x.page.$eval(".compaction-info", (c) => c.textContent);
    for (const s of ["142k tokens before, kept from u2", "## Goal", "Read files (2)", "src/cli/main.ts", "Modified files (1)"]) assert.ok(info.includes(s), s);
  } finally {
    await x.close();
  }
});

test("action buttons post typed action messages for the shown entry", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await page.click(".row[data-id=a8]");
    await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "a8"), "detail a8");
    const mark = host.log.length;
    const actions = ["fork", "continue", "label", "previewContext", "compareContext", "compact"];
    for (const a of actions) await page.click(`.actions vscode-button[data-action=${a}]`);
    await until(() => host.log.slice(mark).filter((m) => m.type === "action").length === actions.length, `${actions.length} actions`);
    assert.deepEqual(host.log.slice(mark).filter((m) => m.type === "action"), actions.map((action) => ({ type: "action", action, id: "a8" })));
    // "What this compaction changed" is offered on compactions only.
    assert.equal(await page.locator(".actions vscode-button[data-action=compactionChange]").count(), 0);
    await page.click(".row[data-id=c1]");
    await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "c1"), "detail c1");
    const at = host.log.length;
    await page.click(".actions vscode-button[data-action=compactionChange]");
    await until(() => host.log.slice(at).some((m) => m.type === "action"), "the compaction action");
    assert.deepEqual(host.log.slice(at).filter((m) => m.type === "action"), [{ type: "action", action: "compactionChange", id: "c1" }]);
  } finally {
    await x.close();
  }
});

test("actions the session's format does not offer are disabled and say why; the agent is named; the rest still post", async () => {
  const base = realisticSession();
  const why = "Seed 000 sessions are read by the agent only; forks are new files";
  const host = new TreeHost({ ...base, session: { ...base.session, agent: "Seed 000", format: "seed-000", version: undefined, readOnly: true, unavailable: { continue: why, label: why, compact: why } } });
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await page.click(".row[data-id=a8]");
    await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "a8"), "detail a8");
    const buttons = await page.$$eval(".actions vscode-button", (bs) => bs.map((b) => ({ action: b.dataset.action, disabled: b.hasAttribute("disabled"), title: b.getAttribute("title") ?? "" })));
    for (const b of buttons) {
      const off = ["continue", "label", "compact"].includes(b.action);
      assert.equal(b.disabled, off, b.action);
      if (off) assert.ok(b.title.includes(why), `${b.action} says why: ${b.title}`);
    }
    const sub = await page.textContent(".session-sub");
    assert.ok(sub.startsWith("Seed 000 · "), `the agent is named in the header: ${sub}`);
    assert.ok(!sub.includes(" · v"), "no version for a format without one");
    const mark = host.log.length;
    await page.click(".actions vscode-button[data-action=label]", { force: true });
    await page.click(".actions vscode-button[data-action=fork]");
    await until(() => host.log.slice(mark).some((m) => m.type === "action" && m.action === "fork"), "fork posted");
    assert.deepEqual(host.log.slice(mark).filter((m) => m.type === "action").map((m) => m.action), ["fork"], "the disabled label button posted nothing");
  } finally {
    await x.close();
  }
});

test("file list: openable files post openFile; files outside the workspace are not clickable", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
  } finally {
    await x.close();
  }
});

test("details: long content is cut and 'show all' requests the full block", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await page.click(".row[data-id=t1]");
    const btn = page.locator("vscode-button[data-show-all='0']");
    await btn.waitFor();
    const full = host.byId.get("t1").blocks[0].full;
    assert.equal(await btn.textContent(), `Show all (${full.length.toLocaleString("en-US")} characters)`);
    assert.equal(await page.$eval(".block[data-block='0'] pre", (p) => p.textContent.length), 1200);
    const mark = host.log.length;
    await btn.click();
    const m = await posted(host, mark, (m) => m.type === "details", "details fullBlock");
    assert.equal(m.id, "t1");
    assert.equal(m.fullBlock, 0);
    await until(() => page.$eval(".block[data-block='0'] pre", (p, n) => p.textContent.length === n, full.length), "full text shown");
    assert.equal(await btn.count(), 0);
  } finally {
    await x.close();
  }
});

test("images render only from data:image URIs", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await page.click(".row[data-id=u3]");
    await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "u3"), "detail u3");
    const srcs = await page.$$eval("img", (imgs) => imgs.map((i) => i.getAttribute("src")));
    assert.equal(srcs.length, 1);
    assert.ok(srcs[0].startsWith("data:image/png;base64,"));
    assert.equal(await page.locator(".detail-pane .warning").count(), 2);
    assert.ok(await page.$eval("img.block-image", (i) => i.complete && i.naturalWidth === 1));
  } finally {
    await x.close();
  }
});

test("filter select posts setFilter and shows the filtered rows", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const pick = async (text) => {
      await page.click("vscode-single-select.filter");
      await page.locator("vscode-single-select.filter li.option", { hasText: text }).click();
    };
    let mark = host.log.length;
    await pick("User messages");
    const sf = await posted(host, mark, (m) => m.type === "setFilter", "setFilter user");
    assert.deepEqual(sf, { type: "setFilter", filter: "user", requestId: sf.requestId });
    assert.ok(Number.isInteger(sf.requestId));
    await until(async () => (await rowIds(page)).join() === "u1,u2,u3,u4,u5,u6", "user rows");
    mark = host.log.length;
    await pick("All entries");
    await posted(host, mark, (m) => m.type === "setFilter" && m.filter === "all", "setFilter all");
    await until(async () => (await rowIds(page)).length === 23, "all rows");
    assert.ok((await rowIds(page)).includes("m1") && (await rowIds(page)).includes("l1"));
    assert.match(await page.getAttribute(".row[data-id=m1] .role-icon", "class"), /codicon-settings-gear/);
    await until(() => page.evaluate(() => window.__savedState?.filter === "all"), "filter saved in view state");
  } finally {
    await x.close();
  }
});

test("branch points fold and unfold: twisty click, Left/Right keys; toggleFold posted", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
  } finally {
    await x.close();
  }
});

test("keyboard: arrows, PageUp/Down, Home/End move the selection with ARIA; Enter asks for details", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host, { viewport: { width: 1200, height: 420 } });
  const { page } = x;
  try {
    await page.focus("[role=tree]");
    const selectedId = () => page.$eval("[role=tree]", (t) => document.getElementById(t.getAttribute("aria-activedescendant") ?? "")?.dataset.id ?? null);
    let mark = host.log.length;
    await page.keyboard.press("Home");
    await until(async () => (await selectedId()) === "u1", "Home selects u1");
    await posted(host, mark, (m) => m.type === "select" && m.id === "u1", "select u1");
    mark = host.log.length;
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await until(async () => (await selectedId()) === "t1", "two down: t1");
    await posted(host, mark, (m) => m.type === "select" && m.id === "t1", "select t1");
    assert.equal(await page.getAttribute(".row[data-id=t1]", "aria-selected"), "true");
    assert.equal(await page.getAttribute(".row[data-id=u1]", "aria-selected"), "false");
    await page.keyboard.press("ArrowUp");
    await until(async () => (await selectedId()) === "a1", "up: a1");
    await page.keyboard.press("End");
    await until(async () => (await selectedId()) === "a9", "End: a9");
    await page.keyboard.press("PageUp");
    // Wait for the move itself: the selection is still a9 until the key is handled.
    const afterPageUp = await until(async () => {
      const id = await selectedId();
      return id && id !== "a9" ? id : undefined;
    }, "page up");
    const rows = (await rowIds(page));
    assert.ok(afterPageUp !== "a9", "PageUp moved");
    mark = host.log.length;
    await page.keyboard.press("Enter");
    const d = await posted(host, mark, (m) => m.type === "details", "Enter -> details");
    assert.equal(d.id, afterPageUp);
    await page.keyboard.press("PageDown");
    await until(async () => (await selectedId()) === "a9", "PageDown back to the end");
    assert.ok(rows.length > 0);
  } finally {
    await x.close();
  }
});

test("search: posts the query, jumps to matches, next/previous wrap, count shown", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const mark = host.log.length;
    const input = page.locator(".search vscode-textfield input");
    await input.fill("BATCH");
    await input.press("Enter");
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
  } finally {
    await x.close();
  }
});

test("clicking a branch's token bar selects its leaf", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const mark = host.log.length;
    await page.click(".token-bar[data-leaf=a6]");
    await posted(host, mark, (m) => m.type === "select" && m.id === "a6", "select a6");
    await until(() => page.$eval(".row.selected", (r) => r.dataset.id === "a6").catch(() => false), "a6 selected");
    await until(() => page.$eval(".token-bar.selected", (b) => b.dataset.leaf === "a6").catch(() => false), "a6 bar selected");
  } finally {
    await x.close();
  }
});

test("context growth chart: hand-made SVG of the selected branch, estimated segments dashed, compaction titled, theme colours; keyboard moves and Enter selects", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("context growth chart: a branch far below its limits is drawn to its own height, the limits named above it", async () => {
  const data = realisticSession();
  const point = (k, tokens) => ({ entryId: `p${k}`, index: k, time: null, tokens, source: "recorded" });
  const small = { leafId: "a8", model: "claude-sonnet-4-5", window: 200_000, threshold: 183_616, points: [point(1, 1000), point(2, 3000), point(3, 5000)], compactions: [] };
  data.timeline = small;
  const host = new TreeHost(data);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
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
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("context growth chart: a 20,000-step branch draws its whole line with at most 400 focusable marks", async () => {
  const data = realisticSession();
  const points = Array.from({ length: 20_000 }, (_, k) => ({ entryId: `s${k}`, index: 2 * k + 1, time: null, tokens: 1_000 + ((k * 37) % 5_000) * 30, source: k % 50 === 7 ? "estimated" : "recorded" }));
  data.timeline = { leafId: "a8", model: "claude-sonnet-4-5", window: 200_000, threshold: 183_616, points, compactions: [{ entryId: "c1", index: 20_001, time: null, before: 180_000, beforeSource: "recorded", after: 9_000, afterSource: "estimated" }] };
  const host = new TreeHost(data);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("the header shows the session's cost with where it came from; each bar's tooltip its branch's cost; a prices change updates both", async () => {
  const host = new TreeHost(realisticSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const chip = () => page.$eval(".session-head .cost-chip", (c) => ({ text: c.textContent, title: c.title, hidden: c.hidden, unpriced: c.classList.contains("cost-unpriced") }));
    const shown = await chip();
    assert.equal(shown.hidden, false);
    assert.equal(shown.text, "$1.80 · 20 steps (1 unpriced)");
    assert.equal(shown.unpriced, true);
    assert.equal(
      shown.title,
      [
        "Cost of the whole session (every branch): $1.80 · 20 steps (1 unpriced)",
        "recorded by the agent: $1.50 (15 steps)",
        "priced per model: $0.30 (4 steps)",
        "unpriced, not in the total: 1 step, 2.1k tokens of local-llama (set agentSessions.modelPrices to price them)",
      ].join("\n"),
    );
    const barTip = (leaf) => page.$eval(`.token-bar[data-leaf=${leaf}]`, (b) => ({ title: b.title, label: b.getAttribute("aria-label"), head: b.querySelector(".bar-title").title }));
    const a8 = await barTip("a8");
    assert.equal(a8.title, "Cost of this branch (root to leaf): $1.23 · 12 steps");
    assert.ok(a8.label.endsWith(". Cost of this branch (root to leaf): $1.23 · 12 steps"), a8.label);
    assert.equal(a8.head, "Active branch (batch)\nCost of this branch (root to leaf): $1.23 · 12 steps");
    assert.equal((await barTip("a6")).title, "Cost of this branch (root to leaf): $0.30 · 4 steps (1 unpriced)");
    assert.equal((await barTip("a9")).title, "", "a bar without a cost has no cost tooltip");
    // The user priced local-llama: the host sends the new figures.
    const cost = { usd: 1.81, steps: 20, recordedUsd: 1.5, recordedSteps: 15, pricedUsd: 0.31, pricedSteps: 5, unpricedSteps: 0, unpricedTokens: 0, unpricedModels: [] };
    await host.send({ type: "cost", cost, bars: host.data.bars.map((b) => (b.leafId === "a6" ? { ...b, cost: { usd: 0.31, steps: 4, unpricedSteps: 0 } } : b)) });
    await until(async () => (await chip()).text === "$1.81 · 20 steps", "new cost shown");
    assert.equal((await chip()).unpriced, false);
    assert.doesNotMatch((await chip()).title, /unpriced/);
    assert.equal((await barTip("a6")).title, "Cost of this branch (root to leaf): $0.31 · 4 steps");
    // A session with no step to cost shows no cost at all.
    await host.send({ ...host.init(), cost: { ...cost, usd: 0, steps: 0, recordedUsd: 0, recordedSteps: 0, pricedUsd: 0, pricedSteps: 0 } });
    await until(async () => (await chip()).hidden, "cost hidden");
    assert.equal(await page.locator(".cost-chip:visible").count(), 0);
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("VS Code's context menu: each row and bar names its entry (and a boundary says so); the body says which writes the session offers", async () => {
  const data = realisticSession();
  data.session.unavailable = { label: "not here", compact: "not here either" };
  const host = new TreeHost(data);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const ctx = (sel) => page.$eval(sel, (n) => JSON.parse(n.dataset.vscodeContext));
    assert.deepEqual(await ctx(".row[data-id=a1]"), { webviewSection: "row", entryId: "a1", isBoundary: false, preventDefaultContextMenuItems: true });
    assert.deepEqual(await ctx(".row[data-id=c1]"), { webviewSection: "row", entryId: "c1", isBoundary: true, preventDefaultContextMenuItems: true });
    assert.deepEqual(await ctx(".token-bar[data-leaf=a8]"), { webviewSection: "bar", entryId: "a8", preventDefaultContextMenuItems: true });
    await until(async () => (await page.evaluate(() => document.body.dataset.vscodeContext)) !== undefined, "the body's context");
    const body = await ctx("body");
    assert.deepEqual(body, { sessionPath: data.session.path, offers_fork: true, offers_continue: true, offers_label: false, offers_compact: false });
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("XSS payloads stay inert and show literally (rows, labels, details, files, notices, title)", async () => {
  const host = new TreeHost(xssSession());
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await page.click("vscode-single-select.filter");
    await page.locator("vscode-single-select.filter li.option", { hasText: "All entries" }).click();
    for (const id of ["x1", "x2", "x3", "x4", "x5", "x6"]) {
      await page.click(`.row[data-id=${id}] .preview`);
      await until(() => page.$eval(".detail-pane", (d, id) => d.dataset.id === id, id), `detail ${id}`);
      await page.hover(`.row[data-id=${id}] .preview`);
      await page.hover(".detail-pane");
    }
    await host.send({ type: "notice", level: "warning", text: XSS.script + XSS.img });
    await page.waitForSelector(".notice");
    await page.waitForTimeout(200);
    const dom = await page.evaluate(() => ({
      pwned: window.__pwned,
      scripts: document.querySelectorAll("script").length,
      imgs: document.querySelectorAll("img").length,
      anchors: document.querySelectorAll("a").length,
      styles: document.querySelectorAll("body style").length,
      handlers: document.querySelectorAll("[onerror],[onload],[onmouseover],[onclick]").length,
      bodyShown: getComputedStyle(document.body).display,
      text: document.body.innerText,
      titles: [...document.querySelectorAll("[title]")].map((e) => e.getAttribute("title")).join("\n"),
    }));
    assert.equal(dom.pwned, undefined);
    assert.deepEqual(x.seen.dialogs, []);
    assert.equal(dom.scripts, 1);
    assert.equal(dom.imgs, 0);
    assert.equal(dom.anchors, 0);
    assert.equal(dom.styles, 0);
    assert.equal(dom.handlers, 0);
    assert.notEqual(dom.bodyShown, "none");
    for (const p of [XSS.script, XSS.img, XSS.link, XSS.anchor, XSS.style]) assert.ok(dom.text.includes(p), `literal: ${p}`);
    assert.ok(dom.text.includes("⟨U+001B⟩[31mRED⟨U+001B⟩[0m"), "ANSI escape shown as a mark");
    assert.ok(dom.titles.includes(XSS.script), "path in a title attribute, as text");
    assert.ok(dom.titles.includes(`of ${XSS.img} (set agentSessions.modelPrices`), "an unpriced model's name in the cost tooltip, as text");
    await page.click(".row[data-id=x3] .preview");
    await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "x3"), "detail x3");
    assert.equal(await page.locator(".detail-pane .warning").count(), 1, "javascript: image refused");
    assert.equal(await page.locator("img").count(), 0);
    assert.equal(await page.locator(".file-list span.file", { hasText: "javascript:" }).count(), 1);
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
  } finally {
    await x.close();
  }
});

test("a hostile session through the real core: markup inert and literal, bidi/ANSI/NUL marked everywhere, a 1 MB line and label stay responsive", async () => {
  const { createRealHost, writeHostileSession, HOSTILE, MARKS, RAW_HIDDEN } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
  const dir = mkdtempSync(join(tmpdir(), "ase-webview-hostile-"));
  const { file, ids } = writeHostileSession(dir);
  const host = await createRealHost(file);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await page.click("vscode-single-select.filter");
    await page.locator("vscode-single-select.filter li.option", { hasText: "All entries" }).click();
    await until(() => page.locator(`.row[data-id='${ids.custom}']`).count(), "the custom entry's row");
    // Every row's details, each shown within the harness's wait: the 1 MB entry too.
    for (const id of [ids.first, ids.tool, ids.custom, ids.big, ids.leaf, ids.first, ids.side]) {
      await page.click(`.row[data-id='${id}'] .preview`);
      await until(() => page.$eval(".detail-pane", (d, id) => d.dataset.id === id, id), `details of ${id}`);
      await page.hover(`.row[data-id='${id}'] .preview`);
    }
    // The selected side branch's leaf carries the hostile label: its bar is titled with it.
    await until(() => page.$$eval(".bar-title", (t) => t.some((e) => e.textContent.includes("Selected branch"))), "the selected branch's bar");
    await page.hover(".token-bar .bar-title >> nth=1");
    // A notice built in the page keeps its lone surrogate (the transport would not).
    await page.evaluate(() => window.postMessage({ type: "notice", level: "warning", text: `notice lone\uD800x <b onmouseover="window.__pwned=9">b</b> \u202E` }, "*"));
    await page.waitForSelector(".notice");
    const dom = await page.evaluate(() => ({
      pwned: window.__pwned,
      scripts: document.querySelectorAll("script").length,
      imgs: document.querySelectorAll("img").length,
      bolds: document.querySelectorAll("b").length,
      handlers: document.querySelectorAll("[onerror],[onload],[onmouseover],[onclick]").length,
      text: document.body.innerText,
      attrs: [...document.querySelectorAll("*")].flatMap((e) => ["title", "aria-label", "alt"].map((a) => e.getAttribute(a) ?? "")).join("\n"),
      title: document.querySelector(".session-title").textContent,
      subtitle: document.querySelector(".session-sub").textContent,
      labelChip: document.querySelector(`.row[data-id='00000001'] .label-chip`).textContent,
      bigChip: document.querySelector(`.row[data-id='00000007'] .label-chip`).textContent,
      barTitles: [...document.querySelectorAll(".bar-title")].map((e) => e.textContent).join("\n"),
    }));
    assert.equal(dom.pwned, undefined);
    assert.deepEqual(x.seen.dialogs, []);
    assert.equal(dom.scripts, 1, "no <script> from content");
    assert.equal(dom.imgs, 0, "no <img> from content");
    assert.equal(dom.bolds, 0, "no <b> from content");
    assert.equal(dom.handlers, 0);
    for (const lit of [HOSTILE.html, HOSTILE.script]) assert.ok(dom.text.includes(lit), `literal: ${lit}`);
    const raw = RAW_HIDDEN.exec(dom.text) ?? RAW_HIDDEN.exec(dom.attrs);
    assert.equal(raw, null, `a raw hidden character in the page: U+${raw?.[0].charCodeAt(0).toString(16)}`);
    assert.equal(dom.title, `invoice${MARKS.rlo}fdp.exe ${HOSTILE.html} ${MARKS.esc}[31mRED${MARKS.esc}[0m${MARKS.esc}]0;pwned-title${MARKS.bel}`);
    assert.match(dom.subtitle, /^pi · \/home\/ana\/⟨U\+202E⟩gnp\.js · v3$/);
    assert.equal(dom.labelChip, `${HOSTILE.html}ok\\n◉ 99999999 user: forged rowa${MARKS.nul}blone${MARKS.lone}x${MARKS.rlo}`, "the label chip: one line, marked");
    assert.ok(dom.bigChip.length <= 120 + 8 && dom.bigChip.startsWith(`${MARKS.rlo}big label yyy`) && dom.bigChip.endsWith("…"), `the megabyte label is cut in its chip: ${dom.bigChip.length} chars`);
    assert.ok(dom.barTitles.includes(`Selected branch [${HOSTILE.html}ok\\n◉ 99999999`), dom.barTitles);
    for (const m of [MARKS.rlo, MARKS.esc, MARKS.nul, MARKS.lone, MARKS.bel]) assert.ok(dom.text.includes(m), `mark shown: ${m}`);
    assert.ok(dom.text.includes(`notice lone${MARKS.lone}x <b onmouseover`), "the notice's markup and lone surrogate, literal");
    // The file read along the leaf's path: its name marked in the file list.
    await page.click(`.row[data-id='${ids.leaf}'] .preview`);
    await until(() => page.textContent(".file-list").then((t) => t.includes(`src/${MARKS.rlo}txt.jsa${MARKS.nul}b`)), "the hostile file path, marked");
    // The tool call's name and the custom type, in the details' block titles and rows.
    await page.click(`.row[data-id='${ids.tool}'] .preview`);
    await until(() => page.$eval(".detail-pane", (d, id) => d.dataset.id === id, ids.tool), "tool result details");
    assert.ok((await page.textContent(".detail-pane")).includes(`read${HOSTILE.script}${MARKS.rlo}`));
    // The 1 MB message: cut for display, then shown whole on request; the page still answers.
    await page.click(`.row[data-id='${ids.big}'] .preview`);
    const more = page.locator(".detail-pane vscode-button[data-show-all]");
    await more.first().waitFor();
    await more.first().click();
    await until(() => page.$$eval(".detail-pane pre", (ps, n) => ps.some((p) => p.textContent.length > n), 1024 * 1024), "the whole megabyte line shown", 20_000);
    await page.click(`.row[data-id='${ids.leaf}'] .preview`);
    await until(() => page.$eval(".detail-pane", (d, id) => d.dataset.id === id, ids.leaf), "a selection after the megabyte line", 10_000);
    await page.keyboard.press("ArrowUp");
    await until(() => page.$eval(".row.selected", (r) => r.dataset.id !== "00000009").catch(() => false), "the keyboard still moves the selection", 10_000);
    assert.deepEqual(x.seen.errors, []);
    assert.deepEqual(await page.evaluate(() => window.__csp), []);
    await page.screenshot({ path: join(ARTIFACTS, "hostile-session.png") });
  } finally {
    await x.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("100,000 rows: the DOM keeps only the visible rows at the top, middle and end; pages fetched on demand", async () => {
  const host = new LargeHost(100_000);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const domRows = () => page.locator(".row").count();
    const topId = async () => (await rowIds(page))[0];
    assert.ok((await domRows()) < 200, `DOM rows at start: ${await domRows()}`);
    assert.equal(await topId(), "n0");
    assert.equal(await page.getAttribute(".row[data-id=n0]", "aria-setsize"), "100000");
    // the container is not a tall spacer: nothing in the page is taller than the window
    assert.ok(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1));
    // wheel: 100 rows down
    await page.mouse.move(300, 300);
    await page.mouse.wheel(0, 2200);
    await until(async () => (await topId()) === "n100", "wheel 100 rows");
    // drag the scrollbar thumb to the middle
    const track = await page.locator(".vlist-track").boundingBox();
    const thumb = await page.locator(".vlist-thumb").boundingBox();
    await page.mouse.move(thumb.x + thumb.width / 2, thumb.y + thumb.height / 2);
    await page.mouse.down();
    await page.mouse.move(thumb.x + thumb.width / 2, track.y + track.height / 2, { steps: 8 });
    await page.mouse.up();
    await until(async () => {
      const ids = await rowIds(page);
      const n = Number((ids[0] ?? "n0").slice(1));
      return n > 45_000 && n < 55_000 && ids.length > 10;
    }, "middle rows loaded");
    const mid = await rowIds(page);
    const first = Number(mid[0].slice(1));
    mid.forEach((id, k) => assert.equal(id, `n${first + k}`));
    assert.ok((await domRows()) < 200, `DOM rows in the middle: ${await domRows()}`);
    assert.match(await page.textContent(`.row[data-id=n${first}] .preview`), new RegExp(`^Row ${first}: `));
    // End key: the last row
    await page.focus("[role=tree]");
    const t0 = Date.now();
    await page.keyboard.press("End");
    await until(() => page.locator(".row[data-id=n99999].selected").count(), "last row selected");
    const endMs = Date.now() - t0;
    assert.ok((await domRows()) < 200, `DOM rows at the end: ${await domRows()}`);
    const end = await rowIds(page);
    assert.equal(end.at(-1), "n99999");
    assert.ok(host.rowsServed < 3000, `rows fetched: ${host.rowsServed}`);
    const rowsRequests = host.log.filter((m) => m.type === "rows");
    assert.ok(rowsRequests.every((m) => m.count <= 128));
    // smoothness: 60 wheel steps through unfetched territory, frames stay short
    const jank = await page.evaluate(async () => {
      const vp = document.querySelector(".vlist");
      let worst = 0;
      let last = performance.now();
      for (let i = 0; i < 60; i++) {
        vp.dispatchEvent(new WheelEvent("wheel", { deltaY: -600, bubbles: true, cancelable: true }));
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
      }
      return worst;
    });
    // Frame times are figures, not assertions (speed is the bench's job; a busy machine
    // made a 388 ms frame): what must hold is that wheeling through unfetched rows
    // keeps the DOM small and ends on contiguous, filled rows.
    console.log(`    (End key to painted: ${endMs} ms; worst frame while wheeling: ${jank.toFixed(1)} ms; rows fetched: ${host.rowsServed})`);
    assert.ok((await domRows()) < 200, `DOM rows after wheeling: ${await domRows()}`);
    await until(async () => {
      const ids = await rowIds(page);
      const first = Number((ids[0] ?? "n0").slice(1));
      return ids.length > 10 && first < 99_000 && ids.every((id, k) => id === `n${first + k}`);
    }, "contiguous rows after wheeling up");
  } finally {
    await x.close();
  }
});

test("1,000,000 rows: End reaches the last row, a row near the end is clicked and selected, search jumps there", async () => {
  class MillionHost extends LargeHost {
    answer(m) {
      return m.type === "search" ? { matches: [999_990] } : super.answer(m);
    }
  }
  const host = new MillionHost(1_000_000);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    assert.equal(await page.getAttribute(".row[data-id=n0]", "aria-setsize"), "1000000");
    await page.click(".row[data-id=n1]");
    await page.keyboard.press("End");
    await until(() => page.locator(".row[data-id=n999999].selected").count(), "the last row selected");
    await page.click(".row[data-id=n999995]");
    await until(() => page.locator(".row[data-id=n999995].selected").count(), "n999995 selected");
    await until(() => host.log.some((m) => m.type === "select" && m.id === "n999995"), "the host asked for n999995");
    await page.keyboard.press("Enter");
    await until(() => host.log.some((m) => m.type === "details" && m.id === "n999995"), "details of n999995");
    await until(async () => (await page.textContent(".detail-pane").catch(() => "")).includes("Row 999995"), "details shown");
    await page.keyboard.press("Home");
    await until(() => page.locator(".row[data-id=n0].selected").count(), "back to the first row");
    const input = page.locator(".search vscode-textfield input");
    await input.fill("row");
    await input.press("Enter");
    await until(() => page.locator(".row[data-id=n999990].selected").count(), "search result n999990");
    assert.ok((await page.locator(".row").count()) < 200, "the DOM keeps only the visible rows");
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("Enter while the typed query's search is still on its way steps to its first match (it was lost)", async () => {
  const host = new LargeHost(100_000);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
  } finally {
    await x.close();
  }
});

test("100,000 rows: search results far away are scrolled to and selected", async () => {
  const host = new LargeHost(100_000);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const input = page.locator(".search vscode-textfield input");
    await input.fill("row");
    await input.press("Enter");
    await until(() => page.locator(".row[data-id=n12].selected").count(), "n12");
    await input.press("Enter");
    await until(() => page.locator(".row[data-id=n50000].selected").count(), "n50000");
    await input.press("Enter");
    await until(() => page.locator(".row[data-id=n99990].selected").count(), "n99990");
    assert.equal(await page.textContent(".search-status"), "3 of 3");
    assert.ok((await page.locator(".row").count()) < 200);
  } finally {
    await x.close();
  }
});

test("view state is saved (selection, scroll, filter, folds) and restored after a reload", async () => {
  const host = new TreeHost(realisticSession());
  const state = { selectedId: "u5", selectedIndex: 4, scrollTop: 0, filter: "user", folded: ["a5"], query: "batch" };
  const x = await openExplorer(browser, host, { state });
  const { page } = x;
  try {
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
  } finally {
    await x.close();
  }
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
  const x = await openExplorer(browser, new OverHost(50));
  const { page } = x;
  try {
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
  } finally {
    await x.close();
  }
});

test("the page saves its session file at once, before the session has loaded (a reload then still reopens the panel)", async () => {
  const file = "/home/ana/.pi/agent/sessions/--home-ana-big--/2026-01-01T00-00-00-000Z_big.jsonl";
  const { path } = await writePage({ file });
  const host = new LargeHost(100);
  host.deferInit = true;
  const x = await openExplorer(browser, host, { waitForRows: false, pagePath: path });
  const { page } = x;
  try {
    await until(() => host.ready, "ready");
    // No init yet: the host is still loading. The state already names the file.
    await until(() => page.evaluate((f) => window.__savedState?.file === f, file), "the file in the saved state");
    assert.equal(await page.textContent(".session-title"), "");
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("live updates: sessionChanged refetches rows and keeps the tail in view; notices show", async () => {
  const host = new LargeHost(1000);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await page.focus("[role=tree]");
    await page.keyboard.press("End");
    await until(() => page.locator(".row[data-id=n999]").count(), "tail");
    host.rowCount = 1005;
    const init = host.init();
    await host.send({ type: "sessionChanged", session: init.session, rowCount: 1005, added: 5, bars: init.bars });
    await until(() => page.locator(".row[data-id=n1004]").count(), "appended rows shown");
    // Exact counts finished in the host: the bars are redrawn from a "bars" message.
    const exactBars = init.bars.map((b) => ({ ...b, total: 123_456, source: "exact" }));
    // The End key's selection asks the host for bars after a debounce, and this fake host
    // answers with its recorded figures: that reply could land after the bars message and
    // undo the redraw looked for here. The reply is posted as soon as the request is
    // logged, so once it is, the bars message reaches the page after it.
    await until(() => host.log.some((m) => m.type === "select" && m.id === "n999"), "the End key's select");
    await host.send({ type: "bars", bars: exactBars });
    // Figure and badge read together.
    await until(
      () => page.$$eval(".token-bar", (bs) => bs.some((b) => b.querySelector(".bar-figure").textContent.startsWith("123k") && b.querySelector(".source-badge").textContent === "exact count")),
      "bars redrawn from the bars message, with the exact-count badge",
    );
    await host.send({ type: "notice", level: "info", text: "File was rewritten; reloaded." });
    await page.waitForSelector(".notice-info");
    await page.click(".notice vscode-button");
    assert.equal(await page.locator(".notice").count(), 0);
  } finally {
    await x.close();
  }
});

test("while the host still loads a large session, the header shows how much it has read", async () => {
  const host = new LargeHost(1000);
  host.deferInit = true;
  const x = await openExplorer(browser, host, { waitForRows: false });
  const { page } = x;
  try {
    await until(() => host.ready, "ready");
    const header = () => page.$eval(".session-head", (h) => [h.querySelector(".session-title").textContent, h.querySelector(".session-sub").textContent]);
    await host.send({ type: "loading", bytesRead: 0.42 * 1.6 * 2 ** 30, totalBytes: 1.6 * 2 ** 30 });
    await until(async () => (await header())[1] === "42% of 1.6 GB read", "progress shown");
    assert.equal((await header())[0], "Loading session…");
    assert.equal(await page.getAttribute("#app", "aria-busy"), "true");
    const init = host.init();
    await host.send(init);
    await until(() => page.locator(".row[data-id]").count(), "rows after init");
    assert.equal((await header())[0], init.session.name ?? init.session.path.split("/").pop());
    // Late progress (a reload racing the end of the load) does not overwrite the session.
    await host.send({ type: "loading", bytesRead: 1, totalBytes: 2 });
    await page.waitForTimeout(100);
    assert.notEqual((await header())[0], "Loading session…");
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("a session that could not be loaded says why instead of 'Loading session…', and Retry loads it", async () => {
  const host = new LargeHost(200);
  host.deferInit = true;
  const x = await openExplorer(browser, host, { waitForRows: false });
  const { page } = x;
  try {
    await until(() => host.ready, "ready");
    await host.send({ type: "loading", bytesRead: 10, totalBytes: 100 });
    const reason = "/home/ana/s.jsonl:1: expected a session header <b>not</b> {\"type\":\"message\"}";
    await host.send({ type: "loadFailed", file: "/home/ana/s\u202Egnp.jsonl", reason });
    await until(() => page.locator(".load-failed").count(), "the failure shown");
    assert.equal(await page.textContent(".session-title"), "Could not load this session");
    assert.equal(await page.textContent(".session-sub"), "/home/ana/s⟨U+202E⟩gnp.jsonl", "the file's name, its bidi override marked");
    assert.equal(await page.textContent(".load-failed-reason"), reason, "the reason, as text");
    assert.equal(await page.locator(".load-failed-reason b").count(), 0, "never as HTML");
    assert.equal(await page.getAttribute("#app", "aria-busy"), null, "no longer busy");
    assert.equal(await page.getAttribute(".load-failed", "role"), "alert");
    await page.click(".retry-load");
    await until(() => host.log.some((m) => m.type === "retryLoad"), "retryLoad sent");
    assert.equal(await page.textContent(".session-title"), "Loading session…");
    await host.send(host.init());
    await until(() => page.locator(".row[data-id]").count(), "rows after the retry");
    assert.equal(await page.locator(".load-failed").count(), 0, "the failure is gone");
    await page.click(".row[data-id=n3]");
    await until(() => host.log.some((m) => m.type === "select" && m.id === "n3"), "a row can be selected");
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("a large session shown from its first part says it is reading the rest, then takes the rest in place", async () => {
  const host = new LargeHost(300);
  const x = await openExplorer(browser, host, { waitForRows: false });
  const { page } = x;
  const total = 1.6 * 2 ** 30;
  try {
    await until(() => host.ready, "ready");
    const first = host.init();
    first.session.reading = { bytesRead: 32 * 2 ** 20, totalBytes: total };
    await host.send(first);
    await until(() => page.locator(".row[data-id]").count(), "rows of the first part");
    const chip = () => page.$eval(".session-head", (h) => h.querySelector(".reading-chip")?.textContent ?? null);
    assert.equal(await chip(), "reading the rest… 1%");
    assert.equal(await page.getAttribute(".reading-chip", "role"), "status");
    await host.send({ type: "loading", bytesRead: 0.42 * total, totalBytes: total });
    await until(async () => (await chip()) === "reading the rest… 42%", "progress in the chip");
    // The tooltip names the part shown, not what has been read since.
    assert.equal(await page.getAttribute(".reading-chip", "title"), "The tree shows the entries of the first 32 MB of 1.6 GB; the rest is being read and will be added.");
    // The reader scrolls and picks a row of the first part meanwhile.
    await page.click(".row[data-id=n5] .preview");
    await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "n5"), "details");
    // The rest arrives as entries appended would: more rows, no reading chip, the pick kept.
    host.rowCount = 5000;
    const done = host.init();
    await host.send({ type: "sessionChanged", session: done.session, rowCount: done.rowCount, added: 4700, bars: done.bars });
    await until(async () => (await chip()) === null, "the chip to go");
    await until(() => page.$eval("vscode-badge", (b) => b.textContent === "5,000"), "the full entry count");
    assert.equal(await page.$eval(".detail-pane", (d) => d.dataset.id), "n5");
    // Late progress after the end changes nothing.
    await host.send({ type: "loading", bytesRead: total / 2, totalBytes: total });
    await page.waitForTimeout(100);
    assert.equal(await chip(), null);
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("showEntry from the host (a search hit): the webview asks to reveal it, unfolds and widens the filter as the host says, selects the row and shows its details", async () => {
  const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
  const dir = mkdtempSync(join(tmpdir(), "ase-webview-show-"));
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
  const host = await createRealHost(file);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await page.click(".row[data-id='000000u1'] .twisty");
    await until(async () => !(await rowIds(page)).includes("000000a2"), "u1 folded");
    let mark = host.log.length;
    await page.evaluate(() => window.postMessage({ type: "showEntry", id: "000000a2" }, "*"));
    await posted(host, mark, (m) => m.type === "reveal" && m.id === "000000a2", "a reveal request for a2");
    await until(() => page.getAttribute(".row[data-id='000000a2']", "aria-selected").then((v) => v === "true").catch(() => false), "a2's row shown and selected");
    await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "000000a2"), "a2's details");
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
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("screenshots: light, dark and both high-contrast themes", async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  for (const theme of ["light", "dark", "high-contrast", "high-contrast-light"]) {
    const host = new TreeHost(realisticSession());
    const x = await openExplorer(browser, host, { theme, viewport: { width: 1280, height: 800 } });
    const { page } = x;
    try {
      await page.click(".row[data-id=a7] .preview");
      await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "a7"), "details");
      await page.waitForSelector(".file-list li");
      await page.locator(".search vscode-textfield input").fill("batch");
      await until(() => page.locator(".row.match").count(), "matches");
      await page.focus("[role=tree]");
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(150);
      const file = join(ARTIFACTS, `explorer-${theme}.png`);
      await page.screenshot({ path: file });
      assert.deepEqual(x.seen.errors, []);
    } finally {
      await x.close();
    }
  }
});

test("renders a real pi session (before-compaction.jsonl) with the rows, details and bars the real core serves", async () => {
  const file = join(FIXTURES, "before-compaction.jsonl");
  if (!existsSync(file)) {
    if (process.env.CI) throw new Error(`real fixture missing: ${file}`);
    throw new NotRun(`real fixture not found at ${file}`);
  }
  const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
  const host = await createRealHost(file);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    await until(() => page.locator(".row[data-id='00000002']").count(), "first row");
    const first = page.locator(".row[data-id='00000002']");
    assert.match(await first.locator(".preview").textContent(), /^alright, read @packages\/coding-agent\/src\/main\.ts/);
    // Everything before the last compaction's kept part is drawn as summarized.
    assert.ok((await first.getAttribute("class")).includes("boundary-summarized"));
    assert.equal(await page.locator(".session-title").textContent(), "before-compaction.jsonl");
    // Search for the compactions: both are found, and the row shows what it did.
    const input = page.locator(".search vscode-textfield input");
    await input.fill("tokens summarized");
    await input.press("Enter");
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
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("a real Claude Code compaction (agentlogs-compact.jsonl): manual or auto, tokens before, what it summarized, and its summary", async () => {
  const file = join(ROOT, "..", "shared", "fixtures", "claude-code", "real", "agentlogs-compact.jsonl");
  if (!existsSync(file)) {
    if (process.env.CI) throw new Error(`real fixture missing: ${file}`);
    throw new NotRun(`real fixture not found at ${file}`);
  }
  const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
  const host = await createRealHost(file);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
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
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("a real Claude Code response starting three sub-agents (ccl-subagents-v2.1.114): one row, its details name each sub-agent and open its transcript", async () => {
  const file = join(ROOT, "..", "shared", "fixtures", "claude-code", "real", "ccl-subagents-v2.1.114", "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl");
  if (!existsSync(file)) {
    if (process.env.CI) throw new Error(`real fixture missing: ${file}`);
    throw new NotRun(`real fixture not found at ${file}`);
  }
  const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
  const host = await createRealHost(file);
  const x = await openExplorer(browser, host);
  const { page } = x;
  // The response's seven lines (thinking, three TaskUpdate and three Agent calls) are one row: its last line.
  const last = "354c4ace-b8bd-4797-8d27-65155d5df196";
  try {
    const input = page.locator(".search vscode-textfield input");
    await input.fill("Research Steve Yegge Beads");
    await input.press("Enter");
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
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
  }
});

test("a broken parent link (a Claude Code transcript naming a parent it does not hold): the row is marked, its title says why as text, the part after it is there", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ase-webview-broken-"));
  const missing = "<img src=x onerror=alert(1)>";
  const line = (uuid, parentUuid, type, content) => JSON.stringify({ parentUuid, isSidechain: false, userType: "external", cwd: "/home/dev/demo", sessionId: "cc000000-0000-4000-8000-00000000000b", version: "2.1.90", type, uuid, timestamp: "2026-03-01T10:00:00.000Z", message: { role: type, content, ...(type === "assistant" ? { id: `msg_${uuid}`, model: "claude-sonnet-4-5-20250929" } : {}) } });
  const file = join(dir, "broken.jsonl");
  writeFileSync(file, [line("u1", null, "user", "first"), line("a1", "u1", "assistant", [{ type: "text", text: "one" }]), line("u2", missing, "user", "after the break"), line("a2", "u2", "assistant", [{ type: "text", text: "two" }])].join("\n") + "\n");
  const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
  const host = await createRealHost(file);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const chip = page.locator(".row[data-id=u2] .broken-chip");
    await until(() => chip.count(), "the marked row");
    assert.equal(await chip.textContent(), "parent missing");
    assert.equal(await chip.getAttribute("title"), `Broken link: its parent ${missing} is not in this file (or would close a cycle), so the part from here on is shown as a root.`);
    assert.match(await page.locator(".row[data-id=u2]").getAttribute("aria-label"), /broken link: its parent is not in the file/);
    assert.equal(await page.locator(".row[data-id=u1] .broken-chip").count(), 0);
    assert.equal(await page.locator(".row[data-id=a2]").count(), 1, "the cut-off part is reachable");
    assert.equal(await page.locator(".row img").count(), 0, "the id stays text");
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

usabilityTests(test, () => browser);
(await import("./subagents.mjs")).subagentTests(test, () => browser);
test("an edit diff in the detail pane: a Claude Code Edit's row says what it did, its details show - and + lines as text (markup inert), the title for a person and the type name beside it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ase-webview-edit-"));
  const cwd = "/home/dev/demo";
  const env = { isSidechain: false, userType: "external", cwd, sessionId: "cc000000-0000-4000-8000-00000000000e", version: "2.1.90", timestamp: "2026-03-01T10:00:00.000Z" };
  const edit = { file_path: `${cwd}/src/csv.js`, old_string: "const a = 1;\nsplit(',');\nconst z = 2;", new_string: "const a = 1;\nsplit(';'); <img src=x onerror=alert(1)>\nconst z = 2;" };
  const lines = [
    { ...env, parentUuid: null, type: "user", uuid: "u1", message: { role: "user", content: "use semicolons" } },
    { ...env, parentUuid: "u1", type: "assistant", uuid: "a1", message: { role: "assistant", id: "msg_1", model: "claude-sonnet-4-5-20250929", content: [{ type: "tool_use", id: "tu_1", name: "Edit", input: edit }] } },
  ];
  const file = join(dir, "edit.jsonl");
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
  const host = await createRealHost(file);
  const x = await openExplorer(browser, host);
  const { page } = x;
  try {
    const row = page.locator(".row[data-id=a1]");
    await until(() => row.count(), "the edit's row");
    assert.equal(await row.locator(".preview").textContent(), "Edit src/csv.js (-1 +1)");
    await row.locator(".preview").click();
    await page.keyboard.press("Enter");
    await until(() => page.locator(".detail-pane .edit-diff").count(), "the edit's diff");
    assert.equal(await page.textContent(".detail-pane .detail-kind"), "Tool call");
    assert.equal(await page.textContent(".detail-pane .detail-type-name"), "tool_use");
    assert.match(await page.getAttribute(".detail-pane .detail-kind", "title"), /tool_use/);
    assert.equal(await page.textContent(".detail-pane .block-title span:last-child"), "Tool call: Edit src/csv.js (-1 +1)");
    const diff = await page.$$eval(".detail-pane .edit-diff .diff-line", (els) => els.map((e) => [e.className, e.textContent]));
    assert.deepEqual(diff, [
      ["diff-line diff-same", "  const a = 1;\n"],
      ["diff-line diff-del", "- split(',');\n"],
      ["diff-line diff-add", "+ split(';'); <img src=x onerror=alert(1)>\n"],
      ["diff-line diff-same", "  const z = 2;\n"],
    ]);
    assert.equal(await page.textContent(".detail-pane .edit-diff-title"), "Edit src/csv.js: -1 +1");
    assert.equal(await page.locator(".detail-pane img").count(), 0, "the new text stays text");
    assert.equal(await page.locator(".detail-pane .kind-toolCall .block-text").count(), 0, "the diff stands where the input's JSON was");
    // Added and removed lines are coloured apart, from the theme.
    const bg = await page.$$eval(".detail-pane .diff-del, .detail-pane .diff-add", (els) => els.map((e) => getComputedStyle(e).backgroundColor));
    assert.notEqual(bg[0], bg[1]);
    assert.ok(bg.every((c) => c !== "rgba(0, 0, 0, 0)"), bg.join(" "));
    await page.screenshot({ path: join(ARTIFACTS, "edit-diff.png") });
    assert.deepEqual(x.seen.errors, []);
  } finally {
    await x.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- runner ----
async function main() {
  console.log("building (node esbuild.mjs)...");
  execFileSync(process.execPath, ["esbuild.mjs", "--webview-tests"], { cwd: ROOT, stdio: "inherit" });
  await writePage();
  let passed = 0;
  let failed = 0;
  let notRun = 0;
  try {
    // ASE_WEBVIEW_GREP=text runs only the tests whose name holds it (while working on one).
    const grep = process.env.ASE_WEBVIEW_GREP;
    for (const t of tests) {
      if (grep && !t.name.includes(grep)) continue;
      if (!browser && !t.name.startsWith("rpc") && !t.name.startsWith("row cache") && !t.name.startsWith("html") && !t.name.startsWith("images:")) {
        browser = await chromium.launch({
          executablePath: "/usr/bin/chromium",
          args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        });
      }
      const t0 = Date.now();
      try {
        await t.fn();
        passed++;
        console.log(`  ✓ ${t.name} (${Date.now() - t0} ms)`);
      } catch (err) {
        if (err instanceof NotRun) {
          notRun++;
          console.log(`  - NOT RUN: ${t.name}: ${err.message}`);
          continue;
        }
        failed++;
        console.log(`  ✗ ${t.name}\n      ${String(err?.stack ?? err).split("\n").slice(0, 6).join("\n      ")}`);
      }
    }
  } finally {
    await browser?.close();
  }
  console.log(`webview: ${passed} passed, ${failed} failed${notRun ? `, ${notRun} skipped` : ""}`);
  process.exitCode = failed ? 1 : 0;
}

await main();
