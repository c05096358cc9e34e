// A Gemini CLI store for the demo ($GEMINI_CLI_HOME/.gemini/tmp/<project>/chats): three of
// the sessions recorded with the real Gemini CLI (test/fixtures/gemini-cli): a compression in
// the middle of a tool loop, an interactive /rewind, and an invoke_agent call with its
// sub-agent's transcript in chats/<sessionId>/, all under one demo project, so the Sessions
// view and the explorer show Gemini's abandoned branch, compaction boundary and nested sub-agent.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ageFiles } from './demo-times.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'gemini-cli');
export const GEMINI_DEMO_ROOT = '/home/demo/gemini-project';
/** The recorded cases the demo copies: their session ids are their own (one per recording). */
export const GEMINI_DEMO_CASES = ['compression', 'rewind', 'subagent'];

/** The session id of a recorded case: the metadata line of its largest chat file. */
function sessionIdOf(chats) {
  const files = fs.readdirSync(chats).filter((n) => /^session-.*\.jsonl$/.test(n)).map((n) => path.join(chats, n));
  const main = files.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
  return JSON.parse(fs.readFileSync(main, 'utf8').split('\n')[0]).sessionId;
}

/** Writes the store under `home` (the folder GEMINI_CLI_HOME names); returns each case's session id. */
export function generateGeminiDemo(home) {
  const project = path.join(home, '.gemini', 'tmp', 'gemini-project');
  const chats = path.join(project, 'chats');
  fs.mkdirSync(chats, { recursive: true });
  const ids = {};
  for (const name of GEMINI_DEMO_CASES) {
    const from = path.join(FIXTURES, name, '.gemini', 'tmp', 'project', 'chats');
    // Session files (stubs included: the listing hides them, as Gemini does) and sub-agent folders.
    fs.cpSync(from, chats, { recursive: true });
    ids[name] = sessionIdOf(from);
  }
  // Each recording ran in its own throwaway project: the copies name the demo's, so the
  // listing groups them under it (projectHash is the sha256 of the project root, doc section 1).
  const hash = createHash('sha256').update(GEMINI_DEMO_ROOT).digest('hex');
  const files = fs.readdirSync(chats, { recursive: true }).map(String).filter((n) => n.endsWith('.jsonl'));
  for (const f of files) {
    const file = path.join(chats, f);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/"projectHash":"[0-9a-f]{64}"/g, `"projectHash":"${hash}"`));
  }
  fs.writeFileSync(path.join(project, '.project_root'), GEMINI_DEMO_ROOT);
  fs.writeFileSync(path.join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [GEMINI_DEMO_ROOT]: 'gemini-project' } }, null, 2) + '\n');
  ageFiles(home);
  return { home, chats, ids };
}
