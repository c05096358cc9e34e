#!/usr/bin/env node
// The one dependency check every entry script runs first (npm start, npm test, npm run
// package, npm run bench): `npm ci` when node_modules is missing or older than
// package-lock.json, nothing otherwise. A newcomer's first command, whichever it is, sets
// the project up; a failing install prints npm's own error and stops there.
//   node scripts/ensure-deps.mjs      (also importable: ensureDeps())
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const STAMP = '.ase-deps-lock.sha256';
const lockHash = (root) => createHash('sha256').update(fs.readFileSync(path.join(root, 'package-lock.json'))).digest('hex');

/** Why node_modules must be (re)installed, or null when it is up to date. */
export function staleReason(root = ROOT) {
  // npm writes node_modules/.package-lock.json after each install.
  const npmStamp = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(npmStamp)) return 'node_modules is missing';
  // After an install of ours: the lock file's hash then. A checkout that leaves the lock
  // file as it was (a new worktree, a branch switch) is not mistaken for a change.
  const ours = path.join(root, 'node_modules', STAMP);
  if (fs.existsSync(ours)) {
    return fs.readFileSync(ours, 'utf8').trim() === lockHash(root) ? null : 'package-lock.json changed since the last install';
  }
  // Installed by a plain `npm ci`: a lock file written later than it means out of date.
  const lock = fs.statSync(path.join(root, 'package-lock.json')).mtimeMs;
  if (lock > fs.statSync(npmStamp).mtimeMs + 5000) return 'package-lock.json is newer than node_modules';
  fs.writeFileSync(ours, lockHash(root) + '\n');
  return null;
}

/** Runs `npm ci` when needed. Throws with the step's name when the install fails. */
export function ensureDeps({ root = ROOT, say = (m) => console.log(`[deps] ${m}`) } = {}) {
  const why = staleReason(root);
  if (!why) {
    say('node_modules is up to date');
    return false;
  }
  say(`npm ci (${why})`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // Under `npm run --silent ...` npm passes npm_config_loglevel=silent down, which would
  // hide npm ci's own error: the install speaks at its usual level.
  const env = { ...process.env };
  delete env.npm_config_loglevel;
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', env });
  if (r.error) throw new Error(`dependencies: npm could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`dependencies: \`npm ci\` exited with ${r.status ?? r.signal} (its error is above)`);
  fs.writeFileSync(path.join(root, 'node_modules', STAMP), lockHash(root) + '\n');
  return true;
}

/** A tool from node_modules/.bin by its package's own entry, run with this Node (never npx). */
export function binOf(pkg, bin = pkg, root = ROOT) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8'));
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
  if (!rel) throw new Error(`${pkg} has no '${bin}' command`);
  return path.join(root, 'node_modules', pkg, rel);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    ensureDeps();
  } catch (err) {
    console.error(`ensure-deps: ${err.message}`);
    process.exit(1);
  }
}
