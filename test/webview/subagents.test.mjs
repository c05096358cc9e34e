// Webview tests for sub-agents nested under the call that started them (issue 24, item 8),
// through the real core (real-host.ts) on small Claude Code sessions written here.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ARTIFACTS, openExplorer, posted, ROOT, rowIds, until } from "./harness.mjs";

const SESSION = "cc000000-0000-4000-8000-00000000005a";
const CWD = "/home/dev/demo";
let tick = 0;

/** A Claude Code line (section 2's envelope); `extra` adds or overrides fields. */
function line(type, uuid, parentUuid, extra) {
  return { parentUuid, isSidechain: false, userType: "external", cwd: CWD, sessionId: SESSION, version: "2.1.90", type, uuid, timestamp: new Date(Date.UTC(2026, 2, 1, 10, 0, tick++)).toISOString(), ...extra };
}
const user = (uuid, parent, content, extra = {}) => line("user", uuid, parent, { message: { role: "user", content }, ...extra });
function assistant(uuid, parent, id, block, extra = {}) {
  const usage = { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 5 };
  return line("assistant", uuid, parent, { message: { model: "claude-sonnet-4-5-20250929", id, type: "message", role: "assistant", content: [block], stop_reason: null, usage }, requestId: `req_${id}`, ...extra });
}
const result = (uuid, parent, call, content, extra = {}) => user(uuid, parent, [{ type: "tool_result", tool_use_id: call, content }], { sourceToolAssistantUUID: parent, ...extra });
const jsonl = (lines) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

/**
 * A 2.1.x session in `dir` (a Claude Code project folder): an Agent call whose transcript
 * is in <session>/subagents/, then the answer. Returns the session's path. The e2e test
 * writes it into its throwaway store too.
 */
export function writeSubagentSession(dir) {
  const main = [
    user("u1", null, "how well is the project tested?"),
    assistant("a1", "u1", "msg_1", { type: "tool_use", id: "t1", name: "Agent", input: { description: "Survey the test suite", subagent_type: "Explore", prompt: "Look at every test" } }),
    result("r1", "a1", "t1", "12 tests, all green", { toolUseResult: { status: "completed", agentId: "sub1", agentType: "Explore" } }),
    assistant("a2", "r1", "msg_2", { type: "text", text: "There are 12 tests, all green." }),
  ];
  const side = (r) => ({ ...r, isSidechain: true, agentId: "sub1" });
  const sub = [
    side(user("s1", null, "Look at every test")),
    side(assistant("s2", "s1", "msg_s1", { type: "tool_use", id: "ts1", name: "Read", input: { file_path: `${CWD}/test/a.test.ts` } })),
    side(result("s3", "s2", "ts1", "it('adds', ...)")),
    side(assistant("s4", "s3", "msg_s2", { type: "text", text: "12 tests, all green" })),
  ];
  mkdirSync(join(dir, SESSION, "subagents"), { recursive: true });
  writeFileSync(join(dir, `${SESSION}.jsonl`), jsonl(main));
  writeFileSync(join(dir, SESSION, "subagents", "agent-sub1.jsonl"), jsonl(sub));
  return join(dir, `${SESSION}.jsonl`);
}

/** writeSubagentSession's session, plus a 1.0.x session with its Task call's sub-agent inline. */
function writeSessions(dir) {
  const main = writeSubagentSession(dir);
  const inline = [
    user("i1", null, "ask a helper"),
    assistant("i2", "i1", "msg_i1", { type: "tool_use", id: "ti", name: "Task", input: { description: "Check in", subagent_type: "general-purpose", prompt: "How are you?" } }),
    { ...user("x1", null, "How are you?"), isSidechain: true },
    { ...assistant("x2", "x1", "msg_x", { type: "text", text: "Fine, thanks." }), isSidechain: true },
    result("i3", "i2", "ti", "Fine, thanks."),
    assistant("i4", "i3", "msg_i2", { type: "text", text: "It is fine." }),
  ];
  const inlineFile = join(dir, "inline", "cc000000-0000-4000-8000-00000000005b.jsonl");
  mkdirSync(join(dir, "inline"));
  writeFileSync(inlineFile, jsonl(inline));
  return { main, inline: inlineFile };
}

