#!/usr/bin/env node
// `npm start` end to end: runs it as a newcomer would, opens the URL it prints in
// Chromium (playwright-core), checks that the Session Explorer shows the demo session and
// that the Sessions view lists the demo projects, saves test-artifacts/e2e/explorer.png,
// reloads the window and checks that the panel serializer brings the open explorer back,
// stops it with SIGTERM and checks that it cleaned up; then ASE_START_SMOKE=1 (start,
// self-check, stop) must exit 0.
// Usage: node test/e2e/start.test.mjs   Closing line: `start: N passed, M failed`.
// Needs the e2e toolchain (npm start installs it itself on the first run).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChecks } from './checks.mjs';
import { budget, until, WAIT_SCALE } from '../../scripts/e2e/waits.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The large demo session's name: its explorer tab's title and its header. */
const LARGE_TITLE = 'Rainfall tool: long refactoring session';
const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e');
const SHOT = path.join(ARTIFACTS, 'explorer.png');
// Texts of the rich demo session (scripts/demo/generate-demo.mjs).
const DEMO_TEXT = 'The quarterly rainfall report only print';
const DEMO_NAME = 'CSV export for the rainfall report';
const FIRST_START_TIMEOUT_MS = 15 * 60_000; // a first run may npm ci and build code-server

const { say, sleep, check, fail, finish, results, setFailureReporter } = createChecks('start');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function portOpen(port) {
  return new Promise((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.once('connect', () => { sock.destroy(); resolve(true); });
    sock.once('error', () => resolve(false));
  });
}

/**
 * `npm start -- ...args` in its own process group; collects its output and resolves
 * fields as they are printed (url, pid to kill, demo dir).
 */
