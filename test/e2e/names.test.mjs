#!/usr/bin/env node
// Names instead of ids, checked where the user sees them (issue 24, items 4, 9, 10, 15):
// the extension from this folder in a real VS Code (code-server) driven by Chromium, on a
// throwaway pi store (a named session with two branches and a recorded cost, and a fork of
// it) and Claude Code store. Checks the Sessions view's rows (titles, a fork named after
// its source, one icon per agent), the cost in a REAL hover's tooltip (VS Code asks
// resolveTreeItem only for items without a tooltip), the explorer's tab title, the bar of
// the other branch, and Fork Latest's notification, as the workbench shows them.
// Screenshots: test-artifacts/e2e/names-*.png (look at them).
// Usage: node test/e2e/names.test.mjs   Closing line: `names: N passed, M failed`.
// Needs `node scripts/e2e/setup-vscode.mjs` once; builds the extension first.
import fs from 'node:fs';
import path from 'node:path';
import { createChecks } from './checks.mjs';
import { ARTIFACTS, ROOT, runOnWorkbench } from './workbench-run.mjs';
import { runCommand, screenshot, webviewFrame } from '../../scripts/e2e/browser.mjs';
import { budget, until } from '../../scripts/e2e/waits.mjs';

const CWD = '/home/ana/names';
const TITLE = 'Fix the build';
const BIG = 'Refactor the parser';

const checks = createChecks('names');
const { say, check } = checks;

let clock = Date.parse('2026-05-01T10:00:00.000Z');
const ts = () => new Date((clock += 1000)).toISOString();
const user = (id, parentId, text) => ({ type: 'message', id, parentId, timestamp: ts(), message: { role: 'user', content: [{ type: 'text', text }], timestamp: clock } });
const assistant = (id, parentId, text, cost = 0) => ({
  type: 'message', id, parentId, timestamp: ts(),
  message: {
    role: 'assistant', content: [{ type: 'text', text }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5',
    usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, ...(cost ? { cost: { total: cost } } : {}) }, stopReason: 'stop', timestamp: clock,
  },
});
const write = (file, lines) => fs.writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);

/** The stores: a named pi session (two branches, $0.25 recorded, the name set last as pi does), a fork of it, a Claude Code transcript. */
function makeStores(work) {
  const piDir = path.join(work, 'agent', 'sessions', `--${CWD.slice(1).replace(/\//g, '-')}--`);
  fs.mkdirSync(piDir, { recursive: true });
  const source = path.join(piDir, '2026-05-01T10-00-00-000Z_0a1b2c3d-0000-4000-8000-000000000001.jsonl');
  write(source, [
    { type: 'session', version: 3, id: '0a1b2c3d-0000-4000-8000-000000000001', timestamp: ts(), cwd: CWD },
    user('u1', null, 'Run the tests'),
    assistant('a1', 'u1', 'All green.', 0.1),
    user('u2', 'a1', 'Now deploy it'),
    assistant('a2', 'u2', 'Deployed.', 0.05),
    user('u3', 'a1', 'Try the old build'),
    assistant('a3', 'u3', 'The old build fails.', 0.1),
    { type: 'session_info', id: 'i1', parentId: 'a3', timestamp: ts(), name: TITLE },
  ]);
  const fork = path.join(piDir, '2026-05-01T11-00-00-000Z_0a1b2c3d-0000-4000-8000-000000000002.jsonl');
  write(fork, [
    { type: 'session', version: 3, id: '0a1b2c3d-0000-4000-8000-000000000002', timestamp: '2026-05-01T11:00:00.000Z', cwd: CWD, parentSession: source },
    user('u1', null, 'Run the tests'),
    assistant('a1', 'u1', 'All green.'),
  ]);
  const ccDir = path.join(work, 'claude', 'projects', '-home-dev-demo');
  fs.mkdirSync(ccDir, { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'test', 'fixtures', 'claude-code', 'rewind-split-sidechain.jsonl'), path.join(ccDir, 'cc000000-0000-4000-8000-000000000000.jsonl'));
  // Long enough that pi's compaction has something to summarize (more than keepRecentTokens).
  const big = path.join(piDir, '2026-05-01T12-00-00-000Z_0a1b2c3d-0000-4000-8000-000000000003.jsonl');
  const turns = [];
  let parent = null;
  for (let k = 1; k <= 16; k++) {
    turns.push(user(`b${k}u`, parent, `Step ${k} of the parser refactor: ${'explain the grammar rule and its edge cases. '.repeat(60)}`));
    turns.push(assistant(`b${k}a`, `b${k}u`, `Done with step ${k}. ${'The rule now handles nested groups and escapes. '.repeat(60)}`));
    parent = `b${k}a`;
  }
  write(big, [{ type: 'session', version: 3, id: '0a1b2c3d-0000-4000-8000-000000000003', timestamp: ts(), cwd: CWD }, ...turns, { type: 'session_info', id: 'bi', parentId: parent, timestamp: ts(), name: BIG }]);
  return { source, fork, big };
}