const selectedId = (page) => page.$eval(".row.selected", (r) => r.dataset.id).catch(() => undefined);

/** Registers the tests on the runner's `test`; `browser()` gives the shared Chromium. */
export function subagentTests(test, browser) {
  subagentRealTest(test, browser);
  test("sub-agents: an Agent call row has a cue and a twisty; expanding nests the sub-agent's own rows, read-only, its steps and cost on the call row; the keyboard folds it", async () => {
    const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
    const dir = mkdtempSync(join(tmpdir(), "ase-webview-subagents-"));
    const files = writeSessions(dir);
    const host = await createRealHost(files.main);
    const x = await openExplorer(browser(), host, { viewport: { width: 1100, height: 600 } });
    const { page } = x;
    try {
      const call = ".row[data-id=a1]";
      assert.equal(await page.$eval(`${call} .preview`, (p) => p.textContent), "Agent (Explore): Survey the test suite");
      assert.equal(await page.locator(`${call} .role-icon.codicon-agent`).count(), 1, "the agent icon");
      assert.equal(await page.getAttribute(call, "aria-expanded"), "false", "collapsed by default");
      assert.equal(await page.$eval(`${call} .subagent-chip`, (c) => c.textContent), "sub-agent");
      assert.deepEqual(await rowIds(page), ["u1", "a1", "r1", "a2"]);
      assert.ok(!host.log.some((m) => m.type === "expandSubagent"), "nothing read before it is expanded");

      let mark = host.log.length;
      await page.click(`${call} .twisty`);
      await posted(host, mark, (m) => m.type === "expandSubagent" && m.id === "a1" && m.expand === true, "an expand request");
      await until(async () => (await page.locator(".row.nested").count()) === 4, "four nested rows");
      assert.deepEqual(await rowIds(page), ["u1", "a1", "sub:sub1:s1", "sub:sub1:s2", "sub:sub1:s3", "sub:sub1:s4", "r1", "a2"]);
      assert.equal(await page.getAttribute(call, "aria-expanded"), "true");
      await until(() => page.$eval(`${call} .subagent-chip`, (c) => /^2 steps · \$\d/.test(c.textContent)), "its steps and cost on the call row");
      assert.match(await page.getAttribute(`${call} .subagent-chip`, "title"), /Agent \(Explore\): Survey the test suite\n {2}2 steps, \$[\d.]+; its context at its end .* \(recorded usage\)/);
      const left = (sel) => page.$eval(sel, (n) => n.getBoundingClientRect().left);
      const callIcon = await left(`${call} .role-icon`);
      for (const id of ["sub:sub1:s1", "sub:sub1:s2"]) assert.ok((await left(`.row[data-id='${id}'] .role-icon`)) > callIcon + 8, `${id} is indented under the call`);
      assert.equal(await page.$eval(".row[data-id='sub:sub1:s2'] .preview", (p) => p.textContent), "Read test/a.test.ts");
      assert.equal(await page.getAttribute(".row[data-id='sub:sub1:s2']", "aria-level"), "2");

      // A nested row's details; the parent's actions are disabled, saying why.
      await page.click(".row[data-id='sub:sub1:s2'] .preview");
      await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "sub:sub1:s2"), "the nested row's details");
      assert.match(await page.$eval(".detail-pane", (d) => d.textContent), /Read test\/a\.test\.ts/);
      for (const action of ["fork", "compareContext"]) {
        const btn = `.detail-pane vscode-button[data-action=${action}]`;
        assert.equal(await page.$eval(btn, (b) => b.hasAttribute("disabled")), true, `${action} disabled`);
        assert.match(await page.getAttribute(btn, "title"), /sub-agent's own transcript/);
      }
      assert.equal(JSON.parse(await page.getAttribute(".row[data-id='sub:sub1:s2']", "data-vscode-context")).webviewSection, "nestedRow", "no entry action in its context menu");
      mark = host.log.length;
      await page.click(".detail-pane vscode-button[data-action=fork]", { force: true });
      assert.ok(!host.log.slice(mark).some((m) => m.type === "action"), "a disabled action posts nothing");

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: join(ARTIFACTS, "explorer-subagents.png") });

      // Keyboard: Left from a nested row goes to its call, Left again folds it, Right unfolds it.
      await page.focus("[role=tree]");
      await page.keyboard.press("ArrowLeft");
      await until(async () => (await selectedId(page)) === "a1", "Left selects the call");
      await page.keyboard.press("ArrowLeft");
      await until(async () => (await page.locator(".row.nested").count()) === 0, "Left folds the sub-agent");
      assert.equal(await page.getAttribute(call, "aria-expanded"), "false");
      assert.match(await page.$eval(`${call} .subagent-chip`, (c) => c.textContent), /^2 steps/, "the figures stay once known");
      await page.keyboard.press("ArrowRight");
      await until(async () => (await page.locator(".row.nested").count()) === 4, "Right unfolds it");
      assert.deepEqual(x.seen.errors, []);
    } finally {
      await x.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("sub-agents: an inline (isSidechain) sub-agent sits under its call, not at the bottom; showing its line keeps 'Conversation' as the filter", async () => {
    const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
    const dir = mkdtempSync(join(tmpdir(), "ase-webview-subagents-"));
    const files = writeSessions(dir);
    const host = await createRealHost(files.inline);
    const x = await openExplorer(browser(), host);
    const { page } = x;
    try {
      assert.equal(await page.$eval("vscode-single-select.filter", (s) => s.value), "default");
      assert.deepEqual(await rowIds(page), ["i1", "i2", "i3", "i4"]);
      assert.equal(await page.locator(".row[data-id=i2] .role-icon.codicon-agent").count(), 1);
      const mark = host.log.length;
      await page.evaluate(() => window.postMessage({ type: "showEntry", id: "x2" }, "*"));
      await posted(host, mark, (m) => m.type === "reveal" && m.id === "x2", "a reveal request for x2");
      await until(async () => (await selectedId(page)) === "sub:x1:x2", "its nested row selected");
      assert.deepEqual(await rowIds(page), ["i1", "i2", "sub:x1:x1", "sub:x1:x2", "i3", "i4"]);
      assert.equal(await page.$eval("vscode-single-select.filter", (s) => s.value), "default", "the filter did not switch to All entries");
      await until(() => page.$eval(".detail-pane", (d) => d.dataset.id === "sub:x1:x2"), "its details");
      assert.match(await page.$eval(".detail-pane", (d) => d.textContent), /Fine, thanks\./);
      assert.deepEqual(x.seen.errors, []);
    } finally {
      await x.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The real 2.1.114 session with six sub-agent transcripts (../shared/fixtures/claude-code). */
const REAL = join(ROOT, "..", "shared", "fixtures", "claude-code", "real", "ccl-subagents-v2.1.114", "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl");

/** A real session's first Agent call, expanded: a picture for the eye, and its nested rows checked. */
function subagentRealTest(test, browser) {
  test("sub-agents: the real 2.1.114 session's first Agent call expands into its transcript's rows", async () => {
    if (!existsSync(REAL)) {
      if (process.env.CI) throw new Error(`real fixture missing: ${REAL}`);
      console.log(`  (real fixture not found at ${REAL}: only the built sessions were shown)`);
      return;
    }
    const { createRealHost } = createRequire(import.meta.url)(join(ROOT, "out", "test-webview", "real-host.js"));
    const host = await createRealHost(REAL);
    const x = await openExplorer(browser(), host, { viewport: { width: 1280, height: 800 } });
    const { page } = x;
    try {
      const call = page.locator(".row:has(.subagent-chip)").first();
      await call.waitFor();
      const id = await call.getAttribute("data-id");
      await call.locator(".twisty").click();
      await until(async () => (await page.locator(`.row.nested`).count()) > 3, "its nested rows");
      await until(() => page.$eval(`.row[data-id='${id}'] .subagent-chip`, (c) => /steps · \$/.test(c.textContent)), "its steps and cost");
      await page.locator(".row.nested").nth(2).locator(".preview").click();
      await until(() => page.$eval(".detail-pane", (d) => d.dataset.id?.startsWith("sub:")), "a nested row's details");
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({ path: join(ARTIFACTS, "explorer-subagents-real.png") });
      assert.deepEqual(x.seen.errors, []);
    } finally {
      await x.close();
    }
  });
}
