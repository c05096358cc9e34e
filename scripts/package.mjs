#!/usr/bin/env node
// `npm run package`: the production bundles, then a .vsix made by @vscode/vsce (offline,
// --no-dependencies: everything the extension needs is bundled into dist/), then a check
// of what went in. Fails when the package holds sources, tests, node_modules, fixtures
// or source maps, or is larger than 10 MB.
//   output: dist-vsix/<name>-<version>.vsix
// vsce comes from node_modules (devDependency @vscode/vsce); ASE_VSCE=<path to its
// `vsce` script> overrides that.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_BYTES = 10 * 1024 * 1024;
// Paths inside the vsix are under extension/ (the rest is the manifest and [Content_Types].xml).
const FORBIDDEN = [
  [/^extension\/src\//, 'sources (src/)'],
  [/^extension\/test\//, 'tests (test/)'],
  [/^extension\/webview\/.*\.ts$/, 'webview sources (webview/*.ts)'],
  [/(^|\/)node_modules\//, 'node_modules/'],
  [/(^|\/)(shared|fixtures)\//, 'fixtures'],
  [/\.jsonl$/, 'session files (fixtures or demo)'],
  [/\.map$/, 'source maps (.map)'],
  [/(^|\/)(out|dist-bench|dist-vsix|test-artifacts|bench)\//, 'build or test output'],
  [/\.vsix$/, 'an older .vsix'],
];

const say = (msg) => console.log(`[package] ${msg}`);
function fail(msg) { console.error(`package: FAILED: ${msg}`); process.exit(1); }

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.error) fail(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) fail(`\`${path.basename(cmd)} ${args.join(' ')}\` exited with ${r.status ?? r.signal}`);
}

function findVsce() {
  const candidates = [process.env.ASE_VSCE, path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce')].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) fail('@vscode/vsce is not installed: run `npm ci` (it is a devDependency)');
  return found;
}

/** Names and sizes from a zip's central directory (no dependency, no unzip binary needed). */
export function zipEntries(file) {
  const buf = fs.readFileSync(file);
  // End of central directory record: signature 0x06054b50 within the last 64 KB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const compressed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    entries.push({ name: buf.toString('utf8', p + 46, p + 46 + nameLen), size, compressed });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** The text of one (stored or deflated) zip member, for the manifest check. */
function zipRead(file, name) {
  const buf = fs.readFileSync(file);
  for (let p = 0; p + 30 < buf.length;) {
    if (buf.readUInt32LE(p) !== 0x04034b50) break;
    const method = buf.readUInt16LE(p + 8);
    const compressed = buf.readUInt32LE(p + 18);
    const nameLen = buf.readUInt16LE(p + 26);
    const extraLen = buf.readUInt16LE(p + 28);
    const entryName = buf.toString('utf8', p + 30, p + 30 + nameLen);
    const start = p + 30 + nameLen + extraLen;
    if (entryName === name) {
      const data = buf.subarray(start, start + compressed);
      return (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8');
    }
    p = start + compressed;
  }
  return null;
}

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const outDir = path.join(ROOT, 'dist-vsix');
  const out = path.join(outDir, `${pkg.name}-${pkg.version}.vsix`);

  try {
    ensureDeps({ say: (m) => say(`dependencies: ${m}`) });
  } catch (err) {
    fail(err.message);
  }
  say('node esbuild.mjs --production');
  // Source maps from an earlier development build would otherwise ride along in dist/
  // (a fresh clone has no dist/ yet: nothing to remove).
  const dist = path.join(ROOT, 'dist');
  if (fs.existsSync(dist)) {
    for (const f of fs.readdirSync(dist, { recursive: true })) {
      if (String(f).endsWith('.map')) fs.rmSync(path.join(dist, String(f)), { force: true });
    }
  }
  run(process.execPath, ['esbuild.mjs', '--production']);

  const vsce = findVsce();
  fs.mkdirSync(outDir, { recursive: true });
  fs.rmSync(out, { force: true });
  say(`vsce package --no-dependencies --out ${path.relative(ROOT, out)}`);
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out]);

  const size = fs.statSync(out).size;
  const entries = zipEntries(out);
  console.log(`\n${path.relative(ROOT, out)}: ${kb(size)} (${(size / 1024 / 1024).toFixed(2)} MB), ${entries.length} files`);
  for (const e of entries) console.log(`  ${kb(e.size).padStart(10)}  ${e.name}`);

  const problems = [];
  for (const e of entries) {
    for (const [re, what] of FORBIDDEN) if (re.test(e.name)) problems.push(`${e.name}: ${what} must not be packaged`);
  }
  if (size > MAX_BYTES) problems.push(`the .vsix is ${(size / 1024 / 1024).toFixed(2)} MB, over the 10 MB limit`);
  // The tokenizer, the SDK and the exported page are bundles of their own that extension.js requires on first use;
  // cli.js and mcp.js are the MCP server the extension registers.
  for (const need of ['extension/package.json', 'extension/dist/extension.js', 'extension/dist/tokenizer.js', 'extension/dist/anthropic-sdk.js', 'extension/dist/export-page.js', 'extension/dist/cli.js', 'extension/dist/mcp.js', 'extension/dist/webview/main.js', 'extension.vsixmanifest']) {
    if (!entries.some((e) => e.name === need)) problems.push(`${need} is missing`);
  }
  // The bundle must be the minified production build: one long line, no sourceMappingURL.
  for (const name of ['extension.js', 'tokenizer.js', 'anthropic-sdk.js', 'cli.js', 'mcp.js']) {
    const bundle = zipRead(out, `extension/dist/${name}`);
    if (bundle !== null && (/sourceMappingURL/.test(bundle) || bundle.split('\n').length > 50)) {
      problems.push(`extension/dist/${name} is not the minified production bundle`);
    }
  }
  if (problems.length) fail(`\n  ${problems.join('\n  ')}`);
  say(`ok: ${path.relative(ROOT, out)} (${kb(size)})`);
}
