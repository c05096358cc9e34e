// Reading the fake server's request log: the golden context of a probe, and a trimmed copy of
// the log to keep next to the fixtures (system prompts and tool schemas shortened to a note).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { contentText } from "./fake-chat.mjs";

const entries = (log) => readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

/**
 * The messages of the last agent request after line `seen` whose last message is the user
 * prompt `probe`, minus the system message(s) at the start and that prompt at the end,
 * keys and values exactly as sent.
 */
export function probeContext(log, seen, probe) {
  const sent = entries(log)
    .slice(seen)
    .filter((e) => e.kind === "agent" && contentText(e.body.messages?.at(-1)?.content).includes(probe));
  if (!sent.length) throw new Error(`no agent request ended with the probe ${probe}`);
  const messages = [...sent.at(-1).body.messages];
  const last = messages.pop();
  if (last.role !== "user" || contentText(last.content).replace(/^"|"$/g, "") !== probe) throw new Error(`the probe ${probe} is not a user message of its own: ${JSON.stringify(last).slice(0, 300)}`);
  let start = 0;
  while (messages[start]?.role === "system") start++;
  return messages.slice(start);
}

const note = (text) => `<${text.length} chars, sha256 ${createHash("sha256").update(text).digest("hex").slice(0, 16)}>`;

/** The log with every system message's content and the tool schemas replaced by a short note. */
export function trimmedLog(log) {
  return entries(log)
    .map((e) => {
      const body = { ...e.body };
      if (Array.isArray(body.messages)) body.messages = body.messages.map((m) => (m.role === "system" ? { ...m, content: note(contentText(m.content)) } : m));
      if (Array.isArray(body.tools)) body.tools = body.tools.map((t) => t.function?.name ?? t.type);
      return JSON.stringify({ ...e, body }) + "\n";
    })
    .join("");
}
