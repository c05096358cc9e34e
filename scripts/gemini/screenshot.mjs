#!/usr/bin/env node
// The README's Gemini CLI screenshot: a real VS Code (code-server + headless Chromium) with
// the extension from this folder, GEMINI_CLI_HOME at the demo store (scripts/demo/gemini-demo.mjs,
// recorded sessions) and the recorded /rewind opened by the workspace's open.json.
//   node esbuild.mjs && node scripts/gemini/screenshot.mjs [--out media/screenshots/gemini-rewind.png]
// Needs the e2e cache (node scripts/e2e/setup-vscode.mjs). Everything else is under $TMPDIR, removed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openWorkbench, screenshot, webviewFrame } from '../e2e/browser.mjs';
import { startCodeServer, workbenchUrl } from '../e2e/code-server.mjs';
import { assertInstalled } from '../e2e/paths.mjs';
import { generateGeminiDemo } from '../demo/gemini-demo.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const out = path.resolve(args.includes('--out') ? args[args.indexOf('--out') + 1] : path.join(ROOT, 'media', 'screenshots', 'gemini-rewind.png'));

assertInstalled();
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ase-gemini-shot-'));
let server;
let browser;
try {
  // The store inside the workspace: open.json opens the workspace's own files without asking.
  const workspace = path.join(runDir, 'workspace');
  const home = path.join(workspace, 'gemini-home');
  const { chats, ids } = generateGeminiDemo(home);
  const rewind = fs.readdirSync(chats).find((n) => n.endsWith(`${ids.rewind.slice(0, 8)}.jsonl`));
  fs.mkdirSync(path.join(workspace, '.agent-sessions'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.agent-sessions', 'open.json'), JSON.stringify({ open: [path.join(chats, rewind)] }));
  server = await startCodeServer({ workspace, runDir: path.join(runDir, 'code-server'), env: { GEMINI_CLI_HOME: home } });
  browser = await launchBrowser({ profileDir: path.join(runDir, 'chromium') });
  await openWorkbench(browser.page, workbenchUrl({ port: server.port, workspace, extensionDevelopmentPath: ROOT }));
  await webviewFrame(browser.page, { text: 'third turn after the rewind', timeoutMs: 60_000 });
  // The Sessions view beside it, with the Gemini project open.
  await browser.page.locator('.activitybar [aria-label^="Agent Sessions"]').first().click().catch(() => {});
  await browser.page.getByText('/home/demo/gemini-project').first().waitFor({ timeout: 30_000 }).catch(() => {});
  console.log(`screenshot ${await screenshot(browser.page, out)}`);
} finally {
  await browser?.close().catch(() => {});
  await server?.stop().catch(() => {});
  fs.rmSync(runDir, { recursive: true, force: true });
}