function npmStart(args, env = {}) {
  const child = spawn('npm', ['start', '--silent', '--', ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = { child, out: '', exited: null };
  proc.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const onData = (d) => {
    proc.out += d;
    for (const line of String(d).split('\n')) if (line.trim()) console.log(`    | ${line}`);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  proc.waitFor = async (re, baseMs) => {
    const timeoutMs = budget(baseMs);
    const end = Date.now() + timeoutMs;
    for (;;) {
      const m = proc.out.match(re);
      if (m) return m;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm start exited (${child.exitCode ?? child.signalCode}) before printing ${re}`);
      if (Date.now() > end) throw new Error(`npm start did not print ${re} within ${timeoutMs / 1000}s`);
      await sleep(200);
    }
  };
  // Never leave a server behind, whatever happens to this test.
  proc.killGroup = (sig = 'SIGKILL') => { try { process.kill(-child.pid, sig); } catch { /* gone */ } };
  process.on('exit', () => proc.killGroup());
  return proc;
}

/**
 * Whether the workspace's saved editor layout (VS Code web keeps it in IndexedDB,
 * key memento/workbench.parts.editor) mentions `needle`.
 */
/**
 * Clicks a Sessions view row whose text matches `text`, scrolling the list down to it first
 * (every agent's demo store is more rows than the view shows at once).
 */
async function clickSessionRow(page, text) {
  const row = page.locator('.sidebar .monaco-list-row', { hasText: text }).first();
  const list = page.locator('.sidebar .monaco-list').first();
  // From the top: an earlier check may have left the list scrolled past the row (groups are ordered by their newest session's time).
  if (!(await row.isVisible().catch(() => false))) {
    await list.hover();
    await page.mouse.wheel(0, -100_000);
    await sleep(150);
  }
  for (let k = 0; k < 40 && !(await row.isVisible().catch(() => false)); k++) {
    await list.hover();
    await page.mouse.wheel(0, 200);
    await sleep(150);
  }
  await row.click({ timeout: budget(15_000) });
}

function savedEditorsMention(page, needle) {
  return page.evaluate(async (needle) => {
    const names = (await indexedDB.databases()).map((d) => d.name)
      .filter((n) => n && n.startsWith('vscode-web-state-db-') && !n.startsWith('vscode-web-state-db-global'));
    const read = (name) => new Promise((resolve) => {
      const req = indexedDB.open(name);
      req.onerror = () => resolve(null);
      req.onsuccess = () => {
        const db = req.result;
        try {
          const get = db.transaction('ItemTable', 'readonly').objectStore('ItemTable').get('memento/workbench.parts.editor');
          get.onsuccess = () => { db.close(); resolve(get.result); };
          get.onerror = () => { db.close(); resolve(null); };
        } catch { db.close(); resolve(null); }
      };
    });
    for (const name of names) {
      const value = await read(name);
      if (typeof value === 'string' && value.includes(needle)) return true;
    }
    return false;
  }, needle);
}

let exitCode = 1;
try {
  const { assertInstalled } = await import('../../scripts/e2e/paths.mjs');

  // ---- 1. npm start, then drive the page it serves
  const port = await freePort();
  const started = Date.now();
  const run = npmStart(['--port', String(port), '--no-browser-check']);
  let url = null, pid = null, demoDir = null, browser = null;

  await check('npm start prints the URL and how to stop it', async () => {
    url = (await run.waitFor(/http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+/, FIRST_START_TIMEOUT_MS))[0];
    pid = Number((await run.waitFor(/run: kill (\d+)/, 5_000))[1]);
    demoDir = (await run.waitFor(/demo sessions in (\S+)/, 1_000))[1];
    if (!url.includes(`127.0.0.1:${port}/`)) throw new Error(`URL ${url} is not on the requested port ${port}`);
    if (!/\$ node dist\/cli\.js list --dir /.test(run.out)) throw new Error('the CLI example was not shown');
    say(`npm start printed its URL after ${((Date.now() - started) / 1000).toFixed(1)}s`);
  });

  if (url) {
    assertInstalled();
    const { launchBrowser, openWorkbench, webviewFrame, errorNotifications, screenshot, failureReport } = await import('../../scripts/e2e/browser.mjs');
    browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
    const { page } = browser;
    if (WAIT_SCALE !== 1) say(`e2e waits scaled by ${WAIT_SCALE} (ASE_E2E_WAIT_SCALE)`);
    // The run's folder (demo sessions, code-server and its logs): the extension's log joins a failure's report.
    const runRoot = demoDir && path.dirname(path.dirname(demoDir));
    setFailureReporter((title) => failureReport(page, path.join(ARTIFACTS, `failure-${title.replace(/\W+/g, '-').slice(0, 60)}.png`), runRoot));
    await check('the page opens the Session Explorer on the demo session', async () => {
      const ms = await openWorkbench(page, url);
      say(`workbench restored in ${(ms / 1000).toFixed(1)}s`);
      const frame = await webviewFrame(page, { text: DEMO_TEXT, timeoutMs: 60_000 });
      const body = await frame.locator('body').innerText();
      if (!body.includes(DEMO_NAME)) say(`note: the explorer body does not show the session name ${JSON.stringify(DEMO_NAME)}`);
      const errors = await errorNotifications(page);
      if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
    });
    await check('the Sessions view lists the demo projects and sessions: pi\'s, clawdcode\'s and Claude Code\'s', async () => {
      // The extension shows its view itself when a workspace lists sessions to open;
      // click the activity-bar icon only if it did not (a click on the active one hides it).
      const title = page.locator('.sidebar .composite.title', { hasText: 'Agent Sessions' });
      const shown = await title.first().isVisible().catch(() => false) || await title.first().waitFor({ timeout: budget(5_000) }).then(() => true, () => false);
      if (!shown) {
        const icon = page.locator('.activitybar .action-item a[aria-label^="Agent Sessions"], .activitybar .action-item[aria-label^="Agent Sessions"]').first();
        await icon.click({ timeout: budget(15_000) });
      }
      const rows = page.locator('.sidebar .monaco-list-row');
      const list = page.locator('.sidebar .monaco-list').first();
      // Every agent's demo store is listed, more than the view shows at once: the rows are
      // read as a person scrolling down the list would see them, then the list goes back up.
      const seen = new Set();
      await until('the demo projects and sessions in the Sessions view', async () => {
        for (const t of await rows.allInnerTexts()) seen.add(t.replace(/\s+/g, ' '));
        const all = [...seen].join(' | ');
        // pi's sessions and the clawdcode store's (its agent named on its row), grouped by project.
        if (['/home/demo/project', '/home/demo/notes-app', DEMO_NAME, 'ClawdCode ·', 'Claude Code ·'].every((t) => all.includes(t))) return true;
        await list.hover();
        await page.mouse.wheel(0, 300);
        return false;
      }, { ms: 20_000, everyMs: 300, describe: () => `rows: ${JSON.stringify([...seen])}` });
      await list.hover();
      for (let k = 0; k < 10; k++) await page.mouse.wheel(0, -3000);
      // Let the explorer finish painting before the picture is taken.
      await sleep(1_500);
      say(`screenshot ${await screenshot(page, SHOT)}`);
    });
    // The README's feature pictures, from the same page.
    const { runCommand } = await import('../../scripts/e2e/browser.mjs');
    await check('"Agent Sessions: Preview Context" shows the context pi would send', async () => {
      await runCommand(page, 'Agent Sessions: Preview Context');
      const editor = page.locator('.editor-instance .monaco-editor .view-lines');
      let text = '';
      await until('an editor showing the context preview', async () => {
        text = (await editor.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
        return text.includes('Context pi sends for leaf');
      }, { ms: 15_000, everyMs: 300, describe: () => `editors: ${JSON.stringify(text.slice(0, 200))}` });
      await sleep(500);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'context-preview.png'))}`);
      await page.keyboard.press('Escape');
    });
    await check('the large demo session opens from the Sessions view, and Compact Session shows its dry run', async () => {
      await runCommand(page, 'View: Close All Editors', { settleMs: 300 });
      await page.locator('.sidebar .monaco-list-row', { hasText: 'Rainfall tool: long refactoring session' }).first().click();
      await webviewFrame(page, { text: LARGE_TITLE, timeoutMs: 60_000 });
      await sleep(1_500);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'tree-large.png'))}`);
      // The pick shows each strategy's plan; Summarize is the first. A pick open while the
      // explorer still settles can lose the focus and close (a CI run saw it shut under the
      // click): opened again then, never clicked blind.
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Summarize' }).first();
      await until('the strategy pick to take the click on Summarize', async () => {
        if (!(await row.isVisible().catch(() => false))) {
          await runCommand(page, 'Agent Sessions: Compact Session', { settleMs: 300 });
          await row.waitFor({ state: 'visible', timeout: budget(10_000) }).catch(() => undefined);
        }
        return row.click({ timeout: budget(5_000) }).then(() => true, () => false);
      }, { ms: budget(60_000), everyMs: 300 });
      // Extra instructions: none. The quick-input widget is the one the strategy pick used,
      // so wait for the instructions prompt itself before pressing Enter (an Enter during
      // the switch was lost on a busy machine), and press it on that box.
      const instructions = page.locator('.quick-input-widget', { hasText: 'Extra instructions' });
      await instructions.waitFor({ timeout: budget(10_000) });
      const box = instructions.locator('.quick-input-box input');
      // A busy machine can take the focus back while the widget switches: ask again each time.
      await until('the instructions box to have the focus', async () => {
        if (await box.evaluate((el) => el === document.activeElement)) return true;
        await box.focus().catch(() => undefined);
        return false;
      }, { ms: 30_000, everyMs: 200 });
      await box.press('Enter');
      const modal = page.locator('.monaco-dialog-box', { hasText: `Compact '${LARGE_TITLE}'?` });
      // The dry run reads and measures the whole session first: give it time on a busy machine.
      // Never press Enter again here: on the dialog it would run the compaction.
      await modal.waitFor({ timeout: budget(60_000) });
      const detail = (await modal.innerText()).replace(/\s+/g, ' ');
      if (!/tokens now -> about/.test(detail)) throw new Error(`the dry run says ${JSON.stringify(detail.slice(0, 300))}`);
      say(`dry run: ${detail.slice(0, 200)}`);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'compaction-dry-run.png'))}`);
      await page.keyboard.press('Escape'); // nothing is written
    });
    await check('after a window reload the explorer comes back on the session it showed (panel serializer)', async () => {
      // The large session was opened by hand, not by the workspace's open.json, so only
      // the serializer (the panel's saved state names the file) can bring it back.
      // The tab is titled by the session (its name), not by its file.
      const tabs = page.locator('.tabs-container .tab', { hasText: LARGE_TITLE });
      const before = await tabs.allInnerTexts();
      if (before.length !== 1) throw new Error(`expected one explorer tab before the reload, found ${JSON.stringify(before)}`);
      const title = before[0].trim();
      if (/\.jsonl|^Session:/.test(title)) throw new Error(`the tab is named by a file: ${title}`);
      // VS Code (web) writes the open editors to IndexedDB when idle, about once a
      // minute while the page has focus, and again on unload; the unload write is not
      // awaited, so a reload right after opening may restore an older layout. Wait
      // for the saved layout to name the explorer, as a person would have had it.
      // The needle is the session's full path, which only the panel's saved state holds:
      // what the serializer needs to reopen it. The large session is the largest demo file.
      const projectDir = `${demoDir}/--home-demo-project--`;
      const largest = fs.readdirSync(projectDir).filter((f) => f.endsWith('.jsonl')).map((f) => [f, fs.statSync(path.join(projectDir, f)).size]).sort((a, b) => b[1] - a[1])[0][0];
      const needle = `${projectDir}/${largest}`;
      const saved = await until('the workbench to save its editors with the panel state (IndexedDB)', () => savedEditorsMention(page, needle), { ms: 90_000, everyMs: 1_000 })
        .then(() => true, (e) => { say(`note: ${e.message}; reloading anyway`); return false; });
      if (saved) say('the saved editor layout holds the explorer and the session it shows');
      await page.reload();
      await page.waitForFunction(() => !!(window.driver && window.driver.whenWorkbenchRestored), null, { timeout: budget(60_000) });
      await page.evaluate(() => window.driver.whenWorkbenchRestored());
      const tab = page.locator('.tabs-container .tab', { hasText: title }).first();
      await tab.waitFor({ timeout: budget(30_000) });
      // It was in front before the reload and must be again, without a click: open.json
      // (which lists the other demo session) is honoured once per workspace, so the
      // extension's activation does not bring its session forward over the restored one.
      await webviewFrame(page, { text: LARGE_TITLE, timeoutMs: 60_000 });
      const active = (await page.locator('.tabs-container .tab.active').first().innerText()).trim();
      if (active !== title) throw new Error(`the tab in front after the reload is ${JSON.stringify(active)}, not ${JSON.stringify(title)}`);
      const after = (await tabs.allInnerTexts()).map((t) => t.trim());
      if (after.filter((t) => t === title).length !== 1) throw new Error(`explorer tabs after the reload: ${JSON.stringify(after)}`);
      const errors = await errorNotifications(page);
      if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
      say(`restored "${title}"; tabs now ${JSON.stringify(after)}`);
    });
    await check('Claude Code sessions in the explorer: a compaction, a sub-agent (opened from its tool call) and a rewind (screenshots)', async () => {
      const { CLAUDE_CODE_DEMO } = await import('../../scripts/demo/claude-code-demo.mjs');
      await runCommand(page, 'View: Close All Editors', { settleMs: 300 });
      const sessionRow = (text) => page.locator('.sidebar .monaco-list-row', { hasText: text }).first();
      /** Opens a session from the Sessions view and waits for its explorer to show `text`. */
      const open = async (title, text) => {
        await sessionRow(title).click({ timeout: budget(15_000) });
        return webviewFrame(page, { text, timeoutMs: 60_000 });
      };
      /** Selects the first row matching `selector` in the explorer and shows its details. */
      const details = async (frame, selector, wait) => {
        const row = frame.locator(selector).first();
        await row.click({ timeout: budget(15_000) });
        await row.press('Enter');
        await frame.locator(wait).first().waitFor({ timeout: budget(15_000) });
        await sleep(800);
      };
      // A partial compaction: the boundary's details say what it did.
      let frame = await open('Read a.txt and b.txt', 'compact');
      await details(frame, '.row.compaction-row', '.compaction-info');
      const info = (await frame.locator('.compaction-info').innerText()).replace(/\s+/g, ' ');
      if (!/Compaction \(manual\): [\d.,k]+ tokens before, [\d.,k]+ after, \d+ messages? summarized/.test(info)) throw new Error(`the compaction shows ${JSON.stringify(info.slice(0, 200))}`);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'claude-code-compaction.png'))}`);
      // A sub-agent: its tool call names it, and opens its own transcript in a new explorer.
      frame = await open('Survey the test suite with a helper', 'Survey the test suite');
      await details(frame, '.row:has-text("Agent")', '.subagent-info');
      const sub = (await frame.locator('.subagent-info').innerText()).replace(/\s+/g, ' ');
      if (!sub.includes(`Sub-agent ${CLAUDE_CODE_DEMO.agentId} (Explore): ${CLAUDE_CODE_DEMO.agentTask}`)) throw new Error(`the sub-agent box says ${JSON.stringify(sub)}`);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'claude-code-subagent.png'))}`);
      await frame.locator('.subagent-info vscode-button[data-action=openSubagent]').first().click();
      // Its tab is titled by its first prompt (the sub-agent's task), not its file.
      const subTab = page.locator('.tabs-container .tab', { hasText: 'Count the tests' }).first();
      await subTab.waitFor({ timeout: budget(30_000) });
      await webviewFrame(page, { text: 'npm test -- --reporter dot', timeoutMs: 60_000 });
      // A rewind: the older prompt and the new one as two branches.
      frame = await open('files', 'Actually, ask a helper to count them');
      const body = await frame.locator('body').innerText();
      if (!body.includes('Delete them')) throw new Error('the rewound branch is not shown');
      await sleep(800);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'claude-code-rewind.png'))}`);
      const errors = await errorNotifications(page);
      if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
    });
    await check('Codex sessions in the explorer: a .jsonl.zst rollout opened from the Sessions view, its tool calls and turns (screenshot)', async () => {
      await runCommand(page, 'View: Close All Editors', { settleMs: 300 });
      // The Codex threads may sit below the Sessions view's fold: scroll the list until the row is drawn.
      // The main thread's own row: its fork's is titled "Say hello (fork)".
      await clickSessionRow(page, /^\s*Say hello\s*Codex ·/);
      const frame = await webviewFrame(page, { text: 'Please run TOOLS', timeoutMs: 60_000 });
      const body = await frame.locator('body').innerText();
      for (const t of ['echo hi', 'turn failed: stream disconnected', 'turn aborted (interrupted)']) if (!body.includes(t)) throw new Error(`the .zst rollout's explorer does not show ${JSON.stringify(t)}`);
      const call = frame.locator('.row:has-text("echo hi")').first();
      await call.click({ timeout: budget(15_000) });
      await call.press('Enter');
      await sleep(800);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'codex-zst.png'))}`);
      const errors = await errorNotifications(page);
      if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
    });
    await check('OpenCode sessions in the explorer: a session of its SQLite database opened from the Sessions view, the task sub-agent under its call (screenshot)', async () => {
      await runCommand(page, 'View: Close All Editors', { settleMs: 300 });
      const openCodeRow = /survey the notes with a sub-agent.*OpenCode ·/;
      // OpenCode's store is found by a machine-scoped setting (agentSessions.opencodeHome) in the
      // server's settings. Written among the user settings instead, the extension host after the window
      // reload above was seen to start without it (it listed the default folder); no fallback here.
      await clickSessionRow(page, openCodeRow);
      const frame = await webviewFrame(page, { text: 'survey the notes', timeoutMs: 60_000 });
      // The task call's row, by what the summarizer says of it (the prompt's row is lower-case).
      const call = frame.locator('.row').filter({ hasText: /Agent \(general\): Survey the notes/ }).first();
      await call.waitFor({ timeout: budget(30_000) });
      await call.click({ timeout: budget(15_000) });
      await call.press('Enter');
      await sleep(800);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'opencode.png'))}`);
      const errors = await errorNotifications(page);
      if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
    });
    await check('the rich demo session: the context growth chart, and "What this compaction changed" in VS Code\'s diff editor (screenshots)', async () => {
      await runCommand(page, 'View: Close All Editors', { settleMs: 300 });
      await page.locator('.sidebar .monaco-list-row', { hasText: DEMO_NAME }).first().click({ timeout: budget(15_000) });
      const frame = await webviewFrame(page, { text: DEMO_TEXT, timeoutMs: 60_000 });
      await frame.locator('.timeline-svg .timeline-point').first().waitFor({ timeout: budget(30_000) });
      const marks = await frame.locator('.timeline-svg [role=button]').count();
      if (marks < 3) throw new Error(`the chart shows ${marks} steps`);
      await sleep(800);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'context-chart.png'))}`);
      const row = frame.locator('.row.compaction-row').first();
      await row.click({ timeout: budget(15_000) });
      await row.press('Enter');
      const button = frame.locator('vscode-button[data-action=compactionChange]');
      await button.waitFor({ timeout: budget(15_000) });
      await button.click();
      const diff = page.locator('.monaco-diff-editor').first();
      await diff.waitFor({ timeout: budget(30_000) });
      let text = '';
      await until('both sides of the compaction in the diff editor', async () => {
        text = (await diff.innerText()).replace(/\u00a0/g, ' ');
        return /#1/.test(text) && /summary/i.test(text);
      }, { ms: 20_000, everyMs: 300, describe: () => JSON.stringify(text.slice(0, 300)) });
      await sleep(800);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'context-diff.png'))}`);
      const errors = await errorNotifications(page);
      if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
    });
    await check('Search Sessions from the palette: a bad regex named as typed, results streamed into Search Results, a hit opens its entry (screenshot)', async () => {
      await runCommand(page, 'View: Close All Editors', { settleMs: 300 });
      await runCommand(page, 'Agent Sessions: Search Sessions...', { settleMs: 300 });
      const widget = page.locator('.quick-input-widget', { hasText: 'Search Sessions' });
      await widget.waitFor({ timeout: budget(10_000) });
      const box = widget.locator('.quick-input-box input');
      await box.fill('rainfall(');
      // The regex button: "rainfall(" is plain text until it is pressed, then an unterminated group.
      await widget.locator('.codicon-regex').first().click();
      await until('the invalid regex named under the box', async () => /invalid regular expression/.test(await widget.innerText()), { ms: 10_000, everyMs: 200 });
      await box.fill('quarterly rain\\w+');
      await until('the message to clear', async () => !/invalid regular expression/.test(await widget.innerText()), { ms: 10_000, everyMs: 200 });
      await box.press('Enter');
      // The optional filters: Enter on "Search" runs it.
      const filters = page.locator('.quick-input-widget', { hasText: 'filters (optional)' });
      await filters.waitFor({ timeout: budget(10_000) });
      await page.keyboard.press('Enter');
      const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Search Results' }) }).first();
      let text = '';
      await until('the results and their count in the Search Results view', async () => {
        text = (await pane.innerText().catch(() => '')).replace(/\s+/g, ' ');
        return /\d+ hits? in \d+ sessions?/.test(text) && text.includes(DEMO_NAME);
      }, { ms: 30_000, everyMs: 300, describe: () => `view: ${JSON.stringify(text.slice(0, 300))}` });
      const highlighted = await pane.locator('.monaco-list-row .highlight').allInnerTexts();
      if (!highlighted.some((h) => /^quarterly rain\w+$/i.test(h.trim()))) throw new Error(`highlights: ${JSON.stringify(highlighted)}`);
      say(`search results: ${text.slice(0, 200)}`);
      await pane.locator('.monaco-list-row', { hasText: 'The quarterly rainfall report' }).first().click();
      const frame = await webviewFrame(page, { text: DEMO_TEXT, timeoutMs: 60_000 });
      const selected = frame.locator('.row[aria-selected="true"]');
      await until('the hit\'s entry selected in the explorer', async () => (await selected.count()) === 1 && (await selected.innerText()).includes('quarterly rainfall'), { ms: 30_000, everyMs: 300 });
      await frame.locator('.detail-pane', { hasText: 'quarterly rainfall' }).first().waitFor({ timeout: budget(15_000) });
      // The view and the explorer it opened, side by side.
      await sleep(800);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'search-results.png'))}`);
      const errors = await errorNotifications(page);
      if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
    });
    // Last: the theme stays changed for the rest of this window (its user data dies with the run).
    await check('an editor split beside the explorer stacks it in one column; High Contrast Dark keeps every line drawn (screenshots)', async () => {
      await runCommand(page, 'View: Close All Editors', { settleMs: 300 });
      await page.locator('.sidebar .monaco-list-row', { hasText: DEMO_NAME }).first().click({ timeout: budget(15_000) });
      let frame = await webviewFrame(page, { text: DEMO_TEXT, timeoutMs: 60_000 });
      await runCommand(page, 'File: New Untitled Text File', { settleMs: 300 });
      await runCommand(page, 'View: Move Editor into Right Group', { settleMs: 300 });
      await runCommand(page, 'View: Focus First Editor Group', { settleMs: 300 });
      frame = await webviewFrame(page, { text: DEMO_TEXT, timeoutMs: 60_000 });
      let layout = {};
      await until('the explorer narrow and stacked beside the split editor', async () => {
        layout = await frame.locator('body').evaluate(() => {
          const preview = document.querySelector('.row .preview');
          return { width: window.innerWidth, narrow: document.body.classList.contains('narrow'), preview: preview ? preview.getBoundingClientRect().width : 0 };
        });
        return layout.width < 700 && layout.narrow;
      }, { ms: 20_000, everyMs: 300, describe: () => JSON.stringify(layout) });
      if (layout.preview < 150) throw new Error(`at ${layout.width} px a row's text is ${layout.preview} px wide`);
      await frame.locator('.timeline-svg .timeline-point').first().waitFor({ timeout: budget(30_000) });
      await sleep(800);
      say(`explorer at ${layout.width} px: stacked; screenshot ${await screenshot(page, path.join(ARTIFACTS, 'explorer-narrow.png'))}`);

      // Close the untitled file (its group closes with it), so the theme picture is the full width.
      const untitled = page.locator('.tabs-container .tab', { hasText: 'Untitled-1' }).first();
      await untitled.hover();
      await untitled.locator('.codicon-close, .action-label[aria-label^="Close"]').first().click({ timeout: budget(10_000) });
      await until('the split closed', async () => (await page.locator('.tabs-container .tab', { hasText: 'Untitled-1' }).count()) === 0, { ms: 10_000, everyMs: 200 });
      await runCommand(page, 'Preferences: Color Theme', { settleMs: 300 });
      const themes = page.locator('.quick-input-widget .quick-input-box input');
      await themes.fill('Dark High Contrast');
      const pick = page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: /^\s*Dark High Contrast\s*$/ }) }).first();
      await pick.click({ timeout: budget(10_000) });
      frame = await webviewFrame(page, { text: DEMO_TEXT, timeoutMs: 60_000 });
      let lines = [];
      await until('the explorer in High Contrast with solid chart lines', async () => {
        const seen = await frame.locator('body').evaluate(() => ({
          hc: document.body.classList.contains('vscode-high-contrast'),
          lines: [...document.querySelectorAll('.timeline-svg .timeline-line')].map((l) => ({ cls: l.getAttribute('class'), stroke: getComputedStyle(l).stroke })),
        }));
        lines = seen.lines;
        return seen.hc && lines.length > 0;
      }, { ms: 30_000, everyMs: 300, describe: () => JSON.stringify(lines) });
      const faint = lines.filter((l) => !/^rgb\(/.test(l.stroke));
      if (faint.length) throw new Error(`chart lines without a solid colour in High Contrast: ${JSON.stringify(faint)}`);
      await sleep(800);
      say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'explorer-high-contrast.png'))}`);
      const errors = await errorNotifications(page);
      if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
    });
    await browser.close();
  }

  await check('SIGTERM stops npm start, code-server and removes the demo dir', async () => {
    if (!pid) throw new Error('no pid was printed');
    process.kill(pid, 'SIGTERM');
    const res = await Promise.race([run.exited, sleep(budget(30_000)).then(() => null)]);
    if (!res) throw new Error(`npm start did not exit within ${budget(30_000) / 1000} s of SIGTERM`);
    if (res.code !== 0) throw new Error(`npm start exited with ${res.code ?? res.signal} after SIGTERM`);
    if (await portOpen(port)) throw new Error(`port ${port} still answers after the stop`);
    const runDir = demoDir && path.dirname(path.dirname(demoDir));
    if (runDir && fs.existsSync(runDir)) throw new Error(`${runDir} still exists`);
  });
  run.killGroup();

  // ---- 2. the self-checking smoke mode (second start: everything is cached)
  await check('ASE_START_SMOKE=1 npm start starts, checks the explorer in Chromium and exits 0 (second start)', async () => {
    const t = Date.now();
    const smoke = npmStart(['--port', String(await freePort())], { ASE_START_SMOKE: '1' });
    const res = await Promise.race([smoke.exited, sleep(budget(120_000)).then(() => null)]);
    smoke.killGroup();
    if (!res) throw new Error(`did not finish within ${budget(120_000) / 1000} s`);
    if (res.code !== 0) throw new Error(`exited with ${res.code ?? res.signal}`);
    if (!/smoke: ok/.test(smoke.out)) throw new Error('no "smoke: ok" line');
    const ready = smoke.out.match(/ready after ([\d.]+)s/);
    say(`second start: ready after ${ready ? ready[1] : '?'}s (whole smoke run ${((Date.now() - t) / 1000).toFixed(1)}s)`);
    if (ready && Number(ready[1]) > 60) throw new Error(`second start took ${ready[1]}s (must be well under a minute)`);
  });
  exitCode = results.every((r) => r.ok) ? 0 : 1;
} catch (e) {
  fail('harness', e);
}
process.exit(finish() ? exitCode : 1);
