#!/usr/bin/env node
// `npm start`: from a fresh clone to a real VS Code with the Session Explorer open on a
// demo session, in one command.
//
//   1. npm ci            only when node_modules is missing or older than package-lock.json
//   2. node esbuild.mjs  the CLI, extension and webview bundles
//   3. scripts/e2e/setup-vscode.mjs   Node 24 + code-server + playwright-core (cached;
//                        a no-op after the first run)
//   4. the demo sessions (scripts/demo/generate-demo.mjs) into a throwaway dir, and a demo
//      workspace whose .agent-sessions/open.json asks the extension to open the rich one
//   5. code-server on 127.0.0.1 with the extension loaded from this folder and
//      PI_CODING_AGENT_DIR pointing at the demo (CLAWDCODE_DIR at a clawdcode store and
//      CLAUDE_CONFIG_DIR at a Claude Code one, GEMINI_CLI_HOME at a Gemini CLI one), so the
//      Sessions view lists every agent's sessions
//   6. a headless Chromium check that the explorer really shows the demo (skip it with
//      --no-browser-check), then the URL, and it waits for Ctrl+C / SIGTERM
//
// Options: --port N (default 8765, or a free one if that is taken), --no-browser-check.
// ASE_START_SMOKE=1: start, check, print the URL, stop and exit (0 = it worked).
// Everything it writes outside the repo is under $TMPDIR/ase-demo-* (removed on exit)
// and the e2e cache (~/.cache/agent-session-explorer/vscode-real, kept for next time).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_PORT = 8765;
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const say = (msg) => console.log(`[start ${elapsed()}] ${msg}`);

function parseArgs(argv) {
  const o = { port: undefined, browserCheck: true, smoke: process.env.ASE_START_SMOKE === '1' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-browser-check') o.browserCheck = false;
    else if (a === '--port' || a.startsWith('--port=')) {
      const v = a.includes('=') ? a.slice(7) : argv[++i];
      o.port = Number(v);
      if (!Number.isInteger(o.port) || o.port < 1 || o.port > 65535) bad(`--port expects a port number, got ${v}`);
    } else if (a === '--help' || a === '-h') {
      console.log('usage: npm start [-- --port N] [-- --no-browser-check]   (ASE_START_SMOKE=1: start, check, stop)');
      process.exit(0);
    } else bad(`unknown argument ${a}`);
  }
  return o;
}
function bad(msg) { console.error(`start: ${msg}`); process.exit(2); }

/** Runs a set-up step with its output shown; any failure stops the start with its name. */
function step(title, cmd, args, opts = {}) {
  say(title);
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${title}: ${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${title}: \`${cmd} ${args.join(' ')}\` exited with ${r.status ?? r.signal}`);
}


/** Resolves the port to use: the requested one (must be free), else 8765, else any free one. */
async function choosePort(requested) {
  const free = (port) => new Promise((resolve) => {
    const srv = net.createServer().once('error', () => resolve(false)).listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
  if (requested !== undefined) {
    if (!(await free(requested))) throw new Error(`port ${requested} on 127.0.0.1 is in use: pick another with --port N`);
    return requested;
  }
  if (await free(DEFAULT_PORT)) return DEFAULT_PORT;
  say(`port ${DEFAULT_PORT} is in use; letting the system pick a free one`);
  return 0;
}

const opts = parseArgs(process.argv.slice(2));
let runDir = null;
let server = null;
let browser = null;
let cleaning = null;
function cleanup() {
  cleaning ??= (async () => {
    if (browser) await browser.close().catch(() => {});
    if (server) await server.stop().catch(() => {});
    if (runDir) fs.rmSync(runDir, { recursive: true, force: true });
  })();
  return cleaning;
}
let stopRequested = false;
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, async () => {
    if (stopRequested) return;
    stopRequested = true;
    console.log('');
    say(`${sig}: stopping code-server and removing the demo dir`);
    await cleanup();
    say('stopped');
    process.exit(0);
  });
}

