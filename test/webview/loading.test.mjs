// Webview tests of loading and live updates: the page under the host's CSP, the typed
// message channel, progress while the host reads, a load that failed, a session that grows.
import assert from "node:assert/strict";
import { LargeHost, TreeHost } from "./fake-host.mjs";
import { detailsShown, explore, importTs, posted, until, writePage } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function loadingTests(test, browser) {
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
  }, { needsBrowser: false });

  test("loads under the host's CSP: ready first, no errors, no CSP violations, no network", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, { theme: "light" }, async ({ page, seen }) => {
      assert.equal(host.log[0].type, "ready");
      assert.deepEqual(host.log[0].restore, { filter: "default", folded: [] });
      assert.deepEqual(await page.evaluate(() => window.__csp), []);
      assert.deepEqual(seen.errors, []);
      const foreign = seen.requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:"));
      assert.deepEqual(foreign, []);
    });
  });

  test("the page saves its session file at once, before the session has loaded (a reload then still reopens the panel)", async () => {
    const file = "/home/ana/.pi/agent/sessions/--home-ana-big--/2026-01-01T00-00-00-000Z_big.jsonl";
    const { path } = await writePage({ file });
    const host = new LargeHost(100);
    host.deferInit = true;
    await explore(browser(), host, { waitForRows: false, pagePath: path }, async ({ page, seen }) => {
      await until(() => host.ready, "ready");
      // No init yet: the host is still loading. The state already names the file.
      await until(() => page.evaluate((f) => window.__savedState?.file === f, file), "the file in the saved state");
      assert.equal(await page.textContent(".session-title"), "");
      assert.deepEqual(seen.errors, []);
    });
  });

  test("while the host still loads a large session, the header shows how much it has read", async () => {
    const host = new LargeHost(1000);
    host.deferInit = true;
    await explore(browser(), host, { waitForRows: false }, async ({ page, seen }) => {
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
      assert.deepEqual(seen.errors, []);
    });
  });

  test("a session that could not be loaded says why instead of 'Loading session…', and Retry loads it", async () => {
    const host = new LargeHost(200);
    host.deferInit = true;
    await explore(browser(), host, { waitForRows: false }, async ({ page, seen }) => {
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
      assert.deepEqual(seen.errors, []);
    });
  });

  test("a large session shown from its first part says it is reading the rest, then takes the rest in place", async () => {
    const host = new LargeHost(300);
    const total = 1.6 * 2 ** 30;
    await explore(browser(), host, { waitForRows: false }, async ({ page, seen }) => {
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
      await detailsShown(page, "n5", "details");
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
      assert.deepEqual(seen.errors, []);
    });
  });

  test("live updates: sessionChanged refetches rows and keeps the tail in view; notices show", async () => {
    const host = new LargeHost(1000);
    await explore(browser(), host, async ({ page }) => {
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
    });
  });
}
