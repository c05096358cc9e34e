/**
 * One small conversation written in every format we read, so that each hostile twist can be
 * applied to a session that detection accepts (the twist must reach the code behind it).
 * The shapes follow docs/session-format.md, docs/claude-code-format.md (15.1, 15.2) and the
 * fixtures under test/fixtures/<id>/.
 */

export type FormatId = "pi-v3" | "pi-v2" | "pi-v1" | "claude-code" | "clawdcode" | "seed-000";
export const FORMAT_IDS: readonly FormatId[] = ["pi-v3", "pi-v2", "pi-v1", "claude-code", "clawdcode", "seed-000"];

export type Raw = Record<string, unknown>;

/** A turn of the conversation, by number; `parent` numbers another turn (null at a root). */
export interface Turn {
  n: number;
  parent: number | null;
  role: "user" | "assistant" | "result";
  text: string;
  model?: string;
  /** Recorded tokens (and a cost where the format records one). */
  usage?: { input: unknown; output: unknown; cost?: unknown };
  /** A tool call the assistant makes. */
  call?: { id: string; name: string; input: Raw };
  /** The call this result answers. */
  answers?: { id: string; name: string };
}

export interface SessionFacts {
  cwd: string;
  /** Claude Code / clawdcode: the sessionId on every line. */
  sessionId: string;
}

/** The id a format's file gives turn n (pi v1 has none: its reader numbers the lines). */
export function idOf(format: FormatId, n: number): string {
  if (format.startsWith("pi")) return n.toString(16).padStart(8, "0");
  if (format === "seed-000") return `m${n}`;
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
}

const BASE_TIME = Date.parse("2026-03-01T10:00:00.000Z");
const iso = (n: number) => new Date(BASE_TIME + n * 1000).toISOString();

function piLine(format: FormatId, t: Turn): Raw {
  const ids = format === "pi-v1" ? {} : { id: idOf(format, t.n), parentId: t.parent === null ? null : idOf(format, t.parent) };
  const ts = BASE_TIME + t.n * 1000;
  let message: Raw;
  if (t.role === "user") message = { role: "user", content: [{ type: "text", text: t.text }], timestamp: ts };
  else if (t.role === "result") message = { role: "toolResult", toolCallId: t.answers?.id, toolName: t.answers?.name, content: [{ type: "text", text: t.text }], isError: false, timestamp: ts };
  else {
    const content: Raw[] = [{ type: "text", text: t.text }];
    if (t.call) content.push({ type: "toolCall", id: t.call.id, name: t.call.name, arguments: t.call.input });
    const u = t.usage ?? { input: 100, output: 20 };
    const usage: Raw = { input: u.input, output: u.output, cacheRead: 0, cacheWrite: 0, totalTokens: 120 };
    if (u.cost !== undefined) usage.cost = { total: u.cost };
    message = { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: t.model ?? "claude-sonnet-4-5", usage, stopReason: t.call ? "toolUse" : "stop", timestamp: ts };
  }
  return { type: "message", ...ids, timestamp: iso(t.n), message };
}

function piHeader(format: FormatId, facts: SessionFacts): Raw {
  const version = format === "pi-v3" ? { version: 3 } : format === "pi-v2" ? { version: 2 } : {};
  return { type: "session", ...version, id: "c0ffee00-0000-4000-8000-00000000a5e0", timestamp: iso(0), cwd: facts.cwd };
}

function claudeCodeLine(t: Turn, facts: SessionFacts): Raw {
  const env = { parentUuid: t.parent === null ? null : idOf("claude-code", t.parent), isSidechain: false, userType: "external", cwd: facts.cwd, sessionId: facts.sessionId, version: "2.1.90", gitBranch: "main" };
  const head = { ...env, uuid: idOf("claude-code", t.n), timestamp: iso(t.n) };
  if (t.role === "user") return { ...head, type: "user", message: { role: "user", content: t.text } };
  if (t.role === "result") {
    const out: Raw = { ...head, type: "user", message: { role: "user", content: [{ tool_use_id: t.answers?.id, type: "tool_result", content: t.text }] }, toolUseResult: { stdout: t.text } };
    return out;
  }
  const content: Raw[] = [{ type: "text", text: t.text }];
  if (t.call) content.push({ type: "tool_use", id: t.call.id, name: t.call.name, input: t.call.input });
  const u = t.usage ?? { input: 100, output: 20 };
  const message = { model: t.model ?? "claude-sonnet-4-5-20250929", id: `msg_${t.n}`, type: "message", role: "assistant", content, stop_reason: t.call ? "tool_use" : "end_turn", usage: { input_tokens: u.input, output_tokens: u.output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } };
  return { ...head, type: "assistant", message, ...(u.cost !== undefined ? { costUSD: u.cost } : {}) };
}

