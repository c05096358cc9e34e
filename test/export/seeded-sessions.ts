// Sessions of three formats (pi, Claude Code, Codex) with the secrets of secret-kinds.ts
// in every place an export takes text from: user and assistant messages, thinking, tool
// inputs and outputs, file paths, labels and names, compaction summaries and their file
// lists, branch summaries, sub-agent transcripts (their own file and inline lines).

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as pi from "../helpers/session-builder";
import { tempDir } from "../helpers/session-builder";
import * as cc from "../formats/claude-code/lines";
import { meta, msg, THREAD, writeRollout } from "../formats/codex/helpers";
import { type SecretKind, secretBlob, secretKinds } from "./secret-kinds";

export interface SeededSession {
  format: string;
  file: string;
  kinds: SecretKind[];
}

/** Secrets that fit in a path segment or a label: one line, no spaces or quotes. */
function pathSafe(kinds: readonly SecretKind[]): SecretKind[] {
  return kinds.filter((k) => /^[\w.\-~+=:]+$/.test(k.text));
}

/** Paths holding each path-safe secret (a folder named by a token, as a mistaken paste makes). */
function secretPaths(kinds: readonly SecretKind[]): string[] {
  return pathSafe(kinds).map((k) => `/home/ana/proj/${k.text}/notes.txt`);
}

export function seededPi(): SeededSession {
  const kinds = secretKinds();
  const blob = secretBlob(kinds);
  const paths = secretPaths(kinds);
  const oneLine = pathSafe(kinds).map((k) => k.text).join(" ");
  const lines = [
    pi.header({ cwd: "/home/ana/proj" }),
    pi.entry("session_info", "n1", null, { name: `deploy with ${oneLine}` }),
    pi.user("u1", "n1", `please deploy, my keys:\n${blob}`),
    pi.assistant("a1", "u1", `I see these:\n${blob}`, {
      thinking: `thinking about\n${blob}`,
      toolCalls: [
        { id: "c1", name: "read", arguments: { path: paths[0] } },
        { id: "c2", name: "bash", arguments: { command: `export ALL="x"\n${blob}` } },
        ...paths.slice(1).map((p, k) => ({ id: `c${k + 3}`, name: "write", arguments: { path: p, content: "x" } })),
      ],
    }),
    pi.toolResult("r1", "a1", "c1", "read", `file says:\n${blob}`),
    pi.bash("b1", "r1", `cat .env # ${blob}`, `output:\n${blob}`),
    pi.entry("label", "l1", "b1", { targetId: "u1", label: oneLine }),
    pi.entry("compaction", "k1", "l1", { summary: `Summary:\n${blob}`, firstKeptEntryId: "b1", tokensBefore: 5000, details: { readFiles: paths, modifiedFiles: paths } }),
    pi.user("u2", "k1", "and now?"),
    // Another branch from u1, with a branch summary of the one left.
    pi.entry("branch_summary", "s1", "u1", { summary: `Left branch:\n${blob}`, fromId: "u2" }),
    pi.assistant("a2", "s1", `other branch\n${blob}`),
  ];
  return { format: "pi", file: pi.writeSession(lines), kinds };
}

