// Webview tests of the detail pane (webview/detail-pane.ts): what a row's details show,
// the action buttons, long blocks, images and an edit's diff.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { TreeHost } from "./fake-host.mjs";
import { ARTIFACTS, detailsShown, explore, importTs, posted, realHost, tempDir, until } from "./harness.mjs";
import { realisticSession } from "./sessions.mjs";

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function detailsTests(test, browser) {
  test("clicking a row posts select and details; the detail pane shows text, thinking, tool calls, metadata; files list", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      const mark = host.log.length;
      await page.click(".row[data-id=a1] .preview");
      await posted(host, mark, (m) => m.type === "details" && m.id === "a1", "details a1");
      await posted(host, mark, (m) => m.type === "select" && m.id === "a1", "select a1");
      await detailsShown(page, "a1");
      const text = await page.$eval(".detail-pane", (d) => d.textContent);
      for (const s of ["I'll read the CLI entry point first.", "Thinking", "Tool call: read", `"path": "src/cli/commands/list.ts"`, "claude-sonnet-4-5", "Metadata"]) assert.ok(text.includes(s), s);
      await until(() => page.locator(".file-list li").count().then((n) => n === 3), "files listed");
      assert.equal(await page.getAttribute(".row[data-id=a1]", "aria-selected"), "true");
      assert.equal(await page.getAttribute("[role=tree]", "aria-activedescendant"), await page.getAttribute(".row[data-id=a1]", "id"));
    });
  });

  test("clicking a compaction shows its summary and read/modified files", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      await page.click(".row[data-id=c1]");
      await detailsShown(page, "c1");
      const info = await page.$eval(".compaction-info", (c) => c.textContent);
      for (const s of ["142k tokens before, kept from u2", "## Goal", "Read files (2)", "src/cli/main.ts", "Modified files (1)"]) assert.ok(info.includes(s), s);
    });
  });

  test("action buttons post typed action messages for the shown entry", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      await page.click(".row[data-id=a8]");
      await detailsShown(page, "a8");
      const mark = host.log.length;
      const actions = ["fork", "continue", "label", "previewContext", "compareContext", "compact"];
      for (const a of actions) await page.click(`.actions vscode-button[data-action=${a}]`);
      await until(() => host.log.slice(mark).filter((m) => m.type === "action").length === actions.length, `${actions.length} actions`);
      assert.deepEqual(host.log.slice(mark).filter((m) => m.type === "action"), actions.map((action) => ({ type: "action", action, id: "a8" })));
      // "What this compaction changed" is offered on compactions only.
      assert.equal(await page.locator(".actions vscode-button[data-action=compactionChange]").count(), 0);
      await page.click(".row[data-id=c1]");
      await detailsShown(page, "c1");
      const at = host.log.length;
      await page.click(".actions vscode-button[data-action=compactionChange]");
      await until(() => host.log.slice(at).some((m) => m.type === "action"), "the compaction action");
      assert.deepEqual(host.log.slice(at).filter((m) => m.type === "action"), [{ type: "action", action: "compactionChange", id: "c1" }]);
    });
  });

  test("actions the session's format does not offer are disabled and say why; the agent is named; the rest still post", async () => {
    const base = realisticSession();
    const why = "Seed 000 sessions are read by the agent only; forks are new files";
    const host = new TreeHost({ ...base, session: { ...base.session, agent: "Seed 000", format: "seed-000", version: undefined, readOnly: true, unavailable: { continue: why, label: why, compact: why } } });
    await explore(browser(), host, async ({ page }) => {
      await page.click(".row[data-id=a8]");
      await detailsShown(page, "a8");
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
    });
  });

  test("details: long content is cut and 'show all' requests the full block", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
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
    });
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
  }, { needsBrowser: false });

  test("images render only from data:image URIs", async () => {
    const host = new TreeHost(realisticSession());
    await explore(browser(), host, async ({ page }) => {
      await page.click(".row[data-id=u3]");
      await detailsShown(page, "u3");
      const srcs = await page.$$eval("img", (imgs) => imgs.map((i) => i.getAttribute("src")));
      assert.equal(srcs.length, 1);
      assert.ok(srcs[0].startsWith("data:image/png;base64,"));
      assert.equal(await page.locator(".detail-pane .warning").count(), 2);
      assert.ok(await page.$eval("img.block-image", (i) => i.complete && i.naturalWidth === 1));
    });
  });

  test("an edit diff in the detail pane: a Claude Code Edit's row says what it did, its details show - and + lines as text (markup inert), the title for a person and the type name beside it", async () => {
    const dir = tempDir("ase-webview-edit-");
    const cwd = "/home/dev/demo";
    const env = { isSidechain: false, userType: "external", cwd, sessionId: "cc000000-0000-4000-8000-00000000000e", version: "2.1.90", timestamp: "2026-03-01T10:00:00.000Z" };
    const edit = { file_path: `${cwd}/src/csv.js`, old_string: "const a = 1;\nsplit(',');\nconst z = 2;", new_string: "const a = 1;\nsplit(';'); <img src=x onerror=alert(1)>\nconst z = 2;" };
    const lines = [
      { ...env, parentUuid: null, type: "user", uuid: "u1", message: { role: "user", content: "use semicolons" } },
      { ...env, parentUuid: "u1", type: "assistant", uuid: "a1", message: { role: "assistant", id: "msg_1", model: "claude-sonnet-4-5-20250929", content: [{ type: "tool_use", id: "tu_1", name: "Edit", input: edit }] } },
    ];
    const file = join(dir, "edit.jsonl");
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const host = await realHost(file);
    await explore(browser(), host, async ({ page, seen }) => {
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
      assert.deepEqual(seen.errors, []);
    });
  });
}
