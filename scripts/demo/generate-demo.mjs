#!/usr/bin/env node
// Writes the demo sessions that `npm start` shows, in pi's sessions-dir layout:
//
//   <outDir>/--home-demo-project--/<iso>_<uuid>.jsonl    the rich demo (small, every kind of entry)
//   <outDir>/--home-demo-project--/<iso>_<uuid>.jsonl    a large session (~30 MB, many branches)
//   <outDir>/--home-demo-notes-app--/<iso>_<uuid>.jsonl  a small session ...
//   <outDir>/--home-demo-notes-app--/<iso>_<uuid>.jsonl  ... and a fork of it (header parentSession)
//
// Everything is generated from a fixed seed: the same outDir gives byte-identical files.
// The text is our own (a made-up "rainfall report" tool); nothing is copied from elsewhere.
// Usage: node scripts/demo/generate-demo.mjs <outDir> [--no-large]
// Prints one line per file: `<kind>\t<absolute path>`. As a module: generateDemo(outDir, opts).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------- determinism

/** mulberry32: a small seeded PRNG, good enough for demo data. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
    hex: (n) => { let s = ''; for (let i = 0; i < n; i++) s += Math.floor(next() * 16).toString(16); return s; },
  };
}

function uuidFrom(r) {
  const h = r.hex(32).split('');
  h[12] = '4';
  h[16] = '89ab'[parseInt(h[16], 16) & 3];
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const fileStamp = (iso) => iso.replace(/[:.]/g, '-');
const cwdDir = (cwd) => `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;

// ---------------------------------------------------------------- session writer

/**
 * Builds one session in memory. Every entry gets a fresh 8-hex id, its parent is the
 * current leaf unless told otherwise, and timestamps only move forward.
 */
class Session {
  constructor({ seed, cwd, start, parentSession }) {
    this.r = rng(seed);
    this.cwd = cwd;
    this.id = uuidFrom(this.r);
    this.time = Date.parse(start);
    this.header = { type: 'session', version: 3, id: this.id, timestamp: new Date(this.time).toISOString(), cwd };
    if (parentSession) this.header.parentSession = parentSession;
    this.lines = [JSON.stringify(this.header)];
    this.ids = new Set();
    this.leaf = null;
    this.byId = new Map();
  }

  newId() {
    for (;;) { const id = this.r.hex(8); if (!this.ids.has(id)) { this.ids.add(id); return id; } }
  }

  tick(minS = 2, maxS = 40) { this.time += this.r.int(minS * 1000, maxS * 1000); return this.time; }

  /** Appends an entry; `parentId` defaults to the current leaf. Returns its id. */
  add(type, fields, { parentId = this.leaf, secs } = {}) {
    const id = this.newId();
    const t = secs ? (this.time += secs * 1000) : this.tick();
    const entry = { type, id, parentId, timestamp: new Date(t).toISOString(), ...fields };
    // pi stamps the message (ms) a moment before it writes the entry.
    if (entry.message) entry.message = { ...entry.message, timestamp: t - this.r.int(1, 900) };
    this.lines.push(JSON.stringify(entry));
    this.byId.set(id, entry);
    this.leaf = id;
    return id;
  }

  /** Copies an existing entry object unchanged (used by the fork). */
  copy(entry) {
    this.ids.add(entry.id);
    this.lines.push(JSON.stringify(entry));
    this.byId.set(entry.id, entry);
    this.leaf = entry.id;
  }

  get fileName() { return `${fileStamp(this.header.timestamp)}_${this.id}.jsonl`; }

  write(sessionsDir) {
    const dir = path.join(sessionsDir, cwdDir(this.cwd));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, this.fileName);
    fs.writeFileSync(file, this.lines.join('\n') + '\n');
    // Modified when its last entry was written, so "newest first" lists show the demo's own dates.
    const last = new Date(this.time);
    fs.utimesSync(file, last, last);
    return file;
  }
}

// ---------------------------------------------------------------- message helpers