/** clawdcode splits a call into its own `tool_use` line; the text part stays on the assistant line. */
function clawdcodeLines(t: Turn, facts: SessionFacts): Raw[] {
  const head = (n: number, parent: number | null) => ({ uuid: idOf("clawdcode", n), parentUuid: parent === null ? null : idOf("clawdcode", parent), sessionId: facts.sessionId, timestamp: iso(n), cwd: facts.cwd, gitBranch: "main", version: "0.4.2" });
  if (t.role === "user") return [{ ...head(t.n, t.parent), type: "user", message: { role: "user", content: t.text } }];
  if (t.role === "result") return [{ ...head(t.n, t.parent), type: "tool_result", message: { role: "user", content: "" }, toolResult: { id: t.answers?.id, output: t.text } }];
  const u = t.usage ?? { input: 100, output: 20 };
  const usage: Raw = { input_tokens: u.input, output_tokens: u.output };
  if (u.cost !== undefined) usage.cost = u.cost;
  const a: Raw = { ...head(t.n, t.parent), type: t.call ? "tool_use" : "assistant", message: { role: "assistant", content: t.text, model: t.model ?? "claude-sonnet-4-5", usage } };
  if (t.call) a.tool = { id: t.call.id, name: t.call.name, input: t.call.input };
  return [a];
}

function seedLine(t: Turn, facts: SessionFacts): Raw {
  const head = { id: idOf("seed-000", t.n), parentId: t.parent === null ? null : idOf("seed-000", t.parent), timestamp: BASE_TIME + t.n * 1000 };
  if (t.role === "user") return { ...head, type: "user", content: t.text, ...(t.parent === null ? { metadata: { cwd: facts.cwd } } : {}) };
  if (t.role === "result") return { ...head, type: "tool_result", content: t.text };
  const u = t.usage ?? { input: 100, output: 20 };
  const metadata = { model: t.model ?? "claude-sonnet-4-5", usage: { input_tokens: u.input, output_tokens: u.output, ...(u.cost !== undefined ? { cost: u.cost } : {}) } };
  // The seed keeps a call as its own line whose content is the JSON string {name, input}.
  if (t.call) return { ...head, type: "tool_call", content: JSON.stringify({ name: t.call.name, input: t.call.input }), metadata };
  return { ...head, type: "assistant", content: t.text, metadata };
}

/** The lines of a session of `format` holding `turns` (objects; the caller serialises or twists them). */
export function sessionLines(format: FormatId, turns: readonly Turn[], facts: SessionFacts): Raw[] {
  switch (format) {
    case "pi-v3":
    case "pi-v2":
    case "pi-v1":
      return [piHeader(format, facts), ...turns.map((t) => piLine(format, t))];
    case "claude-code":
      return turns.map((t) => claudeCodeLine(t, facts));
    case "clawdcode":
      return turns.flatMap((t) => clawdcodeLines(t, facts));
    case "seed-000":
      return turns.map((t) => seedLine(t, facts));
  }
}

/** The tool that reads a file, by the name each agent gives it, and its path argument. */
export function readCall(format: FormatId, id: string, path: string): { id: string; name: string; input: Raw } {
  if (format === "claude-code") return { id, name: "Read", input: { file_path: path } };
  return { id, name: "read", input: { path } };
}

/**
 * The plain conversation every twist starts from: a question, a read, its result, an answer,
 * and a side branch from the first question (so diff, fork and branch have two leaves).
 * pi v1 is one straight line: its side "branch" is simply further down the line.
 */
export function baseTurns(format: FormatId, opts: { path?: string; text?: string } = {}): Turn[] {
  const linear = format === "pi-v1";
  return [
    { n: 1, parent: null, role: "user", text: opts.text ?? "Read src/a.ts please" },
    { n: 2, parent: 1, role: "assistant", text: "Reading it.", call: readCall(format, "call_1", opts.path ?? "src/a.ts") },
    { n: 3, parent: 2, role: "result", text: "export const a = 1;", answers: { id: "call_1", name: readCall(format, "", "").name } },
    { n: 4, parent: 3, role: "assistant", text: "It exports a.", usage: { input: 900, output: 20 } },
    { n: 5, parent: linear ? 4 : 1, role: "user", text: "Another question" },
    { n: 6, parent: 5, role: "assistant", text: "Another answer", usage: { input: 300, output: 10 } },
  ];
}

/** The leaves and ids the commands that take an id use: main leaf 4, side leaf 6, root 1. */
export interface CaseIds {
  at: string;
  a: string;
  b: string;
  to: string;
}

export function baseIds(format: FormatId): CaseIds {
  return { at: idOf(format, 4), a: idOf(format, 4), b: idOf(format, 6), to: idOf(format, 1) };
}
