#!/usr/bin/env node
// Runs an extension's test suite INSIDE a real VS Code extension host (code-server),
// with the contract of @vscode/test-electron: the host loads the extension from its
// folder, require()s the tests module and awaits its run(); a rejection fails the run.
//
// Usage:
//   node scripts/e2e/run-extension-tests.mjs --extension <abs dir> --tests <abs .../test/index.js>
//        [--workspace <dir>] [--env KEY=VALUE ...] [--screenshot <file.png>]
//        [--timeout <seconds, default 300>] [--keep-run-dir] [--verbose]
// Exit code: the suite's (0 = passed); 1 on timeout or harness failure; 2 on bad usage.
// Needs `node scripts/e2e/setup-vscode.mjs` once per machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import util from 'node:util';
import { launchBrowser, openWorkbench, screenshot } from './browser.mjs';
import { startCodeServer, workbenchUrl } from './code-server.mjs';
import { assertInstalled } from './paths.mjs';
import { budget } from './waits.mjs';

// The same channel carries the workbench's own start-up messages; they bury the
// suite's output, so they are shown only with --verbose.
const WORKBENCH_CHATTER = /^(Resolving connection token|Resolved connection token|Creating a socket|\[reconnection-grace-time\]|\[Service Worker\]|\[driver\]|\[AgentHost|\[AccountPolicyGate\]|No search provider registered|.*additional builtin extensions)/i;

const t0 = Date.now();
const say = (msg) => console.log(`[e2e ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);

function usage(msg) {
  console.error(`run-extension-tests: ${msg}`);
  console.error('usage: run-extension-tests.mjs --extension DIR --tests FILE [--workspace DIR] [--env K=V ...] [--screenshot FILE] [--timeout S] [--keep-run-dir] [--verbose]');
  process.exit(2);
}

function parseArgs(argv) {
  const o = { env: {}, timeout: 300, keepRunDir: false, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--keep-run-dir') { o.keepRunDir = true; continue; }
    if (flag === '--verbose') { o.verbose = true; continue; }
    const value = argv[++i];
    if (value === undefined) usage(`${flag} needs a value`);
    switch (flag) {
      case '--extension': o.extension = path.resolve(value); break;
      case '--tests': o.tests = path.resolve(value); break;
      case '--workspace': o.workspace = path.resolve(value); break;
      case '--screenshot': o.screenshot = path.resolve(value); break;
      case '--timeout': o.timeout = Number(value); break;
      case '--env': {
        const eq = value.indexOf('=');
        if (eq <= 0) usage(`--env expects KEY=VALUE, got ${value}`);
        o.env[value.slice(0, eq)] = value.slice(eq + 1);
        break;
      }
      default: usage(`unknown argument ${flag}`);
    }
  }
  if (!o.extension || !fs.existsSync(path.join(o.extension, 'package.json'))) usage('--extension must be a folder with a package.json');
  if (!o.tests || !fs.existsSync(o.tests)) usage('--tests must be an existing (compiled) test entry file');
  if (!(o.timeout > 0)) usage('--timeout must be a positive number of seconds');
  return o;
}

const opts = parseArgs(process.argv.slice(2));
try { assertInstalled(); } catch (e) { console.error(`run-extension-tests: ${e.message}`); process.exit(2); }

const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ase-e2e-run-'));
const workspace = opts.workspace || path.join(runDir, 'workspace');
let server = null;
let browser = null;
let exitCode = 1;

let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    if (browser) await browser.close();
    if (server) await server.stop();
    // Logs matter only when something went wrong.
    if (exitCode === 0 && !opts.keepRunDir) fs.rmSync(runDir, { recursive: true, force: true });
    else say(`run dir kept: ${runDir} (code-server.log, user-data/logs)`);
  })();
  return cleaning;
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => { say(`${sig}: cleaning up`); exitCode = 130; await cleanup(); process.exit(130); });
}

try {
  server = await startCodeServer({ workspace, runDir, env: opts.env });
  say(`code-server listening at ${server.url} (pid ${server.pid})`);

  browser = await launchBrowser({ profileDir: path.join(runDir, 'chromium') });
  const { page } = browser;
  page.on('pageerror', (e) => say(`[page error] ${e.message}`));

  // The workbench reports the test run through these two globals, the hooks
  // @vscode/test-web uses too: log lines from the host, then the exit code.
  let finish;
  const finished = new Promise((resolve) => { finish = resolve; });
  // mocha's closing lines, as the host printed them: an exit code of 0 without them is
  // a host that died (the workbench reports its exit as the run's end), not a pass.
  let summary = { passing: 0, failing: 0 };
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = Array.isArray(args) ? util.format(...args) : String(args);
    const passing = /(\d+) passing/.exec(text);
    const failing = /(\d+) failing/.exec(text);
    if (passing) summary.passing = Number(passing[1]);
    if (failing) summary.failing = Number(failing[1]);
    if (!opts.verbose && WORKBENCH_CHATTER.test(text)) return;
    for (const line of text.split('\n')) console.log(type === 'error' ? `  ! ${line}` : `  | ${line}`);
  });
  await page.exposeFunction('codeAutomationExit', (code) => finish(Number(code)));

  const url = workbenchUrl({ port: server.port, workspace, extensionDevelopmentPath: opts.extension, extensionTestsPath: opts.tests });
  const readyMs = await openWorkbench(page, url);
  say(`workbench restored in ${(readyMs / 1000).toFixed(1)}s; running ${opts.tests}`);

  let timer;
  const outcome = await Promise.race([
    finished.then((code) => ({ code })),
    server.exited.then(({ code, signal }) => ({ error: `code-server exited during the tests (code ${code}, signal ${signal})` })),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve({ error: `extension tests did not finish within ${budget(opts.timeout * 1000) / 1000}s (the host never called codeAutomationExit)` }), budget(opts.timeout * 1000));
    }),
  ]);
  clearTimeout(timer);

  if (opts.screenshot) say(`screenshot ${await screenshot(page, opts.screenshot)}`);
  if (outcome.error) throw new Error(outcome.error);
  if (outcome.code === 0 && !summary.passing) throw new Error('the host ended the run without a mocha summary (it crashed or hung: see the log above)');
  exitCode = outcome.code;
  say(`extension tests ${exitCode === 0 ? 'passed' : `FAILED (exit code ${exitCode})`}`);
} catch (e) {
  say(`FAILED: ${e.message}`);
  if (browser && opts.screenshot) {
    const shot = opts.screenshot.replace(/(\.png)?$/, '-failure.png');
    await screenshot(browser.page, shot).then((f) => say(`failure screenshot ${f}`), () => {});
  }
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