const MODEL = { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' };
// $ per million tokens (Sonnet-class list prices).
const PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

/** Usage for one call whose prompt is `prompt` tokens, most of it served from the cache. */
function usageFor(r, prompt, output) {
  const cacheWrite = Math.min(prompt, r.int(200, 1800));
  const input = r.int(3, 40);
  const cacheRead = Math.max(0, prompt - cacheWrite - input);
  const cost = {
    input: (input * PRICE.input) / 1e6,
    output: (output * PRICE.output) / 1e6,
    cacheRead: (cacheRead * PRICE.cacheRead) / 1e6,
    cacheWrite: (cacheWrite * PRICE.cacheWrite) / 1e6,
  };
  cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
  for (const k of Object.keys(cost)) cost[k] = Number(cost[k].toFixed(6));
  return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
}

/** Tracks the prompt size of a session so recorded usage grows like a real one. */
class Ctx {
  constructor(r, base = 4200) { this.r = r; this.tokens = base; this.base = base; }
  grow(chars) { this.tokens += Math.ceil(chars / 4); }
  reset(keepTokens) { this.tokens = this.base + keepTokens; }
}

const user = (text, extra = []) => ({ role: 'user', content: [{ type: 'text', text }, ...extra], timestamp: 0 });

let callSeq = 0;
const toolCallId = (r) => `toolu_${r.hex(4)}${String(++callSeq).padStart(4, '0')}${r.hex(12)}`;

function assistant(s, ctx, blocks, { stopReason } = {}) {
  const chars = JSON.stringify(blocks).length;
  const output = Math.max(12, Math.ceil(chars / 4) + s.r.int(5, 60));
  const usage = usageFor(s.r, ctx.tokens, output);
  ctx.grow(chars);
  const hasCalls = blocks.some((b) => b.type === 'toolCall');
  return { role: 'assistant', content: blocks, ...MODEL, usage, stopReason: stopReason || (hasCalls ? 'toolUse' : 'stop'), timestamp: 0 };
}

function toolResult(ctx, call, text, isError = false) {
  ctx.grow(text.length);
  return { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text }], isError, timestamp: 0 };
}

const addMessage = (s, message, opts) => s.add('message', { message }, opts);

// ---------------------------------------------------------------- a tiny PNG

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A 24x12 RGB "spreadsheet" thumbnail: a blue header row over striped rows, as base64. */
function demoPng() {
  const w = 24, h = 12;
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const row = y * (w * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < w; x++) {
      const grid = x % 8 === 0 || y % 3 === 0;
      const [r, g, b] = y < 3 ? [40, 90, 200] : grid ? [170, 170, 170] : y % 2 ? [250, 250, 250] : [232, 238, 246];
      raw.set([r, g, b], row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; ihdr[9] = 2; // 8-bit RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr), pngChunk('IDAT', zlib.deflateSync(raw, { level: 9 })), pngChunk('IEND', Buffer.alloc(0)),
  ]);
  return png.toString('base64');
}

// ---------------------------------------------------------------- (a) the rich demo

const REPORT_JS = `// rainfall-report: prints monthly rainfall per station as a table
import { readStations } from './stations.js';
import { formatTable } from './format.js';

export function report(rows, { unit = 'mm' } = {}) {
  const header = ['station', 'month', \`rain (\${unit})\`];
  const body = rows.map((r) => [r.station, r.month, r.rain.toFixed(1)]);
  return formatTable([header, ...body]);
}

export async function main(argv) {
  const rows = await readStations(argv[0] ?? 'data/stations.json');
  process.stdout.write(report(rows) + '\\n');
}
`;

const CSV_JS = `// CSV output for the report: RFC 4180 line endings, header first
export function toCsv(table) {
  return table.map((row) => row.join(',')).join('\\r\\n') + '\\r\\n';
}
`;

