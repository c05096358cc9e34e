#!/usr/bin/env node
// Per-file agent history and agent blame (issue 31) where the user sees them: the extension
// from this folder in a real VS Code (code-server) driven by Chromium, on a workspace with a
// file a throwaway pi session read and then edited. Opens the file, shows its Agent History
// (the view's rows as the workbench draws them), turns agent blame on, hovers the edited
// line with the mouse (VS Code's own hover widget), then types into that line and hovers
// again: the line is no longer the agent's.
// Screenshots: test-artifacts/e2e/history-view.png, history-blame.png (look at them).
// Usage: node test/e2e/history.test.mjs   Closing line: `history: N passed, M failed`.
// Needs `node scripts/e2e/setup-vscode.mjs` once; builds the extension first.
import fs from 'node:fs';
import path from 'node:path';
import { createChecks } from './checks.mjs';
import { ARTIFACTS, runOnWorkbench } from './workbench-run.mjs';
import { runCommand, screenshot } from '../../scripts/e2e/browser.mjs';
import { budget, until } from '../../scripts/e2e/waits.mjs';

const PROMPT = 'Make greet welcome people aboard';
const GREET = ['// greeting helpers', '', 'export function greet(name: string): string {', '  return `Hello, ${name}! Welcome aboard.`;', '}', '', 'export const VERSION = 3;', ''].join('\n');

const checks = createChecks('history');
const { say, check } = checks;

let clock = Date.parse('2026-05-01T10:00:00.000Z');
const ts = () => new Date((clock += 60_000)).toISOString();
const msg = (id, parentId, role, content, extra = {}) => ({ type: 'message', id, parentId, timestamp: ts(), message: { role, content, timestamp: clock, ...extra } });
const asst = { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120 }, stopReason: 'toolUse' };

/** The workspace's src/greet.ts and a pi session (cwd: the workspace) that read it, then edited its fourth line. */
function makeStores(work) {
  const ws = path.join(work, 'workspace');
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'src', 'greet.ts'), GREET);
  const dir = path.join(work, 'agent', 'sessions', `--${ws.slice(1).replace(/\//g, '-')}--`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, '2026-05-01T10-00-00-000Z_0a1b2c3d-0000-4000-8000-0000000000aa.jsonl');
  const lines = [
    { type: 'session', version: 3, id: '0a1b2c3d-0000-4000-8000-0000000000aa', timestamp: ts(), cwd: ws },
    msg('u1', null, 'user', [{ type: 'text', text: PROMPT }]),
    msg('a1', 'u1', 'assistant', [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'src/greet.ts' } }], asst),
    msg('r1', 'a1', 'toolResult', [{ type: 'text', text: 'export function greet(name: string): string {\n  return name;\n}' }], { toolCallId: 'c1', toolName: 'read', isError: false }),
    msg('a2', 'r1', 'assistant', [{ type: 'toolCall', id: 'c2', name: 'edit', arguments: { path: 'src/greet.ts', oldText: '  return name;', newText: '  return `Hello, ${name}! Welcome aboard.`;' } }], asst),
    msg('r2', 'a2', 'toolResult', [{ type: 'text', text: 'Successfully replaced text' }], { toolCallId: 'c2', toolName: 'edit', isError: false }),
  ];
  fs.writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return { file, greet: path.join(ws, 'src', 'greet.ts') };
}

