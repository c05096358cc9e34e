// An OpenCode data folder for the demo (what agentSessions.opencodeHome names): databases
// recorded with the real opencode 1.18.33 (test/fixtures/opencode), one per scenario, as
// OpenCode's channel databases are named (opencode.db, opencode-<channel>.db): an
// auto-compaction, a pending revert and a task sub-agent with its child session, so the
// Sessions view and the explorer show OpenCode's boundary, abandoned branch and nested child.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'opencode');
/** Scenario -> the database file it becomes in the demo's data folder. */
export const OPENCODE_DEMO_DBS = { compaction: 'opencode.db', revert: 'opencode-revert.db', subagent: 'opencode-subagent.db' };

/** Writes the data folder `dir`; returns it with each scenario's database path. */
export function generateOpencodeDemo(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const dbs = {};
  for (const [scenario, name] of Object.entries(OPENCODE_DEMO_DBS)) {
    const to = path.join(dir, name);
    fs.copyFileSync(path.join(FIXTURES, scenario, 'data', 'opencode', 'opencode.db'), to);
    dbs[scenario] = to;
  }
  return { dir, dbs };
}