/** The session the explorer opens on start. Returns {session, knownText}. */
function richSession() {
  callSeq = 0;
  const s = new Session({ seed: 0x5eed01, cwd: '/home/demo/project', start: '2026-03-02T09:14:05.120Z' });
  const ctx = new Ctx(s.r);
  const call = (name, args) => ({ type: 'toolCall', id: toolCallId(s.r), name, arguments: args });

  s.add('model_change', { provider: 'anthropic', modelId: 'claude-sonnet-4-5' }, { secs: 1 });
  s.add('thinking_level_change', { thinkingLevel: 'medium' }, { secs: 1 });

  const first = 'The quarterly rainfall report only prints a table. Add a --csv flag to `report` so the numbers can go straight into a spreadsheet. Keep the table as the default.';
  const firstId = addMessage(s, user(first));
  ctx.grow(first.length);

  let c = call('read', { path: 'src/report.js' });
  addMessage(s, assistant(s, ctx, [
    { type: 'thinking', thinking: 'Start with the entry point: see how the table is built before adding a second output format.', thinkingSignature: `sig_${s.r.hex(24)}` },
    { type: 'text', text: "I'll look at how the report is produced first." }, c]));
  addMessage(s, toolResult(ctx, c, REPORT_JS));

  c = call('read', { path: 'test/report.test.js' });
  addMessage(s, assistant(s, ctx, [c]));
  addMessage(s, toolResult(ctx, c, "ENOENT: no such file or directory, open '/home/demo/project/test/report.test.js'", true));

  c = call('bash', { command: 'ls test && cat package.json | head -20' });
  addMessage(s, assistant(s, ctx, [
    { type: 'thinking', thinking: 'No test file for report yet. Check what tests exist and how they run.', thinkingSignature: `sig_${s.r.hex(24)}` }, c]));
  addMessage(s, toolResult(ctx, c, 'format.test.js\nstations.test.js\n{\n  "name": "rainfall-report",\n  "type": "module",\n  "scripts": { "test": "node --test test/" }\n}\n'));

  c = call('write', { path: 'src/csv.js', content: CSV_JS });
  addMessage(s, assistant(s, ctx, [{ type: 'text', text: 'Adding a small CSV writer next to the table formatter.' }, c]));
  addMessage(s, toolResult(ctx, c, `Successfully wrote ${CSV_JS.length} bytes to src/csv.js`));

  c = call('edit', {
    path: 'src/report.js',
    oldText: "  process.stdout.write(report(rows) + '\\n');",
    newText: "  const csv = argv.includes('--csv');\n  process.stdout.write(csv ? toCsv(table(rows)) : report(rows) + '\\n');",
  });
  addMessage(s, assistant(s, ctx, [c]));
  addMessage(s, toolResult(ctx, c, 'Successfully replaced text in src/report.js.'));

  const doneV1 = addMessage(s, assistant(s, ctx, [{ type: 'text', text: '`report --csv` now writes CSV (header row first, CRLF line endings); without the flag the table is unchanged.' }]));

  // Branch 1: an idea that was dropped (no summary), then the user came back to doneV1.
  addMessage(s, user('Actually, could it be tab-separated instead?'));
  addMessage(s, assistant(s, ctx, [{ type: 'text', text: 'It could, but spreadsheets guess the delimiter better with commas. Want both behind --format?' }]));
  s.add('label', { targetId: firstId, label: 'csv: start' }, { parentId: doneV1 });

  s.add('message', {
    message: {
      role: 'bashExecution', command: 'npm test', exitCode: 0, cancelled: false, truncated: false, timestamp: 0,
      output: '> rainfall-report@0.3.0 test\n> node --test test/\n\n✔ formats a table (1.2ms)\n✔ reads stations (3.4ms)\nℹ tests 2\nℹ pass 2\nℹ fail 0',
    },
  });
  ctx.grow(300);

  const imgText = 'Opened the CSV in a spreadsheet: the header row landed in the wrong place, see the screenshot.';
  const imageMsg = addMessage(s, user(imgText, [{ type: 'image', data: demoPng(), mimeType: 'image/png' }]));
  ctx.grow(imgText.length + 4800);

  c = call('edit', { path: 'src/csv.js', oldText: "join('\\r\\n') + '\\r\\n'", newText: "join('\\r\\n')" });
  addMessage(s, assistant(s, ctx, [
    { type: 'thinking', thinking: 'The picture shows an empty first row: the report prints a blank line before the header. The trailing CRLF is fine; the leading newline in main() is the culprit. Fix both places.', thinkingSignature: `sig_${s.r.hex(24)}` },
    { type: 'text', text: 'The blank row comes from an extra line break. Fixing it.' }, c]));
  addMessage(s, toolResult(ctx, c, 'Successfully replaced text in src/csv.js.'));
  addMessage(s, assistant(s, ctx, [{ type: 'text', text: 'Fixed: the header is the first row now.' }]));

  s.add('compaction', {
    summary: [
      '## Goal', 'Add CSV output (`report --csv`) to the rainfall report tool.', '',
      '## Progress', '### Done', '- [x] `src/csv.js` with `toCsv(table)`', '- [x] `--csv` flag in `src/report.js`', '### In Progress', '- [ ] Check the header row in a spreadsheet', '',
      '## Key Decisions', '- Commas, not tabs: spreadsheets detect them reliably', '',
      '## Next Steps', '1. Quote fields that contain commas',
      '', '<read-files>', 'src/report.js', '</read-files>', '', '<modified-files>', 'src/csv.js', 'src/report.js', '</modified-files>',
    ].join('\n'),
    firstKeptEntryId: imageMsg,
    tokensBefore: ctx.tokens,
    details: { readFiles: ['src/report.js'], modifiedFiles: ['src/csv.js', 'src/report.js'] },
  });
  ctx.reset(1900);

  addMessage(s, user('Station names like "Bergen, Florida" break the columns. Quote fields that contain commas or quotes.'));
  c = call('edit', {
    path: 'src/csv.js',
    oldText: "row.join(',')",
    newText: "row.map(quote).join(',')",
  });
  addMessage(s, assistant(s, ctx, [{ type: 'text', text: 'Adding RFC 4180 quoting.' }, c]));
  addMessage(s, toolResult(ctx, c, 'Successfully replaced text in src/csv.js.'));
  const quoted = addMessage(s, assistant(s, ctx, [{ type: 'text', text: 'Fields with commas, quotes or line breaks are now quoted, with inner quotes doubled.' }]));

  // Branch 2: try a library, then come back with a branch summary.
  addMessage(s, user('Would it be simpler to use the csv-stringify package instead of our own writer?'));
  c = call('bash', { command: 'npm view csv-stringify version dependencies' });
  addMessage(s, assistant(s, ctx, [c]));
  addMessage(s, toolResult(ctx, c, '6.5.2\n'));
  const libLeaf = addMessage(s, assistant(s, ctx, [{ type: 'text', text: 'It has no dependencies and handles quoting, but our writer is 12 lines and already tested; the package would add 80 kB for one function.' }]));
  s.add('branch_summary', {
    fromId: libLeaf,
    summary: 'Looked at csv-stringify as a replacement for src/csv.js. Decided against it: the hand-written writer is short, tested, and avoids a new dependency.',
    details: { readFiles: [], modifiedFiles: [] },
  }, { parentId: quoted });

  s.add('custom_message', { customType: 'reminder', content: 'Release checklist: bump the version and update CHANGELOG.md before tagging.', display: true });
  s.add('session_info', { name: 'CSV export for the rainfall report' });

  const headerAsk = addMessage(s, user('Last thing: add --no-header for appending to an existing file.'));
  c = call('edit', { path: 'src/report.js', oldText: "const csv = argv.includes('--csv');", newText: "const csv = argv.includes('--csv');\n  const header = !argv.includes('--no-header');" });
  addMessage(s, assistant(s, ctx, [c]));
  addMessage(s, toolResult(ctx, c, 'Successfully replaced text in src/report.js.'));
  c = call('bash', { command: 'node src/cli.js data/sample.json --csv --no-header | head -3' });
  addMessage(s, assistant(s, ctx, [c]));
  addMessage(s, toolResult(ctx, c, 'Bergen,2026-01,88.4\n"Bergen, Florida",2026-01,61.0\nTromsø,2026-01,97.3\n'));
  const labelled = addMessage(s, assistant(s, ctx, [{ type: 'text', text: '--no-header works; the quoted station name survives.' }]));
  s.add('label', { targetId: labelled, label: 'csv: done' });

  s.add('compaction', {
    summary: [
      '## Goal', 'CSV output for the rainfall report, usable for appending.', '',
      '## Progress', '### Done', '- [x] `--csv` with RFC 4180 quoting', '- [x] Header-row fix (blank first line)', '- [x] `--no-header`', '',
      '## Key Decisions', '- Own 12-line writer instead of csv-stringify', '',
      '## Next Steps', '1. Release: bump version, CHANGELOG',
      '', '<read-files>', 'src/report.js', '</read-files>', '', '<modified-files>', 'src/csv.js', 'src/report.js', '</modified-files>',
    ].join('\n'),
    firstKeptEntryId: headerAsk,
    tokensBefore: ctx.tokens,
    details: { readFiles: ['src/report.js'], modifiedFiles: ['src/csv.js', 'src/report.js'] },
  });
  ctx.reset(900);

  s.add('model_change', { provider: 'anthropic', modelId: 'claude-opus-4-5' });
  s.add('thinking_level_change', { thinkingLevel: 'high' });
  addMessage(s, user('Write the CHANGELOG entry for this.'));
  c = call('edit', { path: 'CHANGELOG.md', oldText: '## [Unreleased]', newText: '## [Unreleased]\n### Added\n- `report --csv` and `--no-header`' });
  const opus = { ...MODEL, model: 'claude-opus-4-5' };
  const a1 = assistant(s, ctx, [{ type: 'thinking', thinking: 'One Added entry covers both flags.', thinkingSignature: `sig_${s.r.hex(24)}` }, c]);
  addMessage(s, { ...a1, ...opus });
  addMessage(s, toolResult(ctx, c, 'Successfully replaced text in CHANGELOG.md.'));
  addMessage(s, { ...assistant(s, ctx, [{ type: 'text', text: 'CHANGELOG.md has the entry under Unreleased.' }]), ...opus });
  return { session: s, knownText: first.slice(0, 40) };
}

