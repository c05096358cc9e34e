#!/usr/bin/env node
// Sub-agents nested under the call that started them (issue 24, item 8), where the user
// sees them: the extension from this folder in a real VS Code (code-server) driven by
// Chromium, on a throwaway Claude Code store holding a session whose Agent call has its
// transcript in <session>/subagents/. Opens the session from the Sessions view, expands
// the call in the explorer, selects a nested row and checks its actions are disabled.
// Screenshot: test-artifacts/e2e/subagents-explorer.png (look at it).
// Usage: node test/e2e/subagents.test.mjs   Closing line: `subagents: N passed, M failed`.
// Needs `node scripts/e2e/setup-vscode.mjs` once; builds the extension first.
import fs from 'node:fs';
import path from 'node:path';
import { createChecks } from './checks.mjs';
import { ARTIFACTS, runOnWorkbench } from './workbench-run.mjs';
import { screenshot, webviewFrame } from '../../scripts/e2e/browser.mjs';
import { budget, until } from '../../scripts/e2e/waits.mjs';
import { writeSubagentSession } from '../webview/subagents.test.mjs';

const checks = createChecks('subagents');
const { say, check } = checks;

/** The Claude Code store: one session whose Agent call's transcript is in <session>/subagents/. */
function makeStores(work) {
  const file = writeSubagentSession(path.join(work, 'claude', 'projects', '-home-dev-demo'));
  return { file, before: fs.readFileSync(file) };
}

await runOnWorkbench(checks, 'subagents', makeStores, async ({ page, files }) => {
  await check('the Agent call row: the agent icon, collapsed; expanding nests the sub-agent\'s rows with its steps and cost; a nested row\'s actions are disabled', async () => {
    await page.locator('.activitybar .action-item a[aria-label^="Agent Sessions"], .activitybar .action-item[aria-label^="Agent Sessions"]').first().click({ timeout: budget(20_000) });
    const row = page.locator('.sidebar .monaco-list-row', { hasText: 'Claude Code ·' }).first();
    await row.waitFor({ timeout: budget(30_000) });
    await row.click();
    const frame = await webviewFrame(page, { text: 'Agent (Explore): Survey the test suite', timeoutMs: 40_000 });
    const call = frame.locator('.row[data-id=a1]');
    if ((await call.getAttribute('aria-expanded')) !== 'false') throw new Error('the call row is not collapsed');
    if ((await call.locator('.role-icon.codicon-agent').count()) !== 1) throw new Error('no agent icon on the call row');
    await call.locator('.twisty').click();
    await until('the nested rows', async () => (await frame.locator('.row.nested').count()) === 4, { ms: 20_000, everyMs: 200 });
    const chip = (await call.locator('.subagent-chip').innerText()).trim();
    if (!/^2 steps · \$/.test(chip)) throw new Error(`chip: ${chip}`);
    const nested = frame.locator(".row[data-id='sub:sub1:s2']");
    if ((await nested.locator('.preview').innerText()).trim() !== 'Read test/a.test.ts') throw new Error('the nested Read row');
    await nested.locator('.preview').click();
    await until('its details', async () => (await frame.locator('.detail-pane').getAttribute('data-id')) === 'sub:sub1:s2', { ms: 20_000, everyMs: 200 });
    const fork = frame.locator('.detail-pane vscode-button[data-action=fork]');
    if (!(await fork.evaluate((b) => b.hasAttribute('disabled')))) throw new Error('Fork is enabled on a sub-agent\'s entry');
    say(`chip "${chip}", fork: ${await fork.getAttribute('title')}`);
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'subagents-explorer.png'))}`);
    if (!fs.readFileSync(files.file).equals(files.before)) throw new Error('the session changed');
  });
});
