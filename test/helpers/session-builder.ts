import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Tiny factories for pi entries, so each test states its own session in a few lines. */

let clock = Date.parse("2026-01-01T00:00:00.000Z");
function ts(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export type Raw = Record<string, unknown>;

export function header(extra: Raw = {}): Raw {
  return { type: "session", version: 3, id: "11111111-2222-3333-4444-555555555555", timestamp: ts(), cwd: "/home/ana/proj", ...extra };
}

export function user(id: string, parentId: string | null, text: string, extra: Raw = {}): Raw {
  return { type: "message", id, parentId, timestamp: ts(), message: { role: "user", content: [{ type: "text", text }], timestamp: clock }, ...extra };
}

export function assistant(id: string, parentId: string | null, text: string, opts: { toolCalls?: Array<{ id: string; name: string; arguments: Raw }>; usage?: Raw; model?: string; thinking?: string } = {}): Raw {
  const content: Raw[] = [];
  if (opts.thinking) content.push({ type: "thinking", thinking: opts.thinking, thinkingSignature: "sig" });
  if (text) content.push({ type: "text", text });
  for (const c of opts.toolCalls ?? []) content.push({ type: "toolCall", ...c });
  return {
    type: "message",
    id,
    parentId,
    timestamp: ts(),
    message: {
      role: "assistant",
      content,
      api: "anthropic-messages",
      provider: "anthropic",
      model: opts.model ?? "claude-sonnet-4-5",
      usage: opts.usage ?? { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120 },
      stopReason: opts.toolCalls?.length ? "toolUse" : "stop",
      timestamp: clock,
    },
  };
}

export function toolResult(id: string, parentId: string | null, toolCallId: string, toolName: string, text: string, isError = false): Raw {
  return { type: "message", id, parentId, timestamp: ts(), message: { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError, timestamp: clock } };
}

export function bash(id: string, parentId: string | null, command: string, output: string, extra: Raw = {}): Raw {
  return { type: "message", id, parentId, timestamp: ts(), message: { role: "bashExecution", command, output, exitCode: 0, cancelled: false, truncated: false, timestamp: clock, ...extra } };
}

export function entry(type: string, id: string, parentId: string | null, fields: Raw = {}): Raw {
  return { type, id, parentId, timestamp: ts(), ...fields };
}

/** The JSONL text of lines (objects are JSON-encoded, strings kept as is), newline-ended unless told not to be. */
export function sessionText(lines: Array<Raw | string>, opts: { trailingNewline?: boolean } = {}): string {
  const text = lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n");
  return opts.trailingNewline === false ? text : `${text}\n`;
}

/** Writes lines (objects are JSON-encoded, strings written as is) to a new temp file. */
export function writeSession(lines: Array<Raw | string>, opts: { trailingNewline?: boolean; dir?: string; name?: string } = {}): string {
  const dir = opts.dir ?? tempDir();
  const file = join(dir, opts.name ?? "session.jsonl");
  writeFileSync(file, sessionText(lines, opts));
  return file;
}

const made: string[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ase-test-"));
  made.push(dir);
  return dir;
}

// Temp dirs go when the run ends (mocha's root hook; absent where no mocha runs this).
if (typeof after === "function") {
  after(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}
