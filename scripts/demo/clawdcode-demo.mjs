// A clawdcode store for the demo: the repo's own clawdcode fixture (a compaction and a
// rewind), moved into the demo's project so the Sessions view shows pi's sessions and
// this one together under /home/demo/project.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'clawdcode', 'branches-compaction.jsonl');
export const CLAWDCODE_DEMO_CWD = '/home/demo/project';

/** Writes <root>/projects/<cwd with / as ->/<sessionId>.jsonl; returns its path. */
export function generateClawdcodeDemo(root) {
  const lines = fs.readFileSync(FIXTURE, 'utf8').split('\n').filter((l) => l.trim()).map((l) => ({ ...JSON.parse(l), cwd: CLAWDCODE_DEMO_CWD }));
  const dir = path.join(root, 'projects', CLAWDCODE_DEMO_CWD.replace(/\//g, '-'));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${lines[0].sessionId}.jsonl`);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}