try {
  // ---- 1-3: set-up (each step is quick when already done)
  ensureDeps({ say: (m) => say(`dependencies: ${m}`) });
  step('build: node esbuild.mjs', process.execPath, ['esbuild.mjs']);
  step('VS Code: node scripts/e2e/setup-vscode.mjs (first run installs code-server, ~2-3 min)', process.execPath, ['scripts/e2e/setup-vscode.mjs']);

  // Imported only now: they need nothing from node_modules, but the cache must exist.
  const { assertInstalled } = await import('./e2e/paths.mjs');
  const { startCodeServer, workbenchUrl } = await import('./e2e/code-server.mjs');
  const { generateDemo } = await import('./demo/generate-demo.mjs');
  const { generateClawdcodeDemo } = await import('./demo/clawdcode-demo.mjs');
  const { generateClaudeCodeDemo } = await import('./demo/claude-code-demo.mjs');
  const { generateGeminiDemo } = await import('./demo/gemini-demo.mjs');
  const { generateCodexDemo } = await import('./demo/codex-demo.mjs');
  const { generateOpencodeDemo } = await import('./demo/opencode-demo.mjs');
  assertInstalled();

  // ---- 4: the demo
  runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ase-demo-'));
  const agentDir = path.join(runDir, 'pi-agent');
  const sessionsDir = path.join(agentDir, 'sessions');
  const demo = generateDemo(sessionsDir);
  // A second agent's store beside pi's (clawdcode, one of the formats of our design).
  const clawdDir = path.join(runDir, 'clawdcode');
  generateClawdcodeDemo(clawdDir);
  // Claude Code's store: a rewind, a partial compaction, a sub-agent.
  const claudeDir = path.join(runDir, 'claude');
  generateClaudeCodeDemo(claudeDir);
  // Gemini CLI's store: recorded sessions with a compression, a /rewind, a sub-agent.
  const geminiHome = path.join(runDir, 'gemini');
  generateGeminiDemo(geminiHome);
  // Codex's store: a .zst rollout, a compaction, a fork, a sub-agent (recorded with codex-cli).
  const codexDir = path.join(runDir, 'codex');
  generateCodexDemo(codexDir);
  // OpenCode's data folder: recorded databases with a compaction, a revert, a sub-agent (agentSessions.opencodeHome).
  const opencodeDir = path.join(runDir, 'opencode');
  generateOpencodeDemo(opencodeDir);
  const workspace = path.join(runDir, 'demo-workspace');
  fs.mkdirSync(path.join(workspace, '.agent-sessions'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.agent-sessions', 'open.json'), JSON.stringify({ open: [demo.rich] }, null, 2) + '\n');
  fs.writeFileSync(path.join(workspace, 'README.md'),
    '# Agent Session Explorer demo\n\nThis throwaway workspace was made by `npm start`. `.agent-sessions/open.json` lists the sessions\n' +
    'the extension opens when this folder is opened. The demo sessions are in\n' + `\`${sessionsDir}\` (PI_CODING_AGENT_DIR=\`${agentDir}\`), a clawdcode store in \`${clawdDir}\` (CLAWDCODE_DIR), a Claude Code one in \`${claudeDir}\` (CLAUDE_CONFIG_DIR), a Gemini CLI one in \`${geminiHome}\` (GEMINI_CLI_HOME), a Codex one in \`${codexDir}\` (CODEX_HOME) and an OpenCode one in \`${opencodeDir}\` (setting agentSessions.opencodeHome).\n`);
  say(`demo sessions in ${sessionsDir}`);

  // The CLI on the same sessions, so the newcomer sees it once.
  const cliArgs = ['dist/cli.js', 'list', '--dir', sessionsDir, '--dir', `clawdcode=${clawdDir}`, '--dir', `claude-code=${claudeDir}`, '--dir', `gemini-cli=${geminiHome}`, '--dir', `codex=${codexDir}`, '--dir', `opencode=${opencodeDir}`];
  console.log(`\n$ node ${cliArgs.join(' ')}`);
  const cli = spawnSync(process.execPath, cliArgs, { cwd: ROOT, encoding: 'utf8' });
  process.stdout.write(cli.stdout || '');
  if (cli.status !== 0) throw new Error(`the CLI example failed (exit ${cli.status}): ${(cli.stderr || '').trim()}`);
  console.log('');

  // ---- 5: code-server
  const port = await choosePort(opts.port);
  server = await startCodeServer({
    workspace,
    runDir: path.join(runDir, 'code-server'),
    port,
    env: { PI_CODING_AGENT_DIR: agentDir, CLAWDCODE_DIR: clawdDir, CLAUDE_CONFIG_DIR: claudeDir, GEMINI_CLI_HOME: geminiHome, CODEX_HOME: codexDir },
    // OpenCode's folder by its setting: XDG_DATA_HOME would move code-server's own data too. The
    // setting is machine-scoped, so it goes where a remote window reads those: the server's settings.
    machineSettings: { 'agentSessions.opencodeHome': opencodeDir },
  });
  const url = workbenchUrl({ port: server.port, workspace, extensionDevelopmentPath: ROOT });
  say(`code-server listening on ${server.url} (log: ${server.logFile})`);
  server.exited.then(({ code, signal }) => {
    if (stopRequested || cleaning) return;
    console.error(`start: code-server exited unexpectedly (code ${code}, signal ${signal}); its log: ${server.logFile}`);
    cleanup().then(() => process.exit(1));
  });

  // ---- 6: check that the page really shows the explorer on the demo session
  if (opts.browserCheck) {
    const { launchBrowser, openWorkbench, webviewFrame, errorNotifications } = await import('./e2e/browser.mjs');
    say('checking the page in headless Chromium (skip with --no-browser-check)');
    browser = await launchBrowser({ profileDir: path.join(runDir, 'chromium') });
    const ms = await openWorkbench(browser.page, url);
    await webviewFrame(browser.page, { text: demo.knownText, timeoutMs: 60_000 });
    const errors = await errorNotifications(browser.page);
    if (errors.length) throw new Error(`the workbench shows error(s): ${errors.join(' | ')}`);
    say(`ok: workbench ready in ${(ms / 1000).toFixed(1)}s, the Session Explorer shows the demo session`);
    await browser.close();
    browser = null;
  } else if (opts.smoke) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  }

  console.log(`
  Agent Session Explorer is running in VS Code (code-server), ready after ${elapsed()}:

    ${url}

  Open that URL in a browser on this machine (127.0.0.1 only). The "Agent Sessions"
  icon in the activity bar lists the demo sessions; the explorer tab shows the rich one.
  Stop: press Ctrl+C here, or run: kill ${process.pid}
`);
  if (opts.smoke) {
    say('ASE_START_SMOKE=1: stopping');
    stopRequested = true;
    await cleanup();
    say('smoke: ok');
    process.exit(0);
  }
  // Stay in the foreground: the signal handlers above stop everything.
  setInterval(() => {}, 1 << 30);
} catch (e) {
  console.error(`start: FAILED: ${e.message}`);
  if (runDir && server) console.error(`start: code-server log: ${server.logFile} (kept)`);
  if (server) { await server.stop().catch(() => {}); server = null; }
  if (browser) await browser.close().catch(() => {});
  // Keep the run dir (logs) only when code-server got far enough to write one.
  if (runDir && !fs.existsSync(path.join(runDir, 'code-server', 'code-server.log'))) fs.rmSync(runDir, { recursive: true, force: true });
  else if (runDir) console.error(`start: run dir kept for inspection: ${runDir}`);
  process.exit(1);
}