export function seededClaudeCode(): SeededSession {
  const kinds = secretKinds();
  const blob = secretBlob(kinds);
  const paths = secretPaths(kinds);
  const dir = tempDir();
  const agentResult = cc.user("r2", "a3", [{ type: "tool_result", tool_use_id: "t2", content: `agent report:\n${blob}` }], { sourceToolAssistantUUID: "a3", toolUseResult: { status: "completed", agentId: "abc123", agentType: "Explore" } });
  const main = [
    cc.user("u1", null, `deploy with\n${blob}`),
    cc.fragment("a1", "u1", "msg_1", cc.thinking(`hmm\n${blob}`)),
    cc.fragment("a2", "a1", "msg_1", cc.toolUse("t1", "Bash", { command: `echo\n${blob}`, description: "show keys" })),
    cc.toolResult("r1", "a2", "t1", `out:\n${blob}`),
    ...paths.map((p, k) => cc.fragment(`p${k}`, k ? `p${k - 1}` : "r1", `msg_p${k}`, cc.toolUse(`tp${k}`, "Read", { file_path: p }))),
    cc.fragment("a3", `p${paths.length - 1}`, "msg_2", cc.toolUse("t2", "Agent", { description: `Check ${pathSafe(kinds)[0].text}`, subagent_type: "Explore", prompt: `look at\n${blob}` })),
    agentResult,
    cc.fragment("a4", "r2", "msg_3", cc.toolUse("t3", "Task", { description: "Inline helper", subagent_type: "general-purpose", prompt: `inline\n${blob}` })),
    // 1.0.x wrote the sub-agent inline, its first line the call's prompt.
    cc.sidechain(cc.user("x1", null, `inline\n${blob}`)),
    cc.sidechain(cc.fragment("x2", "x1", "msg_x", cc.text(`inline answer\n${blob}`))),
    cc.toolResult("r3", "a4", "t3", `inline done\n${blob}`),
    cc.boundary("k1", "r3"),
    cc.compactSummary("k2", "k1", `Summary:\n${blob}`),
    cc.fragment("a5", "k2", "msg_4", cc.text(`after compaction\n${blob}`)),
  ];
  const file = join(dir, `${cc.SESSION}.jsonl`);
  writeFileSync(file, cc.jsonl(main));
  const sub = join(dir, cc.SESSION, "subagents");
  mkdirSync(sub, { recursive: true });
  const subLines = [
    cc.sidechain(cc.user("s1", null, `sub prompt\n${blob}`)),
    cc.sidechain(cc.fragment("s2", "s1", "msg_s1", cc.toolUse("st1", "Grep", { pattern: blob, path: paths[0] }))),
    cc.sidechain(cc.toolResult("s3", "s2", "st1", `sub found\n${blob}`)),
    cc.sidechain(cc.fragment("s4", "s3", "msg_s2", cc.text(`sub answer\n${blob}`))),
  ];
  writeFileSync(join(sub, "agent-abc123.jsonl"), cc.jsonl(subLines.map((l) => ({ ...l, agentId: "abc123" }))));
  writeFileSync(join(sub, "agent-abc123.meta.json"), JSON.stringify({ agentType: "Explore", description: `meta ${pathSafe(kinds)[1].text}` }));
  return { format: "claude-code", file, kinds };
}

export function seededCodex(): SeededSession {
  const kinds = secretKinds();
  const blob = secretBlob(kinds);
  const paths = secretPaths(kinds);
  const dir = tempDir();
  const item = (ordinal: number, payload: Record<string, unknown>) => ({ timestamp: "2026-11-26T05:00:02.000Z", ordinal, type: "response_item", payload });
  const lines = [
    meta(THREAD, { cwd: "/home/ana/proj" }),
    msg(1, "user", `deploy with\n${blob}`),
    item(2, { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: `reasoning\n${blob}` }] }),
    item(3, { type: "function_call", id: "fc_1", name: "exec_command", arguments: JSON.stringify({ cmd: `cat ${paths[0]}\n${blob}`, workdir: paths[1] }), call_id: "call_1" }),
    item(4, { type: "function_call_output", id: "fco_1", call_id: "call_1", output: `Output:\n${blob}` }),
    msg(5, "assistant", `done\n${blob}`),
    { timestamp: "2026-11-26T05:00:03.000Z", ordinal: 6, type: "compacted", payload: { message: `Summary:\n${blob}`, replacement_history: [] } },
    msg(7, "user", `after compaction ${paths.join(" ")}`),
  ];
  return { format: "codex", file: writeRollout(dir, THREAD, lines), kinds };
}

/** Every seeded session. */
export function seededSessions(): SeededSession[] {
  return [seededPi(), seededClaudeCode(), seededCodex()];
}

/**
 * The grep every export format's test runs: the kinds whose secret (its needle), or a
 * piece of it, is in the output. Pieces catch a secret cut before it was redacted (a
 * title shortened to 300 characters ends inside a key, and the cut key no longer
 * matches its rule). Exported so the HTML export's test can use the same check.
 */
export function leakedKinds(output: string, kinds: readonly SecretKind[]): string[] {
  const pieces = (n: string) => [n, n.slice(-12), n.slice(Math.floor(n.length / 2) - 6, Math.floor(n.length / 2) + 6)];
  return kinds.filter((k) => pieces(k.needle).some((p) => output.includes(p))).map((k) => k.kind);
}
