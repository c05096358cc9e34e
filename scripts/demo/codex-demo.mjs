// A Codex CLI store for the demo ($CODEX_HOME): the rollouts recorded with codex-cli 0.169.0
// (test/fixtures/codex, scripts/codex/record*.mjs) copied in as Codex lays them out:
// sessions/YYYY/MM/DD/rollout-*.jsonl[.zst]. The main thread only as .jsonl.zst (a cold,
// compressed rollout), a thread with an auto-compaction, a fork of the main thread (its
// parent is found inside the .zst), a thread that spawned a sub-agent (listed under it) and
// session_index.jsonl naming that thread. The fixtures are only read.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ageFiles } from './demo-times.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'codex');
const DAY = ['sessions', '2026', '11', '26'];

const firstLine = (file) => fs.readFileSync(file, 'utf8').split('\n', 1)[0];

/** Copies every file of a fixture day folder matching `keep` into the demo's day folder; returns the copies. */
function copyDay(from, to, keep = () => true) {
  const dir = path.join(FIXTURES, from, ...DAY);
  return fs.readdirSync(dir).filter((n) => keep(path.join(dir, n))).map((n) => {
    fs.copyFileSync(path.join(dir, n), path.join(to, n));
    return path.join(to, n);
  });
}

/**
 * Writes the demo store under `home`; returns the paths the demo and its checks name:
 * { zst, compaction, fork, subagentParent }.
 */
export function generateCodexDemo(home) {
  const day = path.join(home, ...DAY);
  fs.mkdirSync(day, { recursive: true });
  const [zst] = copyDay('zst-home', day);
  const plainMain = path.basename(zst).replace(/\.zst$/, '');
  // The recorded home minus the main thread's plain file (beside its .zst it would win).
  const others = copyDay('home', day, (f) => path.basename(f) !== plainMain);
  const fork = others.find((f) => firstLine(f).includes('"history_base"'));
  const compaction = others.find((f) => f !== fork && fs.readFileSync(f, 'utf8').includes('"type":"compacted"'));
  const pair = copyDay('subagent-home', day);
  const subagentParent = pair.find((f) => !firstLine(f).includes('"subagent"'));
  fs.copyFileSync(path.join(FIXTURES, 'subagent-home', 'session_index.jsonl.recorded'), path.join(home, 'session_index.jsonl'));
  ageFiles(home);
  return { zst, compaction, fork, subagentParent };
}
