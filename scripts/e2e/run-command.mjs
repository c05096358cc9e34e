#!/usr/bin/env node
// Loads an extension into a real VS Code (code-server + chromium), runs one command
// through the command palette as a person would, and optionally checks the text of
// the webview it opens and saves a screenshot.
//
// Usage:
//   node scripts/e2e/run-command.mjs --extension <dir> | --vsix <file.vsix>
//        --command "<Category: Title>" [--webview-text "<text>"] [--screenshot <file.png>]
//        [--workspace <dir>] [--env KEY=VALUE ...] [--keep-run-dir]
// Exit code: 0 when the command ran without an error dialog (and the webview showed
// the text); 1 otherwise (a *-failure.png is written next to --screenshot); 2 on bad usage.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { errorNotifications, launchBrowser, openWorkbench, runCommand, screenshot, webviewFrame } from './browser.mjs';
import { extensionsDirOf, installVsix, startCodeServer, workbenchUrl } from './code-server.mjs';
import { assertInstalled } from './paths.mjs';

const t0 = Date.now();
const say = (msg) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

function parseArgs(argv) {
  const o = { env: {}, keepRunDir: false };
  const bad = (msg) => { console.error(`run-command: ${msg}`); process.exit(2); };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--keep-run-dir') { o.keepRunDir = true; continue; }
    const value = argv[++i];
    if (value === undefined) bad(`${flag} needs a value`);
    if (flag === '--env') {
      const eq = value.indexOf('=');
      if (eq <= 0) bad(`--env expects KEY=VALUE, got ${value}`);
      o.env[value.slice(0, eq)] = value.slice(eq + 1);
      continue;
    }
    const key = { '--extension': 'extension', '--vsix': 'vsix', '--command': 'command', '--webview-text': 'webviewText',
      '--screenshot': 'screenshot', '--workspace': 'workspace' }[flag];
    if (!key) bad(`unknown argument ${flag}`);
    o[key] = ['command', 'webviewText'].includes(key) ? value : path.resolve(value);
  }
  if (!o.extension === !o.vsix) bad('give exactly one of --extension DIR or --vsix FILE');
  if (!o.command) bad('--command "<Category: Title>" is required');
  return o;
}

const opts = parseArgs(process.argv.slice(2));
try { assertInstalled(); } catch (e) { console.error(`run-command: ${e.message}`); process.exit(2); }

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ase-e2e-run-'));
const workspace = opts.workspace || path.join(runDir, 'workspace');
let server = null;
let browser = null;
let exitCode = 1;

try {
  // Installed first: the server reads its extensions dir when the workbench connects.
  if (opts.vsix) say(installVsix(opts.vsix, extensionsDirOf(runDir)));
  server = await startCodeServer({ workspace, runDir, env: opts.env });
  browser = await launchBrowser({ profileDir: path.join(runDir, 'chromium') });
  const { page } = browser;
  const url = workbenchUrl({ port: server.port, workspace, extensionDevelopmentPath: opts.extension });
  say(`workbench restored in ${((await openWorkbench(page, url)) / 1000).toFixed(1)}s`);

  await runCommand(page, opts.command);
  say(`ran "${opts.command}"`);
  if (opts.webviewText !== undefined) {
    const frame = await webviewFrame(page, { text: opts.webviewText });
    say(`webview text: ${JSON.stringify(await frame.locator('body').innerText())}`);
  }
  // Activation failures and other errors surface as toasts rather than the modal.
  const errors = await errorNotifications(page);
  if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
  if (opts.screenshot) say(`screenshot ${await screenshot(page, opts.screenshot)}`);
  exitCode = 0;
} catch (e) {
  say(`FAILED: ${e.message}`);
  if (browser) {
    const shot = opts.screenshot ? opts.screenshot.replace(/(\.png)?$/, '-failure.png') : path.join(runDir, 'failure.png');
    await screenshot(browser.page, shot).then((f) => say(`failure screenshot ${f}`), () => {});
  }
} finally {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (exitCode === 0 && !opts.keepRunDir) fs.rmSync(runDir, { recursive: true, force: true });
  else say(`run dir kept: ${runDir}`);
}
process.exit(exitCode);