// ---------------------------------------------------------------- (b) the large one

const WORDS = ('station rainfall month sensor gauge reading archive import export column header quote parse ' +
  'stream buffer cache index window summary branch merge retry timeout fixture sample average median total ' +
  'threshold alert config option flag default unit metric millimetre inch convert round format table chart ' +
  'legend axis scale series range filter group sort join split trim encode decode schema field value record').split(' ');
const FILES = ['src/report.js', 'src/csv.js', 'src/format.js', 'src/stations.js', 'src/chart.js', 'src/units.js',
  'src/cli.js', 'test/format.test.js', 'test/stations.test.js', 'test/units.test.js', 'README.md', 'data/stations.json'];

function sentence(r, min = 6, max = 16) {
  const n = r.int(min, max);
  const w = [];
  for (let i = 0; i < n; i++) w.push(r.pick(WORDS));
  const s = w.join(' ');
  return s[0].toUpperCase() + s.slice(1) + '.';
}
const paragraph = (r, n) => Array.from({ length: n }, () => sentence(r)).join(' ');

/** Fake source text of roughly `size` chars. */
function sourceText(r, size) {
  const lines = [];
  let len = 0;
  while (len < size) {
    const indent = '  '.repeat(r.int(0, 3));
    const kind = r.int(0, 5);
    const a = r.pick(WORDS), b = r.pick(WORDS), c = r.pick(WORDS);
    const line = kind === 0 ? `${indent}// ${sentence(r, 4, 10)}`
      : kind === 1 ? `${indent}export function ${a}${b[0].toUpperCase()}${b.slice(1)}(${c}, options = {}) {`
        : kind === 2 ? `${indent}const ${a} = ${b}.${c}(${r.int(0, 999)});`
          : kind === 3 ? `${indent}if (${a}.${b} > ${r.int(1, 99)}) return ${c};`
            : kind === 4 ? `${indent}}` : `${indent}${a}.push({ ${b}: ${c}, at: ${r.int(1000, 9999)} });`;
    lines.push(line);
    len += line.length + 1;
  }
  return lines.join('\n');
}

