// Starts and stops code-server: the real VS Code server, whose Node extension host runs
// our extension exactly as desktop VS Code would, with a web workbench as its window.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE_SERVER_ENTRY, NODE_BIN } from './paths.mjs';
import { budget } from './waits.mjs';

// Settings that keep a throwaway profile quiet and offline: no welcome page, no
// update checks, no marketplace or AI prompts stealing focus from the test.
const QUIET_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'window.restoreWindows': 'none',
};

/** Where startCodeServer({ runDir }) looks for installed extensions (see installVsix). */
export const extensionsDirOf = (runDir) => path.join(path.resolve(runDir), 'extensions');

/**
 * The per-run directories. code-server writes config.yaml and logs under XDG dirs, and
 * the server and built-in extensions leave sockets in TMPDIR: all of it stays in runDir.
 */
function runLayout(runDir) {
  const d = {
    userData: path.join(runDir, 'user-data'),
    extensions: extensionsDirOf(runDir),
    config: path.join(runDir, 'config.yaml'),
    xdgConfig: path.join(runDir, 'xdg', 'config'),
    xdgData: path.join(runDir, 'xdg', 'data'),
    xdgCache: path.join(runDir, 'xdg', 'cache'),
    tmp: path.join(runDir, 'tmp'),
    log: path.join(runDir, 'code-server.log'),
  };
  for (const dir of [path.join(d.userData, 'User'), d.extensions, d.xdgConfig, d.xdgData, d.xdgCache, d.tmp]) {
    fs.mkdirSync(dir, { recursive: true });
  }
  return d;
}

function serverEnv(d, extra) {
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: d.xdgConfig,
    XDG_DATA_HOME: d.xdgData,
    XDG_CACHE_HOME: d.xdgCache,
    TMPDIR: d.tmp,
    // An empty gallery: no Open VSX requests, which would only time out here.
    EXTENSIONS_GALLERY: '{}',
    ...extra,
  };
  // When launched from a VS Code terminal, don't let the CLI talk to that VS Code.
  delete env.VSCODE_IPC_HOOK_CLI;
  return env;
}

const tail = (file, n = 20) => {
  try { return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n'); } catch { return '(no log)'; }
};

/**
 * Starts code-server in its own process group and resolves once it listens.
 * @param {object} o
 * @param {string} o.workspace   folder the workbench opens
 * @param {string} o.runDir      throwaway directory for everything the server writes
 * @param {Record<string,string>} [o.env]  extra environment; it reaches the extension host
 * @param {number} [o.port]      default: a free port chosen by the OS
 * @param {object} [o.settings]  user settings merged over the quiet defaults
 * @param {object} [o.machineSettings]  the server's own settings (Machine/settings.json): where a
 *   remote window reads machine-scoped settings, such as the agents' folders. In User/settings.json
 *   VS Code drops them once the extension has declared them machine-scoped, so whether the extension
 *   host saw them there depended on timing.
 * @param {boolean} [o.workspaceTrust]  keep VS Code's workspace trust on: the folder opens in Restricted Mode
 * @param {number} [o.timeoutMs] how long to wait for "listening" (default 30 s)
 * @returns {Promise<{url: string, port: number, pid: number, dirs: object, logFile: string,
 *   extensionsDir: string, exited: Promise<{code, signal}>, stop: () => Promise<void>}>}
 */
export async function startCodeServer({ workspace, runDir, env = {}, port = 0, settings = {}, machineSettings = {}, timeoutMs: baseTimeout = 30_000, workspaceTrust = false }) {
  const timeoutMs = budget(baseTimeout);
  const d = runLayout(path.resolve(runDir));
  // workspaceTrust: the folder opens in Restricted Mode (untrusted), without the startup prompt.
  const trust = workspaceTrust ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {};
  fs.writeFileSync(path.join(d.userData, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...trust, ...settings }, null, 2));
  fs.mkdirSync(path.join(d.userData, 'Machine'), { recursive: true });
  fs.writeFileSync(path.join(d.userData, 'Machine', 'settings.json'), JSON.stringify(machineSettings, null, 2));
  fs.mkdirSync(workspace, { recursive: true });

  const args = [
    CODE_SERVER_ENTRY,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override', '--ignore-last-opened',
    '--user-data-dir', d.userData,
    '--extensions-dir', d.extensions,
    '--config', d.config,
    // Makes the built workbench honour ?payload= (extensionDevelopmentPath,
    // extensionTestsPath) and exposes window.driver for readiness checks.
    '--vscode-option', 'enable-smoke-test-driver',
    path.resolve(workspace),
  ];
  // detached = own process group: stop() reaches the extension host, pty host and
  // file watcher it forks; killing only the main pid leaves a watcher behind.
  const child = spawn(NODE_BIN, args, { env: serverEnv(d, env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const log = fs.createWriteStream(d.log);
  const killGroup = (sig) => { try { process.kill(-child.pid, sig); } catch { /* group already gone */ } };
  // Last resort if our process dies without calling stop(): never leave a server behind.
  const onExit = () => killGroup('SIGKILL');
  process.on('exit', onExit);

  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

  const listening = new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk) => {
      log.write(chunk);
      if (seen === null) return;
      seen += chunk;
      const m = seen.match(/HTTP server listening on http:\/\/127\.0\.0\.1:(\d+)/);
      if (m) { seen = null; resolve(Number(m[1])); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (e) => reject(new Error(`code-server could not start: ${e.message}`)));
    exited.then(({ code, signal }) => reject(new Error(`code-server exited before listening (code ${code}, signal ${signal}):\n${tail(d.log)}`)));
  });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`code-server did not listen within ${timeoutMs / 1000}s:\n${tail(d.log)}`)), timeoutMs);
  });

  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        killGroup('SIGTERM');
        const t = new Promise((r) => setTimeout(r, 5000).unref());
        await Promise.race([exited, t]);
      }
      // Children that outlive the main process (watcher) are still in the group.
      killGroup('SIGKILL');
      process.off('exit', onExit);
      await new Promise((r) => log.end(r));
    })();
    return stopping;
  };

  try {
    const actualPort = await Promise.race([listening, timeout]);
    return { url: `http://127.0.0.1:${actualPort}`, port: actualPort, pid: child.pid, dirs: d, logFile: d.log, extensionsDir: d.extensions, exited, stop };
  } catch (e) {
    await stop();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The workbench URL that opens `workspace` with an extension loaded from its folder
 * (like F5 in VS Code) and, optionally, runs its tests. code-server rejects
 * --extensionDevelopmentPath on its command line; the URL payload is the way in.
 */
export function workbenchUrl({ port, workspace, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${path.resolve(p)}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  let url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(path.resolve(workspace))}`;
  if (payload.length) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}

/**
 * Installs a packaged extension into an extensions dir, before the server starts:
 * installVsix(file, extensionsDirOf(runDir)). Returns code-server's last output line.
 */
export function installVsix(vsixPath, extensionsDir) {
  fs.mkdirSync(extensionsDir, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ase-vsix-'));
  try {
    const d = runLayout(scratch);
    const out = execFileSync(NODE_BIN, [
      CODE_SERVER_ENTRY, '--extensions-dir', path.resolve(extensionsDir), '--user-data-dir', d.userData,
      '--config', d.config, '--install-extension', path.resolve(vsixPath), '--force',
    ], { env: serverEnv(d, {}), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return out.trim().split('\n').pop();
  } catch (e) {
    throw new Error(`installing ${vsixPath} failed: ${(e.stderr || e.stdout || e.message).toString().trim().split('\n').pop()}`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