await runOnWorkbench(checks, 'names', makeStores, async ({ page, files }) => {
  const rows = page.locator('.sidebar .monaco-list-row');
  const row = (label) => page.locator('.sidebar .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) }).first();

  await check('the Sessions view: titles, the fork named after its source, an icon per agent', async () => {
    await page.locator('.activitybar .action-item a[aria-label^="Agent Sessions"], .activitybar .action-item[aria-label^="Agent Sessions"]').first().click({ timeout: budget(20_000) });
    let texts = [];
    await until('the sessions listed', async () => {
      texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
      // A row's text is its label then its description, with no space between them.
      return [/\| Fix the build\s*pi ·/, /\| Fix the build \(fork at 'All green\.'\)\s*pi ·/, /Claude Code ·/].every((re) => re.test(` | ${texts.join(' | ')}`));
    }, { ms: 30_000, everyMs: 300, describe: () => `rows: ${JSON.stringify(texts)}` });
    // Each agent's own drawing (light/dark pairs under media/agents), not one icon for all.
    const icon = async (label) => decodeURIComponent(await row(label).locator('.custom-view-tree-node-item-icon').evaluate((e) => getComputedStyle(e).backgroundImage));
    const piIcon = await icon(TITLE);
    const ccRow = page.locator('.sidebar .monaco-list-row', { hasText: 'Claude Code ·' }).first();
    const ccIcon = decodeURIComponent(await ccRow.locator('.custom-view-tree-node-item-icon').evaluate((e) => getComputedStyle(e).backgroundImage));
    if (!/agents\/pi-(dark|light)\.svg/.test(piIcon)) throw new Error(`pi's row icon: ${piIcon}`);
    if (!/agents\/claude-code-(dark|light)\.svg/.test(ccIcon)) throw new Error(`Claude Code's row icon: ${ccIcon}`);
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'names-sessions.png'))}`);
  });

  await check('a REAL hover on a session shows its cost in the tooltip, and a fork\'s says what it was forked from', async () => {
    const hover = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Cost of the session' });
    await until('the tooltip with the cost', async () => {
      await page.mouse.move(5, 5);
      await row(TITLE).locator('.label-name').hover();
      return hover.first().isVisible({ timeout: budget(4_000) }).catch(() => false) || hover.first().waitFor({ timeout: budget(4_000) }).then(() => true, () => false);
    }, { ms: 40_000, everyMs: 500 });
    const text = (await hover.first().innerText()).replace(/\s+/g, ' ');
    if (!text.includes('Cost of the session: $0.25')) throw new Error(`hover text: ${text}`);
    say(`hover: ${text.slice(0, 300)}`);
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'names-hover.png'))}`);
    const forkHover = page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'forked from' });
    await until('the fork\'s tooltip', async () => {
      await page.mouse.move(5, 5);
      await row(`${TITLE} (fork at 'All green.')`).locator('.label-name').hover();
      return forkHover.first().waitFor({ timeout: budget(4_000) }).then(() => true, () => false);
    }, { ms: 40_000, everyMs: 500 });
    const ft = (await forkHover.first().innerText()).replace(/\s+/g, ' ');
    if (!ft.includes(`forked from ${TITLE} (${files.source})`)) throw new Error(`fork hover text: ${ft}`);
    await page.mouse.move(5, 5);
  });

  await check('the explorer\'s tab is titled by the session, and the other branch\'s bar by its last prompt', async () => {
    await row(TITLE).click();
    const tab = page.locator('.tabs-container .tab', { hasText: TITLE }).first();
    await tab.waitFor({ timeout: budget(30_000) });
    const tabText = (await tab.innerText()).trim();
    if (/\.jsonl|Session:/.test(tabText)) throw new Error(`tab title: ${tabText}`);
    const frame = await webviewFrame(page, { text: "Branch after 'Now deploy it'", timeoutMs: 40_000 });
    const bars = await frame.locator('.bar-title').allInnerTexts();
    if (bars.some((b) => /Branch ending at/.test(b))) throw new Error(`bars: ${bars.join(' | ')}`);
    say(`tab "${tabText}", bars: ${bars.join(' | ')}`);
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'names-explorer.png'))}`);
  });

  await check('Fork Latest\'s notification names the session and the entry, not a file name, and offers Open', async () => {
    // Fork Latest is offered on a session's row (its context menu), not in the palette.
    await row(TITLE).click({ button: 'right' });
    // VS Code's menus act on the item's own element, and on Enter once it is focused.
    const item = page.locator('.context-view .monaco-menu .action-menu-item', { hasText: 'Fork Latest' }).first();
    await item.hover({ timeout: budget(15_000) });
    await page.keyboard.press('Enter');
    // The words are announced at once (the workbench's alert); the toast may not be drawn in a
    // headless window, so the notification is read where it stays: the notification center.
    const alert = page.locator('.monaco-aria-container .monaco-alert', { hasText: 'Forked' }).first();
    await alert.waitFor({ state: 'attached', timeout: budget(30_000) });
    say(`announced: ${(await alert.textContent()).trim()}`);
    await runCommand(page, 'Notifications: Show Notifications');
    const toast = page.locator('.notifications-center .notification-list-item, .notifications-toasts .notification-toast', { hasText: 'Forked' }).first();
    await toast.waitFor({ timeout: budget(30_000) });
    const text = (await toast.innerText()).replace(/\s+/g, ' ');
    if (!text.includes(`Forked '${TITLE}' at 'Try the old build'`)) throw new Error(`notification: ${text}`);
    if (/\.jsonl/.test(text)) throw new Error(`the notification names a file: ${text}`);
    if (!(await toast.locator('.monaco-button', { hasText: 'Open' }).count())) throw new Error(`no Open button: ${text}`);
    say(`notification: ${text}`);
    // The new fork is listed after its source and entry, apart from the first fork.
    await row(`${TITLE} (fork at 'Try the old build')`).waitFor({ timeout: budget(30_000) });
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'names-fork-notice.png'))}`);
  });

  await check('Compact: nothing to compact is information naming the session, before any question', async () => {
    // The notification center the last check opened is closed first.
    await runCommand(page, 'Notifications: Hide Notifications').catch(() => page.keyboard.press('Escape'));
    await row(TITLE).click();
    await page.locator('.tabs-container .tab', { hasText: TITLE }).first().waitFor({ timeout: budget(30_000) });
    await runCommand(page, 'Agent Sessions: Compact Session');
    const alert = page.locator('.monaco-aria-container .monaco-alert', { hasText: 'Nothing to compact' }).first();
    await alert.waitFor({ state: 'attached', timeout: budget(30_000) });
    const text = (await alert.textContent()).trim();
    if (!text.includes(`Nothing to compact in '${TITLE}'`)) throw new Error(`announced: ${text}`);
    if (await page.locator('.quick-input-widget .quick-input-title', { hasText: 'which way' }).isVisible().catch(() => false)) throw new Error('a strategy was asked for first');
    say(`announced: ${text}`);
  });

  await check('Compact: the plan of each strategy before the choice, the session named, and the free "Show the Plan" as the dialog\'s default', async () => {
    const before = fs.readFileSync(files.big);
    // The last check's message may still hold the window (a modal leaves the rest inert): close it.
    await until('no dialog over the window', async () => {
      if (!(await page.locator('.monaco-dialog-box').count())) return true;
      await page.keyboard.press('Escape');
      return false;
    }, { ms: 15_000, everyMs: 300 });
    await row(BIG).click();
    await page.locator('.tabs-container .tab', { hasText: BIG }).first().waitFor({ timeout: budget(30_000) });
    await runCommand(page, 'Agent Sessions: Compact Session');
    const title = page.locator('.quick-input-widget .quick-input-title');
    await until('the strategy pick', async () => ((await title.textContent().catch(() => '')) ?? '').includes('which way'), { ms: 30_000, everyMs: 300 });
    const titleText = (await title.textContent()).trim();
    if (!titleText.includes(`Compact '${BIG}'`)) throw new Error(`pick title: ${titleText}`);
    const items = (await page.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    if (items.length !== 3 || !items.every((t) => /tokens; summarizes \d+ messages, keeps \d+/.test(t))) throw new Error(`items: ${JSON.stringify(items)}`);
    if (!/^Summarize.*calls claude-sonnet-4-5/.test(items[0]) || /calls/.test(items[2])) throw new Error(`the paid ones say so: ${JSON.stringify(items)}`);
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'compact-pick.png'))}`);
    // The explorer opened for the session can take the focus after the pick is drawn (its
    // webview still loading: an Enter then went to it, in one CI run): the pick's box is given
    // the focus back until it has it, and Enter pressed on it; the same for the instructions.
    const box = page.locator('.quick-input-widget .quick-input-box input');
    const pressOnBox = async (what) => {
      await until(`${what} to have the focus`, async () => {
        if (await box.evaluate((el) => el === document.activeElement).catch(() => false)) return true;
        await box.focus().catch(() => undefined);
        return false;
      }, { ms: 30_000, everyMs: 200 });
      await box.press('Enter');
    };
    await pressOnBox('the strategy pick');
    await until('the instructions box', async () => ((await title.textContent().catch(() => '')) ?? '').includes('Extra instructions'), { ms: 20_000, everyMs: 300 });
    await pressOnBox('the instructions box');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: budget(20_000) });
    const message = (await dialog.locator('.dialog-message-text').innerText()).trim();
    if (message !== `Compact '${BIG}'?`) throw new Error(`dialog: ${message}`);
    // The order VS Code draws them in depends on the platform; the default is the one that has the focus (Enter presses it).
    const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((t) => t.trim());
    if (!buttons.includes('Show the Plan') || !buttons.includes('Compact (calls claude-sonnet-4-5)')) throw new Error(`buttons: ${JSON.stringify(buttons)}`);
    const focused = (await page.evaluate(() => document.activeElement?.textContent ?? '')).trim();
    if (focused !== 'Show the Plan') throw new Error(`the dialog's default (focused) button is "${focused}", not the free one`);
    say(`dialog "${message}", buttons ${JSON.stringify(buttons)}, focused "${focused}"`);
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'compact-dialog.png'))}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', timeout: budget(10_000) });
    if (!fs.readFileSync(files.big).equals(before)) throw new Error('the session changed');
  });
});
