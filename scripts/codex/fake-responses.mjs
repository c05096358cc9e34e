// A fake OpenAI Responses API for recording Codex CLI fixtures: answers POST /v1/responses
// with a scripted SSE stream (listening on 127.0.0.1 and logging every request body is
// scripts/agents/fake-server.mjs's job).
// The script is chosen by keywords in the latest real user prompt, so one server serves
// every scenario of record.mjs (docs/codex-format.md, section "Recording").
import { startFakeServer } from "../agents/fake-server.mjs";

let seq = 0;
const nextId = (p) => `${p}_fake${String(++seq).padStart(4, "0")}`;

/** The text of the last user message that is a prompt (not Codex's own <...> context). */
export function lastPrompt(input) {
  for (let k = input.length - 1; k >= 0; k--) {
    const it = input[k];
    if (it.type !== "message" || it.role !== "user") continue;
    const text = (it.content ?? []).map((c) => c.text ?? "").join("");
    if (!text.startsWith("<")) return { text, at: k };
  }
  return { text: "", at: -1 };
}

export const message = (text) => ({ type: "message", id: nextId("msg"), role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [] }] });
export const reasoning = (summary) => ({ type: "reasoning", id: nextId("rs"), summary: [{ type: "summary_text", text: summary }], encrypted_content: Buffer.from(`opaque-${seq}`).toString("base64") });
export const call = (name, args) => ({ type: "function_call", id: nextId("fc"), status: "completed", name, arguments: JSON.stringify(args), call_id: nextId("call") });
const customCall = (name, input) => ({ type: "custom_tool_call", id: nextId("ctc"), status: "completed", name, input, call_id: nextId("call") });

const PATCH = ["*** Begin Patch", "*** Add File: notes.txt", "+written by the fake model", "*** End Patch", ""].join("\n");

/** What to answer: output items, usage, and how the stream ends. */
export function plan(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  const usage = { input: 1400, cached: 1024, output: 40, reasoning: 12 };
  // A local compaction request offers no tools.
  if (!Array.isArray(body.tools) || body.tools.length === 0) {
    return { items: [message("SUMMARY: the user asked for a big answer and then more; nothing else is pending.")], usage: { ...usage, reasoning: 0 } };
  }
  const { text, at } = lastPrompt(input);
  const after = input.slice(at + 1);
  const outputs = after.filter((i) => i.type === "function_call_output" || i.type === "custom_tool_call_output").length;
  if (text.includes("FAIL")) return { items: [message("this answer never completes")], end: "break" };
  if (text.includes("HANG")) return { items: [], end: "hang" };
  if (text.includes("BIG")) return { items: [message("A big answer that fills the window.")], usage: { input: 250000, cached: 200000, output: 3000, reasoning: 0 } };
  if (text.includes("TOOLS")) {
    if (outputs === 0) {
      return {
        items: [
          reasoning("Running three commands: one succeeds, one fails, one names no tool."),
          call("exec_command", { cmd: "echo hi" }),
          call("exec_command", { cmd: "ls /definitely/not/here" }),
          call("no_such_tool", { anything: 1 }),
        ],
        usage,
      };
    }
    if (outputs === 3) return { items: [customCall("apply_patch", PATCH)], usage };
    return { items: [message("Done: one command worked, one failed, one tool did not exist, and a patch was applied.")], usage };
  }
  return { items: [reasoning("Answering briefly."), message(`Echo: ${text.slice(0, 60)}`)], usage };
}

/** The SSE events of one planned response (each event's type also goes in its data). */
function events(p, id) {
  const ev = (type, data) => ({ event: type, data: { type, ...data } });
  const list = [ev("response.created", { response: { id, object: "response", status: "in_progress", output: [] } })];
  p.items.forEach((item, k) => {
    list.push(ev("response.output_item.added", { output_index: k, item }));
    if (item.type === "message") list.push(ev("response.output_text.delta", { output_index: k, item_id: item.id, content_index: 0, delta: item.content[0].text }));
    list.push(ev("response.output_item.done", { output_index: k, item }));
  });
  if (p.end) return { events: list, end: p.end };
  const u = p.usage;
  list.push(
    ev("response.completed", {
      response: {
        id,
        object: "response",
        status: "completed",
        output: p.items,
        usage: {
          input_tokens: u.input,
          input_tokens_details: { cached_tokens: u.cached },
          output_tokens: u.output,
          output_tokens_details: { reasoning_tokens: u.reasoning },
          total_tokens: u.input + u.output,
        },
      },
    }),
  );
  return { events: list };
}

/** Starts the server (scripts/agents/fake-server.mjs), answering with `planOf` (default `plan`); resolves to { port, close, onRequest }. */
export function startFake(logFile, planOf = plan) {
  return startFakeServer({
    log: logFile,
    handle({ method, url, body }) {
      if (method !== "POST" || !url.endsWith("/responses")) return { status: 404, json: { error: { message: "not here" } } };
      return events(planOf(body), nextId("resp"));
    },
  });
}
