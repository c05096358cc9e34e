// A fake OpenAI-compatible chat-completions server for recording OpenCode fixtures with the
// real build (../shared/docs/opencode-format.md section 7). It answers POST /v1/chat/completions
// with a stream of chat.completion.chunk events (reasoning_content, content, tool_calls, then
// finish_reason + usage, then [DONE]); every request body is logged by scripts/agents.
// Main-agent replies come from the scenario's script, keyed on the request itself (the last
// real user prompt and how many assistant messages follow it), so title and summary calls
// never shift the script.
import { startFakeServer } from "../agents/fake-server.mjs";

export const MODEL = "fake-model";

/** Text of a chat message's content (a string or an array of parts). */
export function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : (p.text ?? ""))).join("");
  return "";
}

/** Which call this is: the title generator, the compaction summarizer, or an agent's step. */
export function callKind(body) {
  const messages = body.messages ?? [];
  const system = messages.filter((m) => m.role === "system").map((m) => contentText(m.content)).join("\n");
  if (/title generator/i.test(system)) return "title";
  if (!(body.tools ?? []).length) return /summar/i.test(system) || messages.some((m) => /\[User\]:/.test(contentText(m.content))) ? "summary" : "other";
  return "agent";
}

/** The last user prompt that is not a synthetic continue, and the assistant messages after it. */
export function lastPrompt(messages) {
  let at = -1;
  for (let k = messages.length - 1; k >= 0; k--) {
    if (messages[k].role === "user") {
      at = k;
      break;
    }
  }
  const prompt = at < 0 ? "" : contentText(messages[at].content);
  const after = messages.slice(at + 1).filter((m) => m.role === "assistant").length;
  return { prompt, after };
}

/**
 * Starts the server. `script({ prompt, after, body, kind })` returns the agent's reply:
 * { reasoning?, text?, calls?: [{ name, args }], usage?: { prompt, completion, cached?, reasoning? } }.
 * Title and summary calls get fixed answers unless the script answers them too.
 * Resolves to { port, close, onRequest }.
 */
export function startFakeChat({ log, script }) {
  // Counters per server (one server per scenario), so the ids are the same in every recording.
  const seq = { chatcmpl: 0, call: 0 };
  const id = (p) => `${p}_${String(++seq[p]).padStart(3, "0")}`;
  return startFakeServer({
    log,
    handle({ method, url, body }) {
      if (method !== "POST" || !url.endsWith("/chat/completions")) return { status: 404, json: { error: { message: `fake server: no ${method} ${url}` } } };
      const kind = callKind(body);
      const { prompt, after } = lastPrompt(body.messages ?? []);
      let reply = script({ prompt, after, body, kind });
      if (!reply && kind === "title") reply = { text: `Title: ${prompt.replace(/\s+/g, " ").slice(0, 40)}` };
      if (!reply && kind === "summary") reply = { text: "## Summary\nThe user asked for a big job; the notes were read. Nothing is pending." };
      if (!reply) reply = { text: "ok" };
      return { note: { kind }, ...chunks(reply, id("chatcmpl"), () => id("call")) };
    },
  });
}

/** The SSE events of one reply. */
function chunks(reply, cid, callId) {
  const created = 1764115200;
  const chunk = (delta, finish = null, extra = {}) => ({ data: { id: cid, object: "chat.completion.chunk", created, model: MODEL, choices: [{ index: 0, delta, finish_reason: finish }], ...extra } });
  const events = [chunk({ role: "assistant", content: "" })];
  if (reply.reasoning) events.push(chunk({ reasoning_content: reply.reasoning }));
  if (reply.text) events.push(chunk({ content: reply.text }));
  (reply.calls ?? []).forEach((c, k) => {
    events.push(chunk({ tool_calls: [{ index: k, id: callId(), type: "function", function: { name: c.name, arguments: "" } }] }));
    events.push(chunk({ tool_calls: [{ index: k, function: { arguments: JSON.stringify(c.args) } }] }));
  });
  const u = { prompt: 1200, completion: 30, cached: 0, reasoning: reply.reasoning ? 10 : 0, ...(reply.usage ?? {}) };
  const usage = {
    prompt_tokens: u.prompt,
    completion_tokens: u.completion,
    total_tokens: u.prompt + u.completion,
    prompt_tokens_details: { cached_tokens: u.cached },
    completion_tokens_details: { reasoning_tokens: u.reasoning },
  };
  events.push({ data: { id: cid, object: "chat.completion.chunk", created, model: MODEL, choices: [{ index: 0, delta: {}, finish_reason: reply.calls?.length ? "tool_calls" : "stop" }], usage } });
  events.push({ data: "[DONE]" });
  return { events, end: reply.end };
}
