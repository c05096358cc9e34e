/** Tiny factories for Claude Code lines: each test states its session in a few lines. */

export type Raw = Record<string, unknown>;

export const SESSION = "cc000000-0000-4000-8000-000000000000";
const T0 = Date.parse("2026-03-01T10:00:00.000Z");
let tick = 0;

/** The envelope every conversation line carries (section 2); times increase with each line made. */
function envelope(uuid: string, parentUuid: string | null, type: string): Raw {
  return {
    parentUuid,
    isSidechain: false,
    userType: "external",
    cwd: "/home/dev/demo",
    sessionId: SESSION,
    version: "2.1.90",
    gitBranch: "main",
    type,
    uuid,
    timestamp: new Date(T0 + 1000 * tick++).toISOString(),
  };
}

export function user(uuid: string, parent: string | null, content: unknown, extra: Raw = {}): Raw {
  return { ...envelope(uuid, parent, "user"), message: { role: "user", content }, ...extra };
}

/** One fragment of an API response: one content block, the response's id and usage. */
export function fragment(uuid: string, parent: string | null, responseId: string, block: Raw, extra: Raw = {}): Raw {
  const usage = { input_tokens: 10, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 5 };
  const message = { model: "claude-sonnet-4-5-20250929", id: responseId, type: "message", role: "assistant", content: [block], stop_reason: null, usage };
  return { ...envelope(uuid, parent, "assistant"), message, requestId: `req_${responseId}`, ...extra };
}

export const text = (t: string): Raw => ({ type: "text", text: t });
export const thinking = (t: string): Raw => ({ type: "thinking", thinking: t, signature: "sig" });
export const toolUse = (id: string, name: string, input: Raw): Raw => ({ type: "tool_use", id, name, input });

export function toolResult(uuid: string, parent: string, toolUseId: string, content: string, extra: Raw = {}): Raw {
  return user(uuid, parent, [{ tool_use_id: toolUseId, type: "tool_result", content }], { sourceToolAssistantUUID: parent, toolUseResult: { stdout: content }, ...extra });
}

/** A failed tool call's result (is_error on the block, the tool's own error text beside it). */
export function toolError(uuid: string, parent: string, toolUseId: string, content: string): Raw {
  return user(uuid, parent, [{ tool_use_id: toolUseId, type: "tool_result", content, is_error: true }], { sourceToolAssistantUUID: parent, toolUseResult: `Error: ${content}` });
}

export function system(uuid: string, parent: string | null, subtype: string, extra: Raw = {}): Raw {
  return { ...envelope(uuid, parent, "system"), subtype, content: subtype, level: "info", ...extra };
}

export function progress(uuid: string, parent: string, toolUseID: string): Raw {
  return { ...envelope(uuid, parent, "progress"), data: { type: "hook_progress", hookEvent: "PostToolUse" }, toolUseID, parentToolUseID: toolUseID };
}

export function attachment(uuid: string, parent: string, type: string): Raw {
  return { ...envelope(uuid, parent, "attachment"), attachment: { type } };
}

export function boundary(uuid: string, logicalParent: string | null, metadata: Raw = {}): Raw {
  return { ...system(uuid, null, "compact_boundary", { content: "Conversation compacted", logicalParentUuid: logicalParent }), compactMetadata: { trigger: "manual", preTokens: 1234, ...metadata } };
}

export function compactSummary(uuid: string, parent: string, summary: string): Raw {
  return user(uuid, parent, `This session is being continued from a previous conversation that ran out of context. ${summary}`, { isCompactSummary: true, isVisibleInTranscriptOnly: true });
}

export function sidechain(r: Raw): Raw {
  return { ...r, isSidechain: true };
}

export function jsonl(records: readonly Raw[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** 1.0.x: a Task call, its sub-agent written inline (a sidechain root after the call), the call's result, an answer. */
export function inlineTask(): Raw[] {
  return [
    user("u1", null, "ask a helper"),
    fragment("a1", "u1", "msg_1", toolUse("t1", "Task", { description: "Check in", subagent_type: "general-purpose", prompt: "How are you?" })),
    sidechain(user("x1", null, "How are you?")),
    sidechain(fragment("x2", "x1", "msg_x", text("Fine, thanks."))),
    toolResult("r1", "a1", "t1", "Fine, thanks."),
    fragment("a2", "r1", "msg_2", text("It is fine.")),
  ];
}
