/**
 * The `contents` Gemini CLI sends when it resumes a session (docs/gemini-cli-format.md
 * section 3), from the replayed message list: convertSessionToClientHistory, then
 * stripThoughts and coalesceConsecutiveRoles, tool-call ids without their `<tool>__` prefix.
 * The quirks are kept on purpose (tool results sent twice after a resume, consecutive
 * user turns merged): a reader that cleans them up is not showing what Gemini sends.
 */

export interface GeminiPart {
  [key: string]: unknown;
}

export interface GeminiContent {
  parts: GeminiPart[];
  role: "user" | "model";
}

/** Where each content came from: the message keys whose parts it holds. */
export interface NativeContent extends GeminiContent {
  sources: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const NOT_SENT = new Set(["info", "error", "warning"]);
const SKIPPED_PREFIXES = ["/", "?", "<session_context>", "<hook_context>"];
/** The marker Gemini CLI puts on a call whose thought (and signature) it stripped. */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

function asParts(content: unknown): GeminiPart[] {
  if (typeof content === "string") return content ? [{ text: content }] : [];
  if (Array.isArray(content)) return content.filter(isObject).map((p) => ({ ...p }));
  if (isObject(content)) return [{ ...content }];
  return [];
}

/** One part's share of partListUnionToString in verbose mode. */
function verbosePart(p: GeminiPart): string {
  if (typeof p.text === "string") return p.thought ? "[Thought: true]" : p.text;
  if (isObject(p.functionCall)) return `[Function Call: ${String(p.functionCall.name)}]`;
  if (isObject(p.functionResponse)) return `[Function Response: ${String(p.functionResponse.name)}]`;
  if (p.inlineData || p.fileData) return "[Image: media]";
  return "";
}

/** partListUnionToString in verbose mode: what decides whether a user message is kept. */
function verboseText(content: unknown): string {
  if (typeof content === "string") return content;
  return asParts(content).map(verbosePart).join("");
}

/**
 * Whether verboseText(content), past its leading white space, starts with `prefix`: built
 * only as far as that decides (the replay asks it of every user message of every checkpoint).
 */
function verboseStartsWith(content: unknown, prefix: string): boolean {
  if (typeof content === "string") return content.trimStart().startsWith(prefix);
  const parts = Array.isArray(content) ? content : isObject(content) ? [content] : [];
  let head = "";
  for (const p of parts) {
    if (!isObject(p)) continue;
    head = (head + verbosePart(p)).trimStart();
    if (head.length >= prefix.length) break;
  }
  return head.startsWith(prefix);
}

/**
 * Whether a message makes a session worth offering (hasResumableContent, doc section 4): a
 * user message the history keeps, or a gemini message with text, tool calls or thoughts.
 */
export function isResumable(m: Record<string, unknown>): boolean {
  if (m.type === "user") {
    const text = verboseText(m.content).trim();
    return text !== "" && !SKIPPED_PREFIXES.some((p) => text.startsWith(p));
  }
  if (m.type !== "gemini") return false;
  const has = (v: unknown) => Array.isArray(v) && v.length > 0;
  return verboseText(m.content).trim() !== "" || has(m.toolCalls) || has(m.thoughts);
}

/** The converted history (before stripping and coalescing), one content per message or result set. */
function toClientHistory(messages: ReadonlyArray<{ key: string; message: Record<string, unknown> }>): NativeContent[] {
  const out: NativeContent[] = [];
  for (const { key, message: m } of messages) {
    if (NOT_SENT.has(String(m.type))) continue;
    if (m.type === "user") {
      const text = verboseText(m.content).trim();
      if (!text || SKIPPED_PREFIXES.some((p) => text.startsWith(p))) continue;
      out.push({ role: "user", parts: asParts(m.content), sources: [key] });
    } else if (m.type === "gemini") {
      const content = asParts(m.content);
      const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObject) : [];
      let parts: GeminiPart[];
      if (content.some((p) => isObject(p.functionCall) || p.thought)) parts = content;
      else {
        const thoughts = (Array.isArray(m.thoughts) ? m.thoughts.filter(isObject) : []).map((t) => ({ text: `**${String(t.subject ?? "")}** ${String(t.description ?? "")}`, thought: true }));
        parts = [...thoughts, ...content, ...calls.map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args } }))];
      }
      if (parts.length) out.push({ role: "model", parts, sources: [key] });
      const results = calls.filter((c) => c.result !== undefined && c.result !== null);
      if (results.length) {
        const resultParts = results.flatMap((c) =>
          Array.isArray(c.result) ? c.result.filter(isObject).map((p) => ({ ...p })) : [{ functionResponse: { id: c.id, name: c.name, response: { output: c.result } } }],
        );
        out.push({ role: "user", parts: resultParts, sources: [key] });
      }
    }
  }
  return out;
}