function largeSession(targetBytes) {
  callSeq = 0;
  const s = new Session({ seed: 0x1a26e, cwd: '/home/demo/project', start: '2026-02-16T08:02:11.500Z' });
  const r = s.r;
  const ctx = new Ctx(r, 5200);
  s.add('model_change', { provider: 'anthropic', modelId: 'claude-sonnet-4-5' }, { secs: 1 });
  s.add('thinking_level_change', { thinkingLevel: 'low' }, { secs: 1 });
  s.add('session_info', { name: 'Rainfall tool: long refactoring session' }, { secs: 1 });

  let bytes = s.lines[0].length;
  let turn = 0;
  let sinceCompaction = [];   // turns on the main path since the last compaction
  const read = new Set(), modified = new Set();

  /** One user turn: a prompt, 1-6 tool round trips, a closing answer. */
  const oneTurn = (parentId) => {
    turn++;
    const before = ctx.tokens;
    const u = addMessage(s, user(`Turn ${turn}: ${paragraph(r, r.int(1, 4))}`), parentId ? { parentId } : undefined);
    ctx.grow(200);
    const rounds = r.int(1, 6);
    for (let k = 0; k < rounds; k++) {
      const name = r.pick(['read', 'read', 'bash', 'edit', 'write', 'read']);
      const file = r.pick(FILES);
      const args = name === 'bash' ? { command: r.pick(['npm test', 'git diff --stat', `grep -rn ${r.pick(WORDS)} src`, 'node src/cli.js data/sample.json']) }
        : name === 'read' ? { path: file }
          : name === 'write' ? { path: file, content: sourceText(r, r.int(400, 3000)) }
            : { path: file, oldText: sentence(r, 3, 8), newText: sentence(r, 3, 10) };
      if (name === 'read') read.add(file); else if (name !== 'bash') modified.add(file);
      const cl = { type: 'toolCall', id: toolCallId(r), name, arguments: args };
      const blocks = [];
      if (r.chance(0.4)) blocks.push({ type: 'thinking', thinking: paragraph(r, r.int(1, 5)), thinkingSignature: `sig_${r.hex(24)}` });
      if (r.chance(0.5)) blocks.push({ type: 'text', text: sentence(r) });
      blocks.push(cl);
      addMessage(s, assistant(s, ctx, blocks));
      const failed = r.chance(0.06);
      const out = failed ? `Error: ${sentence(r, 4, 9)}`
        : name === 'read' ? sourceText(r, r.int(2000, 24000))
          : name === 'bash' ? sourceText(r, r.int(200, 9000))
            : `Successfully ${name === 'write' ? 'wrote' : 'replaced text in'} ${file}.`;
      addMessage(s, toolResult(ctx, cl, out, failed));
    }
    const last = addMessage(s, assistant(s, ctx, [{ type: 'text', text: paragraph(r, r.int(1, 6)) }]));
    return { user: u, last, tokensBefore: before };
  };

  // Ends well past its last compaction, so a dry run has something to summarize.
  while (bytes < targetBytes || ctx.tokens < 90_000) {
    const t = oneTurn();
    sinceCompaction.push(t);
    // Every ~12 turns: an abandoned side branch from an earlier answer, then a branch summary back.
    if (turn % 12 === 0) {
      const from = s.leaf;
      const atFrom = ctx.tokens;
      let side = oneTurn(from);
      for (let k = r.int(0, 2); k > 0; k--) side = oneTurn();
      ctx.tokens = atFrom + 60; // back on the main path (plus the branch summary)
      s.add('branch_summary', { fromId: side.last, summary: `Tried another approach: ${paragraph(r, 2)} Went back because ${sentence(r)}`, details: { readFiles: [...read].slice(0, 4), modifiedFiles: [...modified].slice(0, 3) } }, { parentId: from });
    }
    if (turn % 17 === 0) s.add('label', { targetId: t.user, label: `checkpoint ${turn}` });
    // Near pi's auto-compaction threshold: a compaction that keeps the last few turns.
    if (ctx.tokens > 150_000 && sinceCompaction.length >= 4) {
      const kept = sinceCompaction[sinceCompaction.length - 3];
      const keep = kept.user;
      const keptTokens = ctx.tokens - kept.tokensBefore;
      s.add('compaction', {
        summary: `## Goal\nRefactor the rainfall tool.\n\n## Progress\n${paragraph(r, 4)}\n\n## Next Steps\n1. ${sentence(r)}\n\n<read-files>\n${[...read].join('\n')}\n</read-files>\n\n<modified-files>\n${[...modified].join('\n')}\n</modified-files>`,
        firstKeptEntryId: keep, tokensBefore: ctx.tokens,
        details: { readFiles: [...read].sort(), modifiedFiles: [...modified].sort() },
      });
      ctx.reset(2_000 + keptTokens);
      sinceCompaction = [];
    }
    bytes = s.lines.reduce((n, l) => n + l.length + 1, 0);
  }
  return s;
}

