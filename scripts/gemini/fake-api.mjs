// A fake Gemini API (generativelanguage v1beta) on 127.0.0.1 for recording fixtures with
// the real Gemini CLI (docs/gemini-cli-format.md section 9). Every request body is logged
// (by scripts/agents/fake-server.mjs, with its kind);
// main-agent replies come from a script keyed on the request itself (the last user text
// and how many model turns follow it), so retries and side calls never shift the script.
import { startFakeServer } from "../agents/fake-server.mjs";

/** The last user turn's text parts, and the model turns after the last user text. */
export function lastPrompt(contents) {
  let prompt = "";
  let at = -1;
  contents.forEach((c, i) => {
    if (c.role !== "user") return;
    const text = (c.parts ?? []).filter((p) => typeof p.text === "string" && !p.text.startsWith("<session_context>")).map((p) => p.text).join("\n");
    if (text.trim()) {
      prompt = text;
      at = i;
    }
  });
  const modelTurnsAfter = contents.slice(at + 1).filter((c) => c.role === "model").length;
  return { prompt, modelTurnsAfter };
}

/** An object matching a JSON schema (the router and other side calls ask for one). */
export function fromSchema(schema) {
  if (!schema || typeof schema !== "object") return null;
  const type = String(schema.type ?? "").toLowerCase();
  if (schema.enum?.length) return schema.enum[0];
  if (type === "object" || schema.properties) {
    const out = {};
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = fromSchema(v);
    return out;
  }
  if (type === "array") return [];
  if (type === "boolean") return false;
  if (type === "integer" || type === "number") return 0;
  return "ok";
}

function systemText(body) {
  const si = body.systemInstruction ?? body.system_instruction;
  if (!si) return "";
  if (typeof si === "string") return si;
  return (si.parts ?? []).map((p) => p.text ?? "").join("\n");
}

/** What kind of call this is: the main agent's, a compression summary, or a side call. */
export function callKind(body) {
  const sys = systemText(body);
  const cfg = body.generationConfig ?? {};
  if (/state_snapshot/.test(sys)) return "compress";
  if (cfg.responseSchema || cfg.responseJsonSchema || cfg.responseMimeType === "application/json") return "json";
  if ((body.tools ?? []).some((t) => t.functionDeclarations?.length)) return "main";
  return "side";
}

/**
 * Starts the server (scripts/agents/fake-server.mjs). `script(prompt, modelTurnsAfter, body)`
 * returns the main reply: { parts, usage?, hang?, breakStream? }. Resolves to { port, close }.
 */
export function startFakeApi({ log, script }) {
  return startFakeServer({
    log,
    handle({ url, body }) {
      const kind = url.includes(":countTokens") ? "count" : callKind(body);
      const note = { kind };
      if (kind === "count") return { note, json: { totalTokens: 100 } };
      let reply;
      if (kind === "compress") reply = { parts: [{ text: "<state_snapshot>\n<overall_goal>Keep working on the notes.</overall_goal>\n</state_snapshot>" }] };
      else if (kind === "json") reply = { parts: [{ text: JSON.stringify(fromSchema(body.generationConfig?.responseJsonSchema ?? body.generationConfig?.responseSchema) ?? {}) }] };
      else if (kind === "side") reply = { parts: [{ text: "ok" }] };
      else {
        const { prompt, modelTurnsAfter } = lastPrompt(body.contents ?? []);
        reply = script(prompt, modelTurnsAfter, body);
      }
      const usage = { promptTokenCount: 1000, candidatesTokenCount: 20, totalTokenCount: 1020, ...(reply.usage ?? {}) };
      if (reply.hang) return { note, hang: true }; // never answers: the recorder interrupts the CLI
      const chunk = { candidates: [{ content: { role: "model", parts: reply.parts }, finishReason: "STOP", index: 0 }], usageMetadata: usage, modelVersion: "gemini-2.5-pro" };
      if (!url.includes(":streamGenerateContent")) return { note, json: chunk };
      if (reply.breakStream) return { note, eol: "\r\n", end: "break", events: [{ data: { candidates: [{ content: { role: "model", parts: [{ text: "partial" }] }, index: 0 }] } }] };
      return { note, eol: "\r\n", events: [{ data: chunk }] };
    },
  });
}
