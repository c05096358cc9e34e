// A Claude Code store for the demo ($CLAUDE_CONFIG_DIR/projects/<cwd with / as ->/): the
// repo's own Claude Code fixtures (a rewind with a response over three lines; a partial
// compaction), each under its own session id, and a session whose Agent call started a
// sub-agent with its transcript in <sessionId>/subagents/ (2.1.x layout), so the Sessions
// view, the explorer and its sub-agent link all have something to show.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'claude-code');
export const CLAUDE_CODE_DEMO_CWD = '/home/demo/project';
export const CLAUDE_CODE_DEMO = {
  rewind: 'cd000000-0000-4000-8000-000000000001',
  compaction: 'cd000000-0000-4000-8000-000000000002',
  subagents: 'cd000000-0000-4000-8000-000000000003',
  /** The sub-agent's id, and what it was asked (shown on the Agent call). */
  agentId: 'a0demo0subagent01',
  agentTask: 'Survey the test suite',
};

const T0 = Date.parse('2026-03-02T09:00:00.000Z');
const write = (file, lines) => fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

/** One fixture, moved into the demo's project under a session id of its own. */
function moveFixture(dir, name, sessionId) {
  const lines = fs.readFileSync(path.join(FIXTURES, name), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const out = lines.map((l) => ({ ...l, ...(l.sessionId !== undefined ? { sessionId } : {}), ...(l.cwd !== undefined ? { cwd: CLAUDE_CODE_DEMO_CWD } : {}) }));
  const file = path.join(dir, `${sessionId}.jsonl`);
  write(file, out);
  return file;
}

function envelope(sessionId, uuid, parentUuid, type, k, extra = {}) {
  return { parentUuid, isSidechain: false, userType: 'external', cwd: CLAUDE_CODE_DEMO_CWD, sessionId, version: '2.1.90', gitBranch: 'main', type, uuid, timestamp: new Date(T0 + 1000 * k).toISOString(), ...extra };
}

function assistant(sessionId, uuid, parent, k, id, content, usage) {
  return envelope(sessionId, uuid, parent, 'assistant', k, { message: { model: 'claude-sonnet-4-5-20250929', id, type: 'message', role: 'assistant', content, stop_reason: null, usage }, requestId: `req_${id}` });
}

/** The main session and its sub-agent's transcript (and meta file). */
function subagentSession(dir) {
  const sid = CLAUDE_CODE_DEMO.subagents;
  const agent = CLAUDE_CODE_DEMO.agentId;
  const u = (n) => `cd300000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const usage = (input) => ({ input_tokens: 12, cache_creation_input_tokens: input, cache_read_input_tokens: 14000, output_tokens: 120 });
  const report = 'The suite has 42 tests in 6 files; 2 are slow (over 1 s): list-faults and kill-writes.';
  const main = [
    envelope(sid, u(1), null, 'user', 0, { message: { role: 'user', content: 'How healthy is our test suite? Ask a helper to survey it.' } }),
    assistant(sid, u(2), u(1), 1, 'msg_demo_1', [{ type: 'tool_use', id: 'toolu_demo_1', name: 'Agent', input: { description: CLAUDE_CODE_DEMO.agentTask, subagent_type: 'Explore', prompt: 'Count the tests, find slow ones, report briefly.' } }], usage(900)),
    envelope(sid, u(3), u(2), 'user', 20, {
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_demo_1', content: [{ type: 'text', text: report }] }] },
      sourceToolAssistantUUID: u(2),
      toolUseResult: { status: 'completed', agentId: agent, agentType: 'Explore', content: [{ type: 'text', text: report }], totalTokens: 9100, totalToolUseCount: 3 },
    }),
    assistant(sid, u(4), u(3), 21, 'msg_demo_2', [{ type: 'text', text: `${report} Shall I speed up the two slow ones?` }], usage(300)),
    { type: 'ai-title', aiTitle: 'Survey the test suite with a helper', sessionId: sid },
  ];
  write(path.join(dir, `${sid}.jsonl`), main);
  const subDir = path.join(dir, sid, 'subagents');
  fs.mkdirSync(subDir, { recursive: true });
  const s = (n) => `cd310000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const side = (uuid, parent, type, k, extra) => envelope(sid, uuid, parent, type, 2 + k, { isSidechain: true, agentId: agent, ...extra });
  const sub = [
    side(s(1), null, 'user', 0, { message: { role: 'user', content: 'Count the tests, find slow ones, report briefly.' } }),
    { ...side(s(2), s(1), 'assistant', 1, {}), message: { model: 'claude-haiku-4-5', id: 'msg_demo_sub_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_demo_s1', name: 'Bash', input: { command: 'npm test -- --reporter dot', description: 'Run the suite' } }], stop_reason: 'tool_use', usage: { input_tokens: 8, cache_creation_input_tokens: 2400, cache_read_input_tokens: 0, output_tokens: 40 } } },
    side(s(3), s(2), 'user', 10, { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_demo_s1', content: '42 passing (9s)\n  slow: list-faults 1.4s, kill-writes 1.1s' }] }, sourceToolAssistantUUID: s(2) }),
    { ...side(s(4), s(3), 'assistant', 11, {}), message: { model: 'claude-haiku-4-5', id: 'msg_demo_sub_2', type: 'message', role: 'assistant', content: [{ type: 'text', text: report }], stop_reason: 'end_turn', usage: { input_tokens: 8, cache_creation_input_tokens: 120, cache_read_input_tokens: 2400, output_tokens: 60 } } },
  ];
  write(path.join(subDir, `agent-${agent}.jsonl`), sub);
  fs.writeFileSync(path.join(subDir, `agent-${agent}.meta.json`), JSON.stringify({ agentType: 'Explore', description: CLAUDE_CODE_DEMO.agentTask }) + '\n');
}

/** Writes the store under `root` (the CLAUDE_CONFIG_DIR); returns the session files by what they show. */
export function generateClaudeCodeDemo(root) {
  const dir = path.join(root, 'projects', CLAUDE_CODE_DEMO_CWD.replace(/\//g, '-'));
  fs.mkdirSync(dir, { recursive: true });
  const rewind = moveFixture(dir, 'rewind-split-sidechain.jsonl', CLAUDE_CODE_DEMO.rewind);
  const compaction = moveFixture(dir, 'compaction-side-results.jsonl', CLAUDE_CODE_DEMO.compaction);
  subagentSession(dir);
  return { rewind, compaction, subagents: path.join(dir, `${CLAUDE_CODE_DEMO.subagents}.jsonl`) };
}