await runOnWorkbench(checks, 'history', makeStores, async ({ page }) => {
  const editorLine = (n) => page.locator('.monaco-editor .view-lines .view-line').nth(n - 1);
  const hoverText = async () => (await page.locator('.monaco-hover:visible').allInnerTexts()).join('\n').trim();
  /** Hovers a place as a person does (the mouse rests on it) and waits for a hover holding `re`; false when none shows. */
  const hoverShows = async (target, re, ms) => {
    for (let k = 0; k < 3; k++) {
      await page.mouse.move(10, 10);
      await target.hover({ position: { x: 24 + k * 4, y: 8 } });
      try {
        await until('a hover', async () => re.test(await hoverText()), { ms, everyMs: 250 });
        return true;
      } catch {
        // Not shown yet (the machine is busy): rest the mouse again.
      }
    }
    return false;
  };

  await check('the Agent History view follows the open file: its session and the edit and read entries with the prompt', async () => {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget .quick-input-box input').fill('greet.ts', { timeout: budget(10_000) });
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'greet.ts' }).first().click({ timeout: budget(20_000) });
    await editorLine(4).waitFor({ timeout: budget(20_000) });
    await runCommand(page, 'Agent Sessions: Show Agent History for This File');
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Agent History' }) });
    const rows = view.locator('.monaco-list-row');
    await until('three rows in the Agent History view', async () => (await rows.count()) === 3, { ms: 60_000, everyMs: 300 });
    const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    say(`rows: ${JSON.stringify(texts)}`);
    // A row's text is its label then its description.
    if (!texts[0].startsWith(`${PROMPT}pi · 2 entries ·`)) throw new Error(`session row: ${texts[0]}`);
    if (!/^Make greet welcome people aboardedit · 2026-05-01 \d\d:\d\d$/.test(texts[1])) throw new Error(`edit row: ${texts[1]}`);
    if (!/^Make greet welcome people aboardread · 2026-05-01 \d\d:\d\d$/.test(texts[2])) throw new Error(`read row: ${texts[2]}`);
    const header = (await view.locator('.pane-header').innerText()).replace(/\s+/g, ' ');
    if (!header.includes('greet.ts · 2 entries')) throw new Error(`view header: ${header}`);
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'history-view.png'))}`);
  });

  await check('agent blame: the edited line, hovered with the mouse, names the agent, session, time and prompt; typed over, it is no longer claimed', async () => {
    await runCommand(page, 'Agent Sessions: Toggle Agent Blame');
    // The agent's name and time follow the first marked line (an after-decoration).
    await until('the blame mark after line 4', async () => (await editorLine(4).evaluate((el) => [...el.querySelectorAll('span')].map((s) => getComputedStyle(s, '::after').content).join(' '))).includes('pi ·'), { ms: 30_000, everyMs: 300 });
    const marks = await page.locator('.monaco-editor .view-lines .view-line').evaluateAll((els) => els.map((el) => [...el.querySelectorAll('span')].some((s) => getComputedStyle(s, '::after').content.includes('pi ·'))));
    if (marks.filter(Boolean).length !== 1 || !marks[3]) throw new Error(`marked lines: ${JSON.stringify(marks)}`);
    // On the word "return" of line 4 (the line's text stays there when its greeting is typed over).
    const word = editorLine(4);
    if (!(await hoverShows(word, /Agent edit/, 10_000))) throw new Error(`no blame hover on line 4 (hover: ${await hoverText()})`);
    const hover = (await hoverText()).replace(/\s+/g, ' ');
    say(`hover: ${hover}`);
    for (const part of ['Agent edit · pi · 2026-05-01', `Session: ${PROMPT}`, `Prompt: ${PROMPT}`, 'Open this entry in the explorer']) {
      if (!hover.includes(part)) throw new Error(`the hover lacks "${part}": ${hover}`);
    }
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'history-blame.png'))}`);
    // Type over "Hello" on line 4: the line is a person's now.
    await page.mouse.move(10, 10);
    await editorLine(4).locator('span', { hasText: 'Hello' }).first().dblclick();
    await page.keyboard.type('Howdy');
    await until('the blame mark to go', async () => !(await editorLine(4).evaluate((el) => [...el.querySelectorAll('span')].map((s) => getComputedStyle(s, '::after').content).join(' '))).includes('pi ·'), { ms: 30_000, everyMs: 300 });
    // The same hover as above, given the same time, shows nothing of ours now.
    if (await hoverShows(word, /Agent edit/, 3_000)) throw new Error(`the edited line is still claimed: ${await hoverText()}`);
  });
});
