#!/usr/bin/env node
// The packaged extension, as a user gets it: `npm run package`, install the .vsix into a
// fresh code-server extensions dir with --install-extension, open a workspace whose
// .agent-sessions/open.json names a demo session (the installed extension must open it in
// the Session Explorer: the webview bundle and assets are in the package), then run
// "Agent Sessions: Show Log" from the command palette and read the log it shows.
// Usage: node test/e2e/vsix.test.mjs   Closing line: `vsix: N passed, M failed`.
// Needs the e2e toolchain: node scripts/e2e/setup-vscode.mjs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createChecks } from './checks.mjs';
import { budget, until } from '../../scripts/e2e/waits.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const VSIX = path.join(ROOT, 'dist-vsix', `${pkg.name}-${pkg.version}.vsix`);

const { say, check, fail, finish, setFailureReporter } = createChecks('vsix');
const HOSTILE_TEXT = 'Hostile: <img src=x onerror=';

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ase-vsix-test-'));
let server = null;
let browser = null;
try {
  const { assertInstalled } = await import('../../scripts/e2e/paths.mjs');
  const { extensionsDirOf, installVsix, startCodeServer, workbenchUrl } = await import('../../scripts/e2e/code-server.mjs');
  const { errorNotifications, failureReport, launchBrowser, openWorkbench, runCommand, screenshot, webviewFrame } = await import('../../scripts/e2e/browser.mjs');
  const { generateDemo } = await import('../../scripts/demo/generate-demo.mjs');
  const { zipEntries } = await import('../../scripts/package.mjs');
  assertInstalled();

  const packaged = await check('npm run package builds the .vsix (under 10 MB, no sources, tests or maps)', async () => {
    const r = spawnSync('npm', ['run', '--silent', 'package'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) {
      const log = path.join(ARTIFACTS, 'package.log');
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      fs.writeFileSync(log, r.stdout + r.stderr);
      const why = (r.stderr + r.stdout).split('\n').filter((l) => /FAILED|ERROR|must not|missing|over the/i.test(l));
      throw new Error(`exit ${r.status}: ${why.join(' / ') || 'see ' + log}`);
    }
    if (!fs.existsSync(VSIX)) throw new Error(`${VSIX} was not written`);
    const size = fs.statSync(VSIX).size;
    const names = zipEntries(VSIX).map((e) => e.name);
    say(`${path.relative(ROOT, VSIX)}: ${(size / 1024).toFixed(0)} KB, ${names.length} files`);
    const bad = names.filter((n) => /^extension\/(src|test|webview|node_modules)\/|\.map$|\.jsonl$/.test(n));
    if (bad.length) throw new Error(`unexpected files: ${bad.join(', ')}`);
  });
  // `npm run package` leaves the minified production build in dist/; put the
  // development build (with source maps) back for the other test layers.
  spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  if (!packaged) throw new Error('no .vsix to install');

  const csRun = path.join(runDir, 'code-server');
  await check('code-server --install-extension installs it into a fresh extensions dir', async () => {
    say(installVsix(VSIX, extensionsDirOf(csRun)));
    const dirs = fs.readdirSync(extensionsDirOf(csRun));
    const want = `${pkg.publisher}.${pkg.name}-${pkg.version}`.toLowerCase();
    if (!dirs.some((d) => d.toLowerCase() === want)) throw new Error(`extensions dir holds ${JSON.stringify(dirs)}, not ${want}`);
  });

  // extension.js requires these two on first use (exact counts, summaries): a package
  // without them would activate fine and fail only then.
  await check('the installed copy has its lazy bundles (tokenizer, Anthropic SDK), and they load on their own', async () => {
    const dir = fs.readdirSync(extensionsDirOf(csRun)).find((d) => d.toLowerCase().startsWith(`${pkg.publisher}.${pkg.name}-`.toLowerCase()));
    const dist = path.join(extensionsDirOf(csRun), dir ?? '', 'dist');
    const probe = [
      `const t = require(${JSON.stringify(path.join(dist, 'tokenizer.js'))});`,
      `const s = require(${JSON.stringify(path.join(dist, 'anthropic-sdk.js'))});`,
      `process.stdout.write(JSON.stringify({ tokens: t.countTokens('hello world'), sdk: typeof s.Anthropic, errors: typeof s.APIError }));`,
    ].join('\n');
    const r = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`the installed bundles do not load: ${r.stderr.trim().split('\n').slice(0, 3).join(' / ')}`);
    const got = JSON.parse(r.stdout);
    if (got.tokens !== 2 || got.sdk !== 'function' || got.errors !== 'function') throw new Error(`unexpected: ${r.stdout}`);
  });

  // A demo workspace: the rich session, opened by the installed extension on start.
  const agentDir = path.join(runDir, 'pi-agent');
  const demo = generateDemo(path.join(agentDir, 'sessions'), { large: false });
  const workspace = path.join(runDir, 'workspace');
  fs.mkdirSync(path.join(workspace, '.agent-sessions'), { recursive: true });
  const hostile = writeHostileSession(path.join(agentDir, 'sessions', '--home-demo-hostile--'));
  fs.writeFileSync(path.join(workspace, '.agent-sessions', 'open.json'), JSON.stringify({ open: [hostile, demo.rich] }));

  server = await startCodeServer({ workspace, runDir: csRun, env: { PI_CODING_AGENT_DIR: agentDir } });
  browser = await launchBrowser({ profileDir: path.join(runDir, 'chromium') });
  const { page } = browser;
  setFailureReporter((title) => failureReport(page, path.join(ARTIFACTS, `vsix-failure-${title.replace(/\W+/g, '-').slice(0, 50)}.png`)));
  // No extensionDevelopmentPath: only the installed copy can answer.
  const url = workbenchUrl({ port: server.port, workspace });
  say(`workbench restored in ${((await openWorkbench(page, url)) / 1000).toFixed(1)}s`);

  await check('the installed extension opens the demo session in the Session Explorer', async () => {
    await webviewFrame(page, { text: demo.knownText, timeoutMs: 60_000 });
  });

  await check('hostile session content is shown as text in the real host: no element from it, no script run, hidden characters marked', async () => {
    // Tabs are titled by the session's name (its hidden character shown as a mark), not its file.
    await page.locator('.tabs-container .tab', { hasText: 'Hostile ⟨U+202E⟩names' }).first().click({ timeout: budget(30_000) });
    const frame = await webviewFrame(page, { text: HOSTILE_TEXT, timeoutMs: 60_000 });
    const body = frame.locator('body');
    const text = await body.innerText();
    if (!text.includes('<img src=x onerror=')) throw new Error('the HTML of the message is not shown literally');
    if (!text.includes('\u27e8U+202E\u27e9')) throw new Error('the right-to-left override is not marked as \u27e8U+202E\u27e9');
    if (text.includes('\u202e')) throw new Error('a raw U+202E reached the page');
    // The page's own scripts carry the CSP nonce or come from VS Code's webview host;
    // none may hold the session's script text.
    const made = await body.evaluate(() => ({
      els: [...document.querySelectorAll('img[src="x"], b.evil'), ...[...document.scripts].filter((s) => s.textContent.includes('__pwned'))].map((e) => e.outerHTML.slice(0, 120)),
      pwned: window.__pwned === 1,
    }));
    if (made.els.length) throw new Error(`element(s) made from session content: ${made.els.join(' | ')}`);
    if (made.pwned) throw new Error('a script from session content ran');
  });

  await check('"Agent Sessions: Show Log" from the palette shows the extension log', async () => {
    await runCommand(page, 'Agent Sessions: Show Log');
    const lines = page.locator('.part.panel .monaco-editor .view-lines');
    let text = '';
    await until('the activation line in the Output panel', async () => {
      text = (await lines.allInnerTexts()).join('\n').replace(/\u00a0/g, ' ');
      return /activated in \d+ ms/.test(text);
    }, { ms: 15_000, everyMs: 300, describe: () => `the Output panel shows ${JSON.stringify(text.slice(0, 300))}` });
    const errors = await errorNotifications(page);
    if (errors.length) throw new Error(`error notification(s): ${errors.join(' | ')}`);
    say(`screenshot ${await screenshot(page, path.join(ARTIFACTS, 'vsix-show-log.png'))}`);
  });

  // Restricted Mode: the same installed extension, a workspace that is not trusted. Its
  // open.json lists a session inside the folder and one outside it (the demo's).
  await browser.close();
  await server.stop();
  browser = null;
  server = null;
  const untrusted = path.join(runDir, 'untrusted-workspace');
  const inside = path.join(untrusted, 'sessions', '2026-03-01T10-00-00-000Z_inside.jsonl');
  fs.mkdirSync(path.dirname(inside), { recursive: true });
  fs.copyFileSync(hostile, inside);
  fs.mkdirSync(path.join(untrusted, '.agent-sessions'), { recursive: true });
  fs.writeFileSync(path.join(untrusted, '.agent-sessions', 'open.json'), JSON.stringify({ open: ['sessions/2026-03-01T10-00-00-000Z_inside.jsonl', demo.rich] }));
  const csUntrusted = path.join(runDir, 'code-server-untrusted');
  installVsix(VSIX, extensionsDirOf(csUntrusted));
  server = await startCodeServer({ workspace: untrusted, runDir: csUntrusted, env: { PI_CODING_AGENT_DIR: agentDir }, workspaceTrust: true });
  browser = await launchBrowser({ profileDir: path.join(runDir, 'chromium-untrusted') });
  const page2 = browser.page;
  setFailureReporter((title) => failureReport(page2, path.join(ARTIFACTS, `vsix-failure-${title.replace(/\W+/g, '-').slice(0, 50)}.png`)));
  say(`untrusted workbench restored in ${((await openWorkbench(page2, workbenchUrl({ port: server.port, workspace: untrusted }))) / 1000).toFixed(1)}s`);

  await check('Restricted Mode: open.json opens the session inside the workspace folder, refuses the one outside and says so', async () => {
    await webviewFrame(page2, { text: HOSTILE_TEXT, timeoutMs: 60_000 });
    // A warning toast hides itself after a while: read it in the notification center.
    await runCommand(page2, 'Notifications: Show Notifications', { settleMs: 300 });
    const warning = page2.locator('.notifications-center .notification-list-item', { hasText: 'open.json: not opened' });
    await warning.first().waitFor({ timeout: budget(30_000) });
    const text = (await warning.first().innerText()).replace(/\s+/g, ' ');
    if (!text.includes('outside the') || !text.includes(path.basename(demo.rich))) throw new Error(`the warning says ${JSON.stringify(text)}`);
    const tabs = (await page2.locator('.tabs-container .tab').allInnerTexts()).map((t) => t.trim());
    // The session inside is the hostile one (titled by its name); the one outside is the rich demo.
    if (!tabs.some((t) => t.includes('Hostile ⟨U+202E⟩names'))) throw new Error(`no tab for the session inside the folder: ${JSON.stringify(tabs)}`);
    if (tabs.some((t) => t.includes(demo.richName))) throw new Error(`the session outside the folder was opened: ${JSON.stringify(tabs)}`);
    say(`screenshot ${await screenshot(page2, path.join(ARTIFACTS, 'vsix-restricted-mode.png'))}`);
  });
} catch (e) {
  fail('harness', e);
  if (browser) await screenshot_(browser.page);
} finally {
  if (browser) await browser.close();
  if (server) await server.stop();
}