/** `<tool>__<id>` in the store is `<id>` on the wire. */
function wireId(id: unknown, name: unknown): unknown {
  if (typeof id !== "string" || typeof name !== "string") return id;
  const prefix = `${name}__`;
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}

/** One part as the SDK puts it on the wire (key order as Gemini CLI's requests show it). */
function wirePart(p: GeminiPart): GeminiPart {
  if (isObject(p.functionCall)) {
    const fc = p.functionCall;
    const call: Record<string, unknown> = {};
    if (fc.id !== undefined) call.id = wireId(fc.id, fc.name);
    if (fc.args !== undefined) call.args = fc.args;
    call.name = fc.name;
    const { functionCall: _f, ...rest } = p;
    return { functionCall: call, ...rest };
  }
  if (isObject(p.functionResponse)) {
    const fr = p.functionResponse;
    const resp: Record<string, unknown> = { name: fr.name, response: fr.response };
    if (fr.id !== undefined) resp.id = wireId(fr.id, fr.name);
    const { functionResponse: _r, ...rest } = p;
    return { functionResponse: resp, ...rest };
  }
  return p;
}

/** stripThoughts: thought parts removed; a call after stripped thoughts gets the skip marker. */
function stripThoughts(c: NativeContent): NativeContent {
  const hadThoughts = c.parts.some((p) => p.thought);
  let marked = false;
  const parts = c.parts
    .filter((p) => !p.thought)
    .map((p) => {
      if (c.role === "model" && hadThoughts && !marked && isObject(p.functionCall)) {
        marked = true;
        if (p.thoughtSignature === undefined) return { ...p, thoughtSignature: SKIP_SIGNATURE };
      }
      return p;
    });
  return { ...c, parts };
}

/**
 * The contents for a message list (root first), each with the message keys it came from.
 * `sessionContext`: the stored <session_context> turn to put first (Gemini regenerates it at
 * every start; the stored copy is the closest a reader has).
 */
export function nativeContents(
  messages: ReadonlyArray<{ key: string; message: Record<string, unknown> }>,
  sessionContext?: { key: string; message: Record<string, unknown> },
): NativeContent[] {
  const history = toClientHistory(messages).map(stripThoughts).filter((c) => c.parts.length > 0 || c.role === "user");
  if (sessionContext) history.unshift({ role: "user", parts: asParts(sessionContext.message.content), sources: [sessionContext.key] });
  const merged: NativeContent[] = [];
  for (const c of history) {
    const last = merged.at(-1);
    if (last && last.role === c.role) {
      last.parts.push(...c.parts);
      last.sources.push(...c.sources.filter((s) => !last.sources.includes(s)));
    } else merged.push({ role: c.role, parts: [...c.parts], sources: [...c.sources] });
  }
  return merged.map((c) => ({ parts: c.parts.map(wirePart), role: c.role, sources: c.sources }));
}

/** The stored session-context message of a list, if there is one (its text starts with the tag). */
export function isSessionContext(m: Record<string, unknown>): boolean {
  return m.type === "user" && verboseStartsWith(m.content, "<session_context>");
}
