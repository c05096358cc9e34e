import { summarizeToolCall } from "../../session/tool-summary";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The plain text of a message's content (thought parts left out). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isObject)
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text as string)
    .join("\n");
}

/** The tool calls of a gemini message: its toolCalls, else functionCall parts of its content. */
export function callsOf(m: Record<string, unknown>): Array<{ id?: string; name: string; args: unknown; status?: string; result?: unknown }> {
  if (Array.isArray(m.toolCalls)) {
    return m.toolCalls.filter(isObject).map((c) => ({ id: typeof c.id === "string" ? c.id : undefined, name: String(c.name ?? "?"), args: c.args, status: typeof c.status === "string" ? c.status : undefined, result: c.result }));
  }
  if (!Array.isArray(m.content)) return [];
  return m.content
    .filter(isObject)
    .map((p) => p.functionCall)
    .filter(isObject)
    .map((fc) => ({ id: typeof fc.id === "string" ? fc.id : undefined, name: String(fc.name ?? "?"), args: fc.args }));
}

/** functionResponse parts of a user message (tool results sent back). */
export function responsesOf(m: Record<string, unknown>): Array<{ id?: string; name: string; response: unknown }> {
  if (!Array.isArray(m.content)) return [];
  return m.content
    .filter(isObject)
    .map((p) => p.functionResponse)
    .filter(isObject)
    .map((fr) => ({ id: typeof fr.id === "string" ? fr.id : undefined, name: String(fr.name ?? "?"), response: fr.response }));
}

/** A one-line row text: the prompt, the answer, or what the calls did. */
export function rowText(m: Record<string, unknown>, cwd: string): string {
  const text = contentText(m.content).trim();
  if (m.type === "gemini") {
    const calls = callsOf(m).map((c) => summarizeToolCall(c.name, (isObject(c.args) ? c.args : {}) as Record<string, unknown>, cwd));
    if (calls.length) return text ? `${text} -> ${calls.join(", ")}` : `-> ${calls.join(", ")}`;
    if (!text && Array.isArray(m.thoughts) && m.thoughts.length) return "(thinking)";
  }
  if (m.type === "user") {
    const results = responsesOf(m);
    if (results.length && !text) return results.map((r) => `${r.name}: ${resultText(r.response)}`).join(" | ");
  }
  return text;
}

/** A tool response's output as text (its output or error field, else its JSON). */
export function resultText(response: unknown): string {
  if (isObject(response)) {
    if (typeof response.output === "string") return response.output;
    if (typeof response.error === "string") return `Error: ${response.error}`;
  }
  return JSON.stringify(response) ?? "";
}