/** A pi session whose text tries HTML, script and a right-to-left override. */
function writeHostileSession(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const t = (s) => `2026-03-01T10:00:0${s}.000Z`;
  const lines = [
    { type: 'session', version: 3, id: 'hostile-1', timestamp: t(0), cwd: '/home/demo/hostile' },
    { type: 'message', id: 'h0000001', parentId: null, timestamp: t(1), message: { role: 'user', content: `${HOSTILE_TEXT}"window.__pwned=1"> <b class="evil">bold</b> <script>window.__pwned=1</script>`, timestamp: 1 } },
    { type: 'label', id: 'h0000002', parentId: 'h0000001', timestamp: t(2), targetId: 'h0000001', label: 'invoice\u202Efdp.exe' },
    { type: 'session_info', id: 'h0000003', parentId: 'h0000002', timestamp: t(3), name: 'Hostile \u202Enames' },
  ];
  const file = path.join(dir, '2026-03-01T10-00-00-000Z_hostile.jsonl');
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

async function screenshot_(page) {
  try {
    const { screenshot } = await import('../../scripts/e2e/browser.mjs');
    say(`failure screenshot ${await screenshot(page, path.join(ARTIFACTS, 'vsix-failure.png'))}`);
  } catch { /* best effort */ }
}

const ok = finish();
if (ok) fs.rmSync(runDir, { recursive: true, force: true });
else say(`run dir kept: ${runDir}`);
process.exit(ok ? 0 : 1);