// ---------------------------------------------------------------- (c) a second project and a fork

function notesSessions(sessionsDir) {
  callSeq = 0;
  const s = new Session({ seed: 0x70fe5, cwd: '/home/demo/notes-app', start: '2026-02-24T14:30:00.000Z' });
  const ctx = new Ctx(s.r, 3100);
  s.add('model_change', { provider: 'anthropic', modelId: 'claude-haiku-4-5' }, { secs: 1 });
  const haiku = { ...MODEL, model: 'claude-haiku-4-5' };
  addMessage(s, user('List the notes that have no tags.'));
  const c = { type: 'toolCall', id: toolCallId(s.r), name: 'bash', arguments: { command: "grep -L '^tags:' notes/*.md" } };
  addMessage(s, { ...assistant(s, ctx, [c]), ...haiku });
  addMessage(s, toolResult(ctx, c, 'notes/groceries.md\nnotes/ideas.md\n'));
  const forkPoint = addMessage(s, { ...assistant(s, ctx, [{ type: 'text', text: 'Two notes have no tags: groceries.md and ideas.md.' }]), ...haiku });
  s.add('label', { targetId: forkPoint, label: 'untagged found' });
  addMessage(s, user('Tag both with "inbox".'));
  addMessage(s, { ...assistant(s, ctx, [{ type: 'text', text: 'Done: both now start with `tags: [inbox]`.' }]), ...haiku });
  s.add('session_info', { name: 'Untagged notes' });
  const original = s.write(sessionsDir);

  // The fork, as pi's /fork writes it: new header with parentSession, the path root..forkPoint
  // copied unchanged, then the labels that targeted that path re-created at the end.
  const f = new Session({ seed: 0x70fe6, cwd: s.cwd, start: '2026-02-24T15:02:41.250Z', parentSession: original });
  const pathIds = [];
  for (let id = forkPoint; id; id = s.byId.get(id).parentId) pathIds.unshift(id);
  for (const id of pathIds) f.copy(s.byId.get(id));
  f.time = Date.parse(f.header.timestamp);
  f.add('label', { targetId: forkPoint, label: 'untagged found' }, { secs: 1 });
  const fctx = new Ctx(f.r, 3300);
  addMessage(f, user('Instead of tagging them, move untagged notes into notes/inbox/.'));
  const mv = { type: 'toolCall', id: toolCallId(f.r), name: 'bash', arguments: { command: 'mkdir -p notes/inbox && git mv notes/groceries.md notes/ideas.md notes/inbox/' } };
  addMessage(f, { ...assistant(f, fctx, [mv]), ...haiku });
  addMessage(f, toolResult(fctx, mv, ''));
  addMessage(f, { ...assistant(f, fctx, [{ type: 'text', text: 'Moved both into notes/inbox/.' }]), ...haiku });
  return { original, fork: f.write(sessionsDir) };
}

// ---------------------------------------------------------------- entry point

/**
 * Writes the demo into `outDir` (a pi sessions dir). Returns the absolute paths.
 * @param {string} outDir
 * @param {{large?: boolean, largeBytes?: number}} [opts]
 */
export function generateDemo(outDir, { large = true, largeBytes = 30 * 1024 * 1024 } = {}) {
  const dir = path.resolve(outDir);
  fs.mkdirSync(dir, { recursive: true });
  const rich = richSession();
  const out = { rich: rich.session.write(dir), knownText: rich.knownText, richName: 'CSV export for the rainfall report' };
  if (large) out.large = largeSession(largeBytes).write(dir);
  Object.assign(out, notesSessions(dir));
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outDir = args.find((a) => !a.startsWith('--'));
  if (!outDir) {
    console.error('usage: node scripts/demo/generate-demo.mjs <outDir> [--no-large]');
    process.exit(2);
  }
  const res = generateDemo(outDir, { large: !args.includes('--no-large') });
  for (const kind of ['rich', 'large', 'original', 'fork']) if (res[kind]) console.log(`${kind}\t${res[kind]}`);
}
